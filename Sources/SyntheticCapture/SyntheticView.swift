import ReconstructionCore

/// One rendered synthetic sample: the photo, the object mask, the LiDAR-like depth with its
/// confidence, and the truth about where it was taken.
public struct SyntheticView: Sendable, Equatable {
    /// Pose, gravity, pass and name.
    public var shot: SyntheticShot
    /// The photo: shaded, anti-aliased, sRGB.
    public var image: RGBImage
    /// 255 where the object is seen (at the pixel centre), 0 elsewhere; the photo's size.
    public var mask: GrayImage
    /// LiDAR-like depth along the camera's z axis, metres, 0 where there is no return; lower resolution.
    public var depth: DepthMap
    /// Per depth pixel: 0 low (no return), 1 medium, 2 high, as ARKit's confidence levels.
    public var confidence: GrayImage

    public init(shot: SyntheticShot, image: RGBImage, mask: GrayImage, depth: DepthMap, confidence: GrayImage) {
        self.shot = shot
        self.image = image
        self.mask = mask
        self.depth = depth
        self.confidence = confidence
    }

    public var name: String { shot.name }
    public var pass: Int { shot.pass }
    /// The camera's pose in the object's frame, metres.
    public var worldFromCamera: RigidTransform { shot.worldFromCamera }
    /// Physical down in the camera frame, g units.
    public var gravity: Vector3 { shot.gravity }
}
