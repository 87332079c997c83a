extension SyntheticFrameStream {
    /// What to render and which frames to spoil; every field but the scene has a default.
    public struct Settings: Sendable, Equatable, Codable {
        public var scene: SyntheticSceneKind
        /// Frames in the stream: one orbit, evenly spaced in azimuth, counter-clockwise seen from above.
        public var frames = 48
        /// Seed of the camera jitter and the LiDAR noise.
        public var seed: UInt64 = 1
        /// Frame size, pixels.
        public var imageWidth = 480
        public var imageHeight = 360
        /// Elevation of the orbit, seen from the object's centre, degrees.
        public var elevationDegrees = 25.0
        /// Time between frames, seconds.
        public var frameIntervalSeconds = 1.0
        /// Amplitude of the uniform jitter of each frame's azimuth, degrees (the first frame sits
        /// half an azimuth step past 0°, along world +x).
        public var azimuthJitterDegrees = 0.5
        /// Amplitude of the jitter of each frame's elevation, degrees.
        public var elevationJitterDegrees = 1.0
        /// Amplitude of the jitter of each frame's distance, fraction of the distance.
        public var distanceJitter = 0.02
        /// Indices (from 0) of frames rendered under-exposed.
        public var darkFrames: [Int] = []
        /// Indices of frames rendered blurred.
        public var blurredFrames: [Int] = []
        /// Indices of frames whose camera is turned away from the object.
        public var offFrameFrames: [Int] = []
        /// Exposure of dark frames, as a factor on linear light (0.04: about 4.6 stops under).
        public var darkExposure = 0.04
        /// Standard deviation of the Gaussian blur of blurred frames, as a fraction of the image
        /// width (1/160: 3 pixels at 480 wide).
        public var blurSigmaFraction = 1.0 / 160
        /// How far off-frame frames turn away from the object about the vertical, as a multiple of
        /// half the horizontal field of view (1: the object's centre lands on the image's edge).
        public var offFrameYawFactor = 1.0
        /// Subsamples per pixel along each axis for anti-aliasing.
        public var supersampling = 2

        public init(scene: SyntheticSceneKind, frames: Int = 48, seed: UInt64 = 1, imageWidth: Int = 480, imageHeight: Int = 360) {
            self.scene = scene
            self.frames = frames
            self.seed = seed
            self.imageWidth = imageWidth
            self.imageHeight = imageHeight
        }

        /// The injection this package's tests use: two frames of each kind spread over the orbit,
        /// never two neighbours (so every coverage bin keeps a good frame): at 10 %, 27 % (dark),
        /// 44 %, 60 % (blurred), 77 %, 94 % (off-frame) of the stream.
        public mutating func injectDefaultFrames() {
            let count = frames
            func at(_ fraction: Double) -> Int { min(count - 1, Int((fraction * Double(count)).rounded())) }
            darkFrames = [at(0.1), at(0.27)]
            blurredFrames = [at(0.44), at(0.6)]
            offFrameFrames = [at(0.77), at(0.94)]
        }

        /// The kind of frame `index`.
        public func kind(ofFrame index: Int) -> SyntheticFrame.Kind {
            if darkFrames.contains(index) { return .dark }
            if blurredFrames.contains(index) { return .blurred }
            if offFrameFrames.contains(index) { return .offFrame }
            return .normal
        }

        /// Why these settings cannot be rendered, or nil.
        public var problem: String? {
            if frames < 3 { return "a stream needs at least 3 frames" }
            if imageWidth < 64 || imageHeight < 48 { return "frames must be at least 64×48 pixels" }
            if !(frameIntervalSeconds > 0 && frameIntervalSeconds.isFinite) { return "the frame interval must be a positive number of seconds" }
            if frames > 100_000 { return "a stream holds at most 100000 frames" }
            let injected = darkFrames + blurredFrames + offFrameFrames
            if let bad = injected.first(where: { !(0..<frames).contains($0) }) {
                return "injected frame \(bad) is outside the stream (0…\(frames - 1))"
            }
            if Set(injected).count != injected.count { return "a frame is injected twice (dark, blurred and off-frame indices must differ)" }
            if !(darkExposure > 0 && darkExposure < 1) { return "the dark exposure must be in (0, 1)" }
            if !(blurSigmaFraction > 0) { return "the blur must be positive" }
            return nil
        }
    }
}
