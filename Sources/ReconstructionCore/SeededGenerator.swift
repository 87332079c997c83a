/// A small, fast, seedable pseudo-random generator (SplitMix64), so sampling is reproducible:
/// the same seed gives the same sequence on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform float in [0, 1) with 24 random bits.
    @inline(__always)
    public mutating func nextUnitFloat() -> Float { Float(next() >> 40) * (1 / 16_777_216) }

    /// A uniform double in [0, 1) with 53 random bits.
    @inline(__always)
    public mutating func nextUnitDouble() -> Double { Double(next() >> 11) * (1 / 9_007_199_254_740_992) }
}
