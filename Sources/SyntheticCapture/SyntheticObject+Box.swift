import ReconstructionCore
import Rendering

extension SyntheticObject {
    /// A 0.34 × 0.24 × 0.30 m box with 2 cm rounded edges in one flat colour: only its shading
    /// varies, so it offers few features to match.
    static func plainBox() -> SyntheticObject {
        var mesh = RoundedBoxMesh.make(halfExtents: SIMD3(0.17, 0.12, 0.15), radius: 0.02, spacing: 0.01, roundSegments: 4)
        mesh.positions = mesh.positions.map { $0 + SIMD3(0, 0, 0.15) }
        return SyntheticObject(mesh: mesh, albedo: { _ in SIMD3(0.45, 0.3, 0.18) })
    }
}
