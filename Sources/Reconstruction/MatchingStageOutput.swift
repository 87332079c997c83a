/// The matching stage's output: the geometrically verified pairs among the usable images
/// (indices into the mapper inputs).
public struct MatchingStageOutput: Sendable {
    /// Pairs that passed verification.
    public var geometries: [TwoViewGeometry]
    /// Pairs that were matched (verified or not).
    public var pairCount: Int

    public init(geometries: [TwoViewGeometry], pairCount: Int) {
        self.geometries = geometries
        self.pairCount = pairCount
    }
}
