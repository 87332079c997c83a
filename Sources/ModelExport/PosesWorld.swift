/// The world frame a `poses.json` is in: a description for people (under "axes"/"world") and, for
/// programs, whether its units are metres (top-level "metric"). `reconstruct --poses` treats poses
/// as metric unless their file says otherwise.
public struct PosesWorld: Sendable, Equatable {
    public var description: String
    public var isMetric: Bool

    public init(description: String, isMetric: Bool) {
        self.description = description
        self.isMetric = isMetric
    }

    /// Structure from motion's own frame: an arbitrary similarity of the real world.
    public static let reconstruction = PosesWorld(
        description: "the reconstruction's frame: an arbitrary similarity transform (rotation, translation and scale) "
            + "of the real world; units are not metric unless the scale is known",
        isMetric: false)
}
