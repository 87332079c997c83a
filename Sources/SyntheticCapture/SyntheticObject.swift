import ReconstructionCore
import Rendering

/// The object of a synthetic scene in its own frame — metres, z up, resting on z = 0, centred over
/// the origin — and its texture.
struct SyntheticObject: Sendable {
    /// The exact surface, with vertex normals.
    let mesh: TriangleMesh
    /// Linear reflectance at a surface point (position and normal in the object frame).
    let albedo: @Sendable (SurfacePoint) -> SIMD3<Float>

    static func make(_ kind: SyntheticSceneKind) -> SyntheticObject {
        switch kind {
        case .texturedVase: return vase()
        case .plainBox: return plainBox()
        case .flipObject: return shoe()
        }
    }
}

/// Colours for texture spots: saturated hues spread over the whole brightness range, linear RGB.
let spotPalette: [SIMD3<Float>] = [
    SIMD3(0.02, 0.02, 0.025), SIMD3(0.85, 0.82, 0.75), SIMD3(0.03, 0.08, 0.42), SIMD3(0.06, 0.38, 0.08),
    SIMD3(0.6, 0.04, 0.03), SIMD3(0.82, 0.62, 0.05), SIMD3(0.05, 0.42, 0.45), SIMD3(0.32, 0.05, 0.38),
]

@inline(__always)
func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> { a + (b - a) * t }
