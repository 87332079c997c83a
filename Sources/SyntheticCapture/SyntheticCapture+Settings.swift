extension SyntheticCapture {
    /// What to capture and how; every field but the scene has a default.
    public struct Settings: Sendable, Equatable, Codable {
        /// The scene.
        public var scene: SyntheticSceneKind
        /// Number of views over all passes.
        public var views: Int = 40
        /// Seed of every random choice (camera jitter, LiDAR noise and dropouts). The scene's object
        /// and texture do not depend on it.
        public var seed: UInt64 = 1
        /// Photo size, pixels.
        public var imageWidth: Int = 1024
        public var imageHeight: Int = 768
        /// Focal length as a fraction of the image width (fx = fy), no unit.
        public var focalLengthFactor: Double = 0.9
        /// LiDAR depth map size, pixels; nil: a quarter of the photo's (256 × 192 for 1024 × 768).
        public var depthWidth: Int? = nil
        public var depthHeight: Int? = nil
        /// Whether a second pass shows the object upside down; nil: the scene's default.
        public var flippedPass: Bool? = nil
        /// Fraction of the photo's shorter half-side covered by the radius of the object's bounding
        /// sphere seen from the mean camera distance (sets the distance), no unit.
        public var frameFill: Double = 0.8
        /// Elevation of each orbit above the floor, seen from the object's centre, degrees.
        public var ringElevationsDegrees: [Double] = [10, 30, 55]
        /// Share of each pass's views on each orbit (normalised).
        public var ringShares: [Double] = [0.35, 0.4, 0.25]
        /// Amplitude of the uniform random jitter of each camera's azimuth, degrees.
        public var azimuthJitterDegrees: Double = 2
        /// Amplitude of the jitter of each camera's elevation, degrees.
        public var elevationJitterDegrees: Double = 2
        /// Amplitude of the jitter of each camera's distance, fraction of the distance.
        public var distanceJitter: Double = 0.04
        /// Amplitude of the jitter of each camera's roll about its viewing axis, degrees.
        public var rollJitterDegrees: Double = 1.5
        /// Amplitude of the jitter of the point each camera looks at, per axis, metres.
        public var targetJitterMetres: Double = 0.01
        /// Subsamples per pixel along each axis for the photo's anti-aliasing.
        public var supersampling: Int = 2
        /// Noise and losses of the LiDAR depth.
        public var lidar = LiDARModel()
        /// What surrounds the object: a plain studio (no features off the object) or a textured
        /// room, as around an object photographed at home.
        public var surroundings: Surroundings = .studio

        public init(scene: SyntheticSceneKind, views: Int = 40, seed: UInt64 = 1, imageWidth: Int = 1024, imageHeight: Int = 768) {
            self.scene = scene
            self.views = views
            self.seed = seed
            self.imageWidth = imageWidth
            self.imageHeight = imageHeight
        }

        /// Whether the capture has the upside-down pass.
        public var hasFlippedPass: Bool { flippedPass ?? scene.hasFlippedPassByDefault }
    }
}

extension SyntheticCapture {
    /// The physical surroundings of the object (`CaptureStudio`).
    public enum Surroundings: String, Sendable, Codable, CaseIterable {
        /// A plain grey floor under a smooth backdrop: every feature is on the object.
        case studio
        /// A textured floor and four textured walls a few metres away: the photos show as much
        /// background as object, and the background has features of its own.
        case room
    }
}
