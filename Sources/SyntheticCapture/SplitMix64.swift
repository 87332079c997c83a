import Foundation
import ReconstructionCore

/// A small, fast deterministic random generator (SplitMix64). Every random choice of a capture comes
/// from one of these, seeded from the capture's seed, the view index and a stream number, so a view
/// renders the same bytes whatever thread renders it and in whatever order.
struct SplitMix64: RandomNumberGenerator {
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A generator for one view and one purpose (`stream`), independent of every other pair.
    init(seed: UInt64, view: Int, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ 0x5851_F42D_4C95_7F2D)
        let a = mixer.next()
        var second = SplitMix64(seed: a &+ UInt64(truncatingIfNeeded: view) &* 0x9E37_79B9_7F4A_7C15)
        let b = second.next()
        generator = SeededGenerator(seed: b ^ (stream &* 0xD1B5_4A32_D192_ED03))
        _ = next()
    }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// Uniform in [a, b).
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// A standard normal deviate (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(unit(), 0x1.0p-53), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
