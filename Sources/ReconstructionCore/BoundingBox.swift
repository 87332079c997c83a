/// An axis-aligned box in world coordinates around the object being captured, in the scene's
/// units: metres when the scene is metric (depth, known metric poses), else the unknown scale of
/// structure from motion.
public struct BoundingBox: Equatable, Sendable, Codable {
    /// Centre of the box in world coordinates (the scene's units).
    public var centre: Vector3
    /// Half the box's size along world x, y and z, in the scene's units (each ≥ 0).
    public var halfExtents: Vector3

    public init(centre: Vector3, halfExtents: Vector3) {
        self.centre = centre
        self.halfExtents = halfExtents
    }

    /// The box between two opposite corners (Apple's `BoundingBox(min:max:)`).
    public init(min: Vector3, max: Vector3) {
        self.init(centre: (min + max) * 0.5, halfExtents: (max - min) * 0.5)
    }

    /// Length of the box's space diagonal, in the scene's units.
    public var diagonal: Double { 2 * halfExtents.length }

    // Apple's names (RealityKit's `BoundingBox`).
    /// The corner with the smallest coordinates.
    public var min: Vector3 { centre - halfExtents }
    /// The corner with the largest coordinates.
    public var max: Vector3 { centre + halfExtents }
    /// The centre (`centre`).
    public var center: Vector3 { centre }
    /// The box's size along x, y and z.
    public var extents: Vector3 { halfExtents * 2 }
}
