/// A rigid transform `p_to = rotation · p_from + translation` between two named frames.
///
/// Name values by their frames, e.g. `cameraFromWorld` maps world points into the camera frame.
public struct RigidTransform: Equatable, Sendable, Codable {
    public var rotation: Matrix3
    public var translation: Vector3

    public init(rotation: Matrix3, translation: Vector3) {
        self.rotation = rotation
        self.translation = translation
    }

    public static let identity = RigidTransform(rotation: .identity, translation: .zero)

    public func apply(_ p: Vector3) -> Vector3 { rotation * p + translation }

    public var inverse: RigidTransform {
        let rt = rotation.transposed
        return RigidTransform(rotation: rt, translation: -(rt * translation))
    }

    /// `a * b` maps through `b` first, then `a`.
    public static func * (a: RigidTransform, b: RigidTransform) -> RigidTransform {
        RigidTransform(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }
}

extension RigidTransform {
    /// For a `cameraFromWorld` transform: the camera centre in world coordinates.
    public var cameraCentreInWorld: Vector3 { -(rotation.transposed * translation) }
}
