import ReconstructionCore

/// Where one synthetic photo was taken from, with the exact truth (no images).
public struct SyntheticShot: Sendable, Equatable, Codable {
    /// Position in the capture, from 0.
    public var index: Int
    /// File stem, e.g. `0001` (1-based, zero-padded to at least four digits).
    public var name: String
    /// Scan pass: 0 with the object upright, 1 with it turned upside down.
    public var pass: Int
    /// Orbit within the pass: 0 lowest, 2 highest.
    public var ring: Int
    /// The camera's pose in the object's frame (what photogrammetry recovers), metres.
    public var worldFromCamera: RigidTransform
    /// Physical down as a unit vector in the camera frame (x right, y down, z forward), in g units
    /// like CoreMotion's gravity; in the flipped pass it differs from the object frame's −z.
    public var gravity: Vector3

    public init(index: Int, name: String, pass: Int, ring: Int, worldFromCamera: RigidTransform, gravity: Vector3) {
        self.index = index
        self.name = name
        self.pass = pass
        self.ring = ring
        self.worldFromCamera = worldFromCamera
        self.gravity = gravity
    }

    /// The inverse pose: maps object-frame points into the camera frame.
    public var cameraFromWorld: RigidTransform { worldFromCamera.inverse }
}
