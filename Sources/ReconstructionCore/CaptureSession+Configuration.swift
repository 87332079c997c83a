extension CaptureSession {
    /// Limits and guidance thresholds of a capture session; fixed by `start`.
    public struct Configuration: Equatable, Sendable, Codable {
        /// Most shots auto-capture takes (Apple's `maximumNumberOfInputImages`, section 7 of
        /// `research/apple-object-capture.md`, which gives no number; 250 is our choice). Count ≥ 1.
        public var maximumShots = 250
        /// Keep taking shots past `maximumShots` (useful only for off-device reconstruction).
        public var isOverCaptureEnabled = false
        /// Number of equal azimuth bins (around world z through the box centre) on the coverage dial; ≥ 1.
        public var coverageBinCount = 24
        /// Darkest mean luminance (0…1) at which auto-capture still runs.
        public var minimumMeanLuminance = 0.15
        /// Fastest camera movement, in metres per second, at which auto-capture still runs.
        public var maximumSpeedMetresPerSecond = 0.5
        /// Fastest camera rotation, in degrees per second, at which auto-capture still runs.
        public var maximumTurnRateDegreesPerSecond = 45.0
        /// Nearest allowed camera-to-object distance, in multiples of the box diagonal.
        public var minimumDistanceInBoxDiagonals = 1.0
        /// Farthest allowed camera-to-object distance, in multiples of the box diagonal.
        public var maximumDistanceInBoxDiagonals = 4.0
        /// Least fraction (0…1) of the box inside the field of view for auto-capture.
        public var minimumBoxFractionInView = 0.8
        /// Least `CaptureFrame.sharpness` of a shot, whatever the scene (same scale; for the variance
        /// of the Laplacian on 8-bit grey, a blurred frame measures below 10, an unblurred plain box
        /// 50–100 and a textured object thousands); a less sharp frame shows `movingTooFast`.
        public var minimumSharpness = 25.0
        /// Least sharpness of a shot as a fraction (0…1) of the median of the previous
        /// `CaptureSession.sharpnessHistory` frames': blur is judged against what this scene
        /// looks like in focus, since a plain object is never as sharp as a textured one. A less
        /// sharp frame shows `movingTooFast`. 0 turns the comparison off.
        public var minimumRelativeSharpness = 0.3
        /// Least change of view direction from the box centre since the last shot, in degrees, for a new shot.
        public var minimumDegreesBetweenShots = 5.0
        /// Least time since the last shot, in seconds, for a new shot (a rate limit on top of the change of view).
        public var minimumSecondsBetweenShots = 0.4
        /// Least mean texture score (0…1) of the shots for which a completed pass recommends a flip.
        public var minimumTextureScoreForFlip = 0.3

        public init() {}

        /// Decodes what is present; a field missing (from a configuration saved before it existed)
        /// keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            maximumShots = try container.decodeIfPresent(Int.self, forKey: .maximumShots) ?? maximumShots
            isOverCaptureEnabled = try container.decodeIfPresent(Bool.self, forKey: .isOverCaptureEnabled) ?? isOverCaptureEnabled
            coverageBinCount = try container.decodeIfPresent(Int.self, forKey: .coverageBinCount) ?? coverageBinCount
            minimumMeanLuminance = try container.decodeIfPresent(Double.self, forKey: .minimumMeanLuminance) ?? minimumMeanLuminance
            maximumSpeedMetresPerSecond = try container.decodeIfPresent(Double.self, forKey: .maximumSpeedMetresPerSecond) ?? maximumSpeedMetresPerSecond
            maximumTurnRateDegreesPerSecond = try container.decodeIfPresent(Double.self, forKey: .maximumTurnRateDegreesPerSecond) ?? maximumTurnRateDegreesPerSecond
            minimumDistanceInBoxDiagonals = try container.decodeIfPresent(Double.self, forKey: .minimumDistanceInBoxDiagonals) ?? minimumDistanceInBoxDiagonals
            maximumDistanceInBoxDiagonals = try container.decodeIfPresent(Double.self, forKey: .maximumDistanceInBoxDiagonals) ?? maximumDistanceInBoxDiagonals
            minimumBoxFractionInView = try container.decodeIfPresent(Double.self, forKey: .minimumBoxFractionInView) ?? minimumBoxFractionInView
            minimumSharpness = try container.decodeIfPresent(Double.self, forKey: .minimumSharpness) ?? minimumSharpness
            minimumRelativeSharpness = try container.decodeIfPresent(Double.self, forKey: .minimumRelativeSharpness) ?? minimumRelativeSharpness
            minimumDegreesBetweenShots = try container.decodeIfPresent(Double.self, forKey: .minimumDegreesBetweenShots) ?? minimumDegreesBetweenShots
            minimumSecondsBetweenShots = try container.decodeIfPresent(Double.self, forKey: .minimumSecondsBetweenShots) ?? minimumSecondsBetweenShots
            minimumTextureScoreForFlip = try container.decodeIfPresent(Double.self, forKey: .minimumTextureScoreForFlip) ?? minimumTextureScoreForFlip
        }

        /// Throws `CaptureError.invalidArgument` naming the first field out of range.
        public func validate() throws(CaptureError) {
            func check(_ ok: Bool, _ message: String) throws(CaptureError) {
                if !ok { throw .invalidArgument(message) }
            }
            try check(maximumShots >= 1, "maximumShots must be at least 1")
            try check(coverageBinCount >= 1, "coverageBinCount must be at least 1")
            try check((0...1).contains(minimumMeanLuminance), "minimumMeanLuminance must be in 0…1")
            try check(maximumSpeedMetresPerSecond > 0, "maximumSpeedMetresPerSecond must be positive")
            try check(maximumTurnRateDegreesPerSecond > 0, "maximumTurnRateDegreesPerSecond must be positive")
            try check(minimumDistanceInBoxDiagonals >= 0, "minimumDistanceInBoxDiagonals must be non-negative")
            try check(maximumDistanceInBoxDiagonals > minimumDistanceInBoxDiagonals,
                      "maximumDistanceInBoxDiagonals must exceed minimumDistanceInBoxDiagonals")
            try check((0...1).contains(minimumBoxFractionInView), "minimumBoxFractionInView must be in 0…1")
            try check(minimumSharpness >= 0, "minimumSharpness must be non-negative")
            try check((0...1).contains(minimumRelativeSharpness), "minimumRelativeSharpness must be in 0…1")
            try check(minimumDegreesBetweenShots >= 0, "minimumDegreesBetweenShots must be non-negative")
            try check(minimumSecondsBetweenShots >= 0, "minimumSecondsBetweenShots must be non-negative")
            try check((0...1).contains(minimumTextureScoreForFlip), "minimumTextureScoreForFlip must be in 0…1")
        }
    }
}
