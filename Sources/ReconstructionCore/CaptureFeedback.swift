/// A guidance condition shown to the person capturing, after Apple's `ObjectCaptureSession.Feedback`.
public enum CaptureFeedback: String, Hashable, Sendable, Codable, CaseIterable {
    /// Mean luminance is below `Configuration.minimumMeanLuminance`; auto-capture stops.
    case environmentTooDark
    /// The camera moves or turns faster than the configured limits, or the frame is blurred
    /// (`CaptureFrame.sharpness` below `Configuration.minimumSharpness`, or below
    /// `Configuration.minimumRelativeSharpness` of the recent frames'); auto-capture stops.
    case movingTooFast
    /// The camera is nearer the box than `Configuration.minimumDistanceInBoxDiagonals`; auto-capture stops.
    case objectTooClose
    /// The camera is farther from the box than `Configuration.maximumDistanceInBoxDiagonals`; auto-capture stops.
    case objectTooFar
    /// Too little of the box is inside the field of view; auto-capture stops.
    case outOfFieldOfView
    /// While detecting: the host found no object box in the frame.
    case objectNotDetected
    /// The shot count reached the maximum (over-capture off: auto-capture stops) or passed it
    /// (over-capture on: capture continues; the extra shots only help off-device reconstruction).
    case overCapturing
    /// A pass is complete but the shots are too plain to stitch after a flip; do another pass at a
    /// different height instead.
    case objectNotFlippable

    /// True for the conditions under which no automatic shot is taken.
    public var blocksCapture: Bool {
        switch self {
        case .environmentTooDark, .movingTooFast, .objectTooClose, .objectTooFar, .outOfFieldOfView: return true
        case .objectNotDetected, .overCapturing, .objectNotFlippable: return false
        }
    }
}
