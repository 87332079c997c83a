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

    /// Length of the box's space diagonal, in metres.
    public var diagonal: Double { 2 * halfExtents.length }
}
