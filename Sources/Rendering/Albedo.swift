/// The surface colour (linear reflectance, RGB in 0...1) before lighting.
public enum Albedo: Sendable {
    /// One reflectance everywhere.
    case uniform(SIMD3<Float>)
    /// The mesh's per-vertex colours (sRGB, converted to linear and interpolated); `fallback`
    /// (linear) when the mesh has no colours.
    case vertexColors(fallback: SIMD3<Float>)
    /// A procedural texture evaluated at each shaded point (e.g. a solid texture of the position).
    case procedural(@Sendable (SurfacePoint) -> SIMD3<Float>)
}
