import CReconstruction

/// Nearest-neighbour matching of RootSIFT descriptors with ratio test and mutual check.
public struct DescriptorMatcher: Sendable {
    public struct Options: Sendable, Equatable {
        /// Lowe's ratio between best and second-best descriptor distances.
        public var maxRatio: Float = 0.8
        /// Largest descriptor distance accepted (unit-norm descriptors, 0…√2).
        public var maxDistance: Float = 0.7
        /// Keep only mutual nearest neighbours.
        public var crossCheck = true
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Matches two descriptor sets (128 bytes each); returns index pairs into the two sets.
    public func match(_ a: [UInt8], _ b: [UInt8]) throws -> [(Int32, Int32)] {
        let countA = a.count / 128, countB = b.count / 128
        var cOptions = rc_match_options(max_ratio: options.maxRatio, max_distance: options.maxDistance,
                                        cross_check: options.crossCheck ? 1 : 0)
        var flat = [Int32](repeating: 0, count: 2 * max(1, min(countA, countB)))
        var n: Int32 = 0
        try ShimError.check { rc_match_descriptors(a, Int32(countA), b, Int32(countB), &cOptions, &flat, &n, $0) }
        return (0..<Int(n)).map { (flat[2 * $0], flat[2 * $0 + 1]) }
    }
}
