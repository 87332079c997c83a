/// An axis-aligned box in world coordinates (metres) around the object being captured.
public struct BoundingBox: Equatable, Sendable, Codable {
    /// Centre of the box in world coordinates, in metres.
    public var centre: Vector3
    /// Half the box's size along world x, y and z, in metres (each ≥ 0).
    public var halfExtents: Vector3

    public init(centre: Vector3, halfExtents: Vector3) {
        self.centre = centre
        self.halfExtents = halfExtents
    }

    /// Length of the box's space diagonal, in metres.
    public var diagonal: Double { 2 * halfExtents.length }
}
