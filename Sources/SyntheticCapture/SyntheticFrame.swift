/// One frame of a synthetic frame stream: where and when it was taken and what was done to it.
public struct SyntheticFrame: Sendable, Equatable, Codable {
    /// What the frame shows, by construction.
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// A good frame of the orbit.
        case normal
        /// The orbit's view, under-exposed (`Settings.darkExposure`).
        case dark
        /// The orbit's view, blurred (`Settings.blurSigmaFraction`).
        case blurred
        /// The camera turned away from the object about the vertical (`Settings.offFrameYawFactor`),
        /// so much of the object's box is outside the field of view.
        case offFrame = "off-frame"
    }

    /// Position in the stream, from 0.
    public var index: Int
    /// Seconds since the first frame.
    public var timestamp: Double
    public var kind: Kind
    /// Pose (object frame, metres, z up), gravity and file stem (`frame_0001`, 1-based).
    public var shot: SyntheticShot

    public init(index: Int, timestamp: Double, kind: Kind, shot: SyntheticShot) {
        self.index = index
        self.timestamp = timestamp
        self.kind = kind
        self.shot = shot
    }

    public var name: String { shot.name }
}
