import ReconstructionCore

/// One view's dense depth: what dense stereo produces per image and what depth fusion (points or
/// a TSDF volume) consumes. Everything is at the depth map's resolution.
public struct ViewDepth: Sendable {
    /// The view's name (its file name for photos).
    public var name: String
    /// Undistorted pinhole intrinsics of the depth map (and of `image`), pixels.
    public var intrinsics: CameraIntrinsics
    /// The camera's pose: camera axes x right, y down, z forward.
    public var worldFromCamera: RigidTransform
    /// Depth along the camera's z axis, metres (scene units); 0 where there is none.
    public var depth: DepthMap
    /// Unit surface normals in the camera frame, facing the camera; zero where there is no depth.
    /// Empty when the producer has none.
    public var normalsInCamera: [SIMD3<Float>]
    /// Per pixel, 0…1 (0 where there is no depth); empty when the producer has none.
    public var confidence: [Float]
    /// The undistorted photo at this resolution, for colours; nil when unknown.
    public var image: RGBImage?
    /// Indices (into the list of views this one belongs to) of the views that overlap it most —
    /// for dense stereo, the source views it was matched against. Fusion checks these.
    public var neighbours: [Int]

    public init(name: String, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform, depth: DepthMap,
                normalsInCamera: [SIMD3<Float>] = [], confidence: [Float] = [], image: RGBImage? = nil,
                neighbours: [Int] = []) {
        self.name = name
        self.intrinsics = intrinsics
        self.worldFromCamera = worldFromCamera
        self.depth = depth
        self.normalsInCamera = normalsInCamera
        self.confidence = confidence
        self.image = image
        self.neighbours = neighbours
    }
}
