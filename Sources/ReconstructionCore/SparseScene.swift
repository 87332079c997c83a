/// The result of structure from motion: cameras, posed images and triangulated points.
public struct SparseScene: Sendable {
    public var images: [Image]
    public var points: [Point]

    public init(images: [Image], points: [Point]) {
        self.images = images
        self.points = points
    }

    public var registeredCount: Int { images.filter(\.isRegistered).count }

    /// One input image and, when registered, its pose.
    public struct Image: Sendable {
        /// File name relative to the images directory.
        public var name: String
        /// The camera's intrinsics (as used for this image, possibly refined).
        public var intrinsics: CameraIntrinsics
        public var intrinsicsSource: IntrinsicsSource
        /// Maps world points into this camera's frame (x right, y down, z forward). Nil if not registered.
        public var cameraFromWorld: RigidTransform?
        /// Why the image is not registered (nil when it is).
        public var unregisteredReason: String?
        /// Keypoints in pixels (COLMAP convention, see `CameraIntrinsics`).
        public var keypoints: [Keypoint]
        /// For each keypoint, the index of its 3D point in `SparseScene.points`, or -1.
        public var pointIndexOfKeypoint: [Int]

        public init(name: String, intrinsics: CameraIntrinsics, intrinsicsSource: IntrinsicsSource,
                    cameraFromWorld: RigidTransform?, unregisteredReason: String?,
                    keypoints: [Keypoint], pointIndexOfKeypoint: [Int]) {
            self.name = name
            self.intrinsics = intrinsics
            self.intrinsicsSource = intrinsicsSource
            self.cameraFromWorld = cameraFromWorld
            self.unregisteredReason = unregisteredReason
            self.keypoints = keypoints
            self.pointIndexOfKeypoint = pointIndexOfKeypoint
        }

        public var isRegistered: Bool { cameraFromWorld != nil }
    }

    /// A 2D feature location in pixels.
    public struct Keypoint: Sendable, Equatable {
        public var x: Float
        public var y: Float
        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
    }

    /// A triangulated point and the observations that support it.
    public struct Point: Sendable {
        public var position: Vector3
        /// Colour, 8-bit RGB.
        public var rgb: (UInt8, UInt8, UInt8)
        /// Mean reprojection error over the track, in pixels.
        public var meanReprojectionErrorPixels: Double
        public var track: [Observation]

        public init(position: Vector3, rgb: (UInt8, UInt8, UInt8), meanReprojectionErrorPixels: Double, track: [Observation]) {
            self.position = position
            self.rgb = rgb
            self.meanReprojectionErrorPixels = meanReprojectionErrorPixels
            self.track = track
        }
    }

    /// An observation: keypoint `keypointIndex` of image `imageIndex` (indices into `images`).
    public struct Observation: Sendable, Equatable {
        public var imageIndex: Int
        public var keypointIndex: Int
        public init(imageIndex: Int, keypointIndex: Int) {
            self.imageIndex = imageIndex
            self.keypointIndex = keypointIndex
        }
    }
}
