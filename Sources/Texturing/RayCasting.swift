import ReconstructionCore

/// The closest surface a ray meets.
public struct RayHit: Sendable, Equatable {
    /// Distance along the ray, in units of the direction's length.
    public var distance: Float
    /// Index of the triangle hit.
    public var triangle: Int
    /// Barycentric weights of the triangle's three corners.
    public var barycentrics: SIMD3<Float>

    public init(distance: Float, triangle: Int, barycentrics: SIMD3<Float>) {
        self.distance = distance
        self.triangle = triangle
        self.barycentrics = barycentrics
    }
}

/// Ray queries against one triangle mesh, in batches (the bakers cast a texel row at a time).
/// Implementations are immutable once built, so workers may query concurrently.
public protocol RayCasting: Sendable {
    /// The closest hit of each ray within [near, far], or nil.
    func closestHits(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [RayHit?]
    /// Whether each ray meets anything within [near, far].
    func occluded(origins: [SIMD3<Float>], directions: [SIMD3<Float>], near: Float, far: Float) throws -> [Bool]
}

/// Builds a `RayCasting` over a mesh (the pipeline passes the Embree-backed one).
public typealias RayCasterFactory = @Sendable (TriangleMesh) throws -> any RayCasting
