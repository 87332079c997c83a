/// How the simulated LiDAR depth deviates from the truth: noise, range, and where returns are lost.
public struct LiDARModel: Sendable, Equatable, Codable {
    /// ARKit's confidence levels, as stored in the confidence map.
    public enum Confidence: UInt8, Sendable, Codable {
        case low = 0, medium = 1, high = 2
    }

    /// Farthest return, metres; farther surfaces give no depth.
    public var maximumRange: Float = 5
    /// Constant part of the noise's standard deviation, metres.
    public var noiseFloor: Float = 0.002
    /// Part of the noise's standard deviation proportional to depth (fraction of depth).
    public var noiseRelative: Float = 0.005
    /// Probability that a return is lost at random.
    public var dropoutProbability: Float = 0.01
    /// Returns are lost where the surface is seen more than this angle from its normal, degrees.
    public var grazingLimitDegrees: Float = 80
    /// A pixel with a 4-neighbour more than this fraction of its depth nearer or farther (or with
    /// nothing) sits on a depth edge and gets no return (no mixed pixels).
    public var depthEdgeJump: Float = 0.05
    /// Beyond this angle from the normal, degrees, a return has medium confidence.
    public var mediumConfidenceAngleDegrees: Float = 60
    /// Beyond this fraction of `maximumRange` a return has medium confidence.
    public var mediumConfidenceRangeFraction: Float = 0.6

    public init() {}

    /// Standard deviation of the Gaussian depth noise at true depth `depth` (metres), metres.
    public func noiseSigma(atDepth depth: Float) -> Float { noiseFloor + noiseRelative * depth }
}
