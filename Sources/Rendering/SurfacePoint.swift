import ReconstructionCore

/// A visible surface point handed to a procedural albedo: where it is, how it is oriented and how
/// large a pixel is there (so a texture can filter itself instead of aliasing).
public struct SurfacePoint: Sendable {
    /// Position in the mesh's (world) frame, metres.
    public var position: SIMD3<Float>
    /// Unit shading normal in the world frame (interpolated vertex normals when the mesh has them),
    /// turned towards the camera for back faces rendered without culling.
    public var normal: SIMD3<Float>
    /// Unit normal of the triangle's plane in the world frame, on the camera's side.
    public var geometricNormal: SIMD3<Float>
    /// Index of the triangle in the mesh.
    public var triangleIndex: Int
    /// Perspective-correct barycentric weights of the triangle's corners (x, y, z of its index triple).
    public var barycentrics: SIMD3<Float>
    /// Unit direction from the camera centre to the point, world frame.
    public var viewDirection: SIMD3<Float>
    /// Depth along the camera's z axis, metres.
    public var depth: Float
    /// Size of one pixel at this depth, perpendicular to the view ray, metres.
    public var pixelFootprint: Float

    public init(
        position: SIMD3<Float>, normal: SIMD3<Float>, geometricNormal: SIMD3<Float>, triangleIndex: Int,
        barycentrics: SIMD3<Float>, viewDirection: SIMD3<Float>, depth: Float, pixelFootprint: Float
    ) {
        self.position = position
        self.normal = normal
        self.geometricNormal = geometricNormal
        self.triangleIndex = triangleIndex
        self.barycentrics = barycentrics
        self.viewDirection = viewDirection
        self.depth = depth
        self.pixelFootprint = pixelFootprint
    }

    /// Size of one pixel measured along the surface (grows at grazing angles), metres; capped at 8× the footprint.
    public var surfaceFootprint: Float {
        let c = abs(dot(geometricNormal, viewDirection))
        return pixelFootprint / max(c, 0.125)
    }
}
