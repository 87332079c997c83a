import CReconstruction
import Foundation

/// SIFT keypoints and RootSIFT descriptors of one image.
public struct ImageFeatures: Sendable {
    /// Size of the image the keypoints refer to, pixels.
    public var imageWidth: Int
    public var imageHeight: Int
    /// Keypoint positions in pixels (COLMAP convention), `2 × count`.
    public var positions: [Float]
    /// Keypoint scale (diameter, pixels), per keypoint.
    public var scales: [Float]
    /// Descriptors, 128 bytes per keypoint.
    public var descriptors: [UInt8]
    /// Colour at each keypoint, RGB.
    public var colors: [UInt8]

    public var count: Int { scales.count }

    public init(imageWidth: Int, imageHeight: Int, positions: [Float], scales: [Float], descriptors: [UInt8], colors: [UInt8]) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.positions = positions
        self.scales = scales
        self.descriptors = descriptors
        self.colors = colors
    }

    public func position(_ i: Int) -> (x: Double, y: Double) {
        (Double(positions[2 * i]), Double(positions[2 * i + 1]))
    }
}

/// Decodes images and extracts SIFT features through the C++ shim.
public struct FeatureExtractor: Sendable {
    public struct Options: Sendable, Equatable {
        /// Images with a longer side than this are resized first (pixels); 0 for no limit.
        public var maxImageDimension: Int = 3200
        /// Resolution at which SIFT runs, relative to the image (SIFT doubles its input, so 0.5
        /// starts the scale space at full resolution without the 2× upsampled octave).
        public var detectionScale: Float = 0.5
        /// Images whose longer side (after resizing) is at most this many pixels run SIFT at
        /// detection scale 1 (from the 2× upsampled octave): small photos need it for enough and
        /// precise features. 0 disables.
        public var fullScaleBelowDimension: Int = 1600
        /// Keep at most this many features per image, strongest first.
        public var maxFeatures: Int = 8192
        /// SIFT contrast threshold (lower finds more features in low-contrast images).
        public var contrastThreshold: Float = 0.02
        /// SIFT edge threshold.
        public var edgeThreshold: Float = 10
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Extracts features from encoded image bytes (JPEG, PNG, TIFF, …).
    public func extract(encoded: Data) throws -> ImageFeatures {
        var cOptions = rc_feature_options(
            max_image_dimension: Int32(options.maxImageDimension), detection_scale: options.detectionScale,
            full_scale_below_dimension: Int32(options.fullScaleBelowDimension),
            max_features: Int32(options.maxFeatures), contrast_threshold: options.contrastThreshold,
            edge_threshold: options.edgeThreshold)
        var handle: OpaquePointer?
        try encoded.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            try ShimError.check { rc_extract_features(base, raw.count, &cOptions, &handle, $0) }
        }
        defer { rc_features_free(handle) }
        var info = rc_features_info()
        rc_features_get_info(handle, &info)
        let n = Int(info.count)
        var keypoints = [Float](repeating: 0, count: 4 * n)
        var descriptors = [UInt8](repeating: 0, count: 128 * n)
        var colors = [UInt8](repeating: 0, count: 3 * n)
        rc_features_copy(handle, &keypoints, &descriptors, &colors)
        var positions = [Float](repeating: 0, count: 2 * n)
        var scales = [Float](repeating: 0, count: n)
        for i in 0..<n {
            positions[2 * i] = keypoints[4 * i]
            positions[2 * i + 1] = keypoints[4 * i + 1]
            scales[i] = keypoints[4 * i + 2]
        }
        return ImageFeatures(imageWidth: Int(info.image_width), imageHeight: Int(info.image_height),
                             positions: positions, scales: scales, descriptors: descriptors, colors: colors)
    }
}
