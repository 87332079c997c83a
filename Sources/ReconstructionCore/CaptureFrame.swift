/// What the host measured on one camera frame; the input of `CaptureSession.frameArrived(_:)`.
///
/// The session reads no clock and no image: time and image statistics arrive here.
public struct CaptureFrame: Equatable, Sendable, Codable {
    /// When the frame was taken, in seconds on any clock that only moves forward.
    public var timestamp: Double
    /// Camera-to-world transform; world z points up (against gravity), units metres.
    public var worldFromCamera: RigidTransform
    /// Mean luminance of the image, 0 (black) … 1 (white).
    public var meanLuminance: Double
    /// Image sharpness on any non-negative scale where larger is sharper (e.g. variance of the
    /// Laplacian); compared with `Configuration.minimumSharpness` and with the recent frames'.
    public var sharpness: Double
    /// How much trackable texture the object shows, 0 (plain) … 1 (richly textured).
    public var textureScore: Double
    /// Fraction (0…1) of the object box inside the field of view: of the candidate box while
    /// detecting, of the selected box while capturing. Nil when the host found no box (detecting).
    public var boxFractionInView: Double?
    /// Distance from the camera to the object in metres if the host measured it (e.g. from depth);
    /// nil to use the distance from the camera centre to the box centre.
    public var objectDistance: Double?

    public init(timestamp: Double, worldFromCamera: RigidTransform, meanLuminance: Double, sharpness: Double,
                textureScore: Double, boxFractionInView: Double?, objectDistance: Double? = nil) {
        self.timestamp = timestamp
        self.worldFromCamera = worldFromCamera
        self.meanLuminance = meanLuminance
        self.sharpness = sharpness
        self.textureScore = textureScore
        self.boxFractionInView = boxFractionInView
        self.objectDistance = objectDistance
    }

    /// The camera centre in world coordinates, in metres.
    public var cameraCentre: Vector3 { worldFromCamera.translation }
}
