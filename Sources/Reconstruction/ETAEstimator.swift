import Foundation
import ReconstructionCore

/// Estimates the time left in a run of stages from how fast they progress.
///
/// Each stage has a weight: its expected share of the run's time (`poseStageWeights` gives the
/// pose stages' measured shares). The estimator learns the seconds per unit of weight from the
/// stages computed so far (stages restored from a checkpoint cost nothing and teach nothing),
/// projects the running stage from its own rate once it has some progress, and the later stages
/// from the learned rate. Raw estimates are blended with the previous estimate counted down by the
/// time since, which smooths jumps (e.g. between pairs of unequal cost) without lagging a trend.
public struct ETAEstimator: Sendable {
    /// Stages in order, weights normalised to sum to 1.
    public private(set) var stages: [ProcessingStage]
    public private(set) var weights: [ProcessingStage: Double]
    /// Weight of the raw estimate in the smoothed one (0…1).
    public var smoothing: Double
    /// A stage's own rate is trusted from this fraction on; before it, the learned rate is used.
    public var minimumStageFraction = 0.05

    private var finishedSeconds: [ProcessingStage: Double] = [:]
    private var restored: Set<ProcessingStage> = []
    private var current: ProcessingStage?
    private var currentStart = 0.0
    private var currentFraction = 0.0
    private var lastEstimate: (time: Double, remaining: Double)?
    private var lastFinish: Double?

    public init(stages: [(ProcessingStage, weight: Double)], smoothing: Double = 0.3) {
        self.stages = stages.map(\.0)
        let total = stages.reduce(0) { $0 + max(0, $1.weight) }
        weights = Dictionary(stages.map { ($0.0, total > 0 ? max(0, $0.weight) / total : 1 / Double(stages.count)) },
                             uniquingKeysWith: { a, _ in a })
        self.smoothing = smoothing
    }

    /// Expected relative cost (wall seconds) of the pose stages. Measured on fountain-P11 (11
    /// photos of 6 megapixels, 55 pairs, 8192 features each) as CPU time, which other work on the
    /// machine disturbs less than wall time, relative to features at 0.65 CPU-s per image:
    /// matching and verification 0.09 CPU-s per pair (integer descriptor products), mapping 0.27
    /// CPU-s per image (a global adjustment every 10 % of growth). Mapping's share varies most
    /// between machines: 0.16–0.25 CPU-s per image on the development machine until 2026-11-25,
    /// faster relative to features on CI runs, and 0.42 on 2026-11-27 (fountain-P11: features 8.4,
    /// matching 5.9, mapping 4.6 CPU-s), when 0.18 left the estimate at halfway 25–32 % short;
    /// 0.27 sits between them (16 % short on that machine, 1 % over on the earlier one). Features and
    /// matching keep `workers` threads busy (95 % of the time); mapping alternates serial steps
    /// (PnP, triangulation) with 2-thread bundle adjustments (1.5 cores on average). Only the
    /// ratios matter: the estimator learns the machine's speed as it goes.
    public static func poseStageWeights(imageCount: Int, pairCount: Int,
                                        workers: Int = ProcessInfo.processInfo.activeProcessorCount)
        -> [(ProcessingStage, weight: Double)]
    {
        let cores = Double(max(1, min(workers, ProcessInfo.processInfo.activeProcessorCount)))
        let parallel = 0.95 * cores, mapping = min(1.5, cores)
        return [(.features, 0.65 * Double(imageCount) / parallel),
                (.matching, 0.09 * Double(pairCount) / parallel),
                (.mapping, 0.27 * Double(imageCount) / mapping)]
    }

    /// Weights of the dense, surface, model and export stages on the same scale as
    /// `poseStageWeights` (measured on fountain-P11 and a 24-view synthetic capture: stereo about
    /// 10 s of CPU per view at 1024 px (fountain-P11, 2026-11-25: 45 s of wall time on 2 cores for
    /// 11 views, 15 times the feature stage's time per photo), growing with the pixel count, i.e.
    /// the square of `stereoImageDimension`; fusion about 0.5 s per view). Each model in `models`
    /// costs a few seconds plus its texels: baking about 0.6 s of CPU and writing about 0.12 s per
    /// million texels of all its maps (2026-11-29, 1024 px photos: fountain-P11 at medium, three
    /// 4096² maps, 32 s and 8 s; Herz-Jesus-P8 at full, five 8192² maps, 102 s and about 30 s;
    /// without them the estimate said 5 s and 1 s).
    public static func modelStageWeights(imageCount: Int, models: [DetailBudget], stereoImageDimension: Int = 1024,
                                         workers: Int = ProcessInfo.processInfo.activeProcessorCount)
        -> [(ProcessingStage, weight: Double)]
    {
        let cores = Double(max(1, min(workers, ProcessInfo.processInfo.activeProcessorCount)))
        let parallel = 0.95 * cores
        let stereoScale = pow(Double(max(1, stereoImageDimension)) / 1024, 2)
        let megatexels = models.reduce(0.0) { $0 + $1.texelCount / 1e6 }
        return [(.dense, 10 * stereoScale * Double(imageCount) / parallel),
                (.surface, 0.5 * Double(imageCount) / parallel),
                (.model, ((4 + 0.2 * Double(imageCount)) * Double(models.count) + 0.6 * megatexels) / parallel),
                (.export, 1.0 * Double(models.count) + 0.12 * megatexels)]
    }

    /// Fraction of the whole run done (0…1), by weight.
    public var overallFraction: Double {
        var done = 0.0
        for stage in stages {
            if finishedSeconds[stage] != nil || restored.contains(stage) {
                done += weights[stage] ?? 0
            } else if stage == current {
                done += (weights[stage] ?? 0) * currentFraction
            }
        }
        return min(1, done)
    }

    /// The stage `stage` starts at `time` (seconds on any monotonic clock).
    public mutating func begin(_ stage: ProcessingStage, at time: Double) {
        current = stage
        currentStart = time
        currentFraction = 0
    }

    /// `stage` is done; `restored` when it came from a checkpoint rather than being computed.
    public mutating func finish(_ stage: ProcessingStage, at time: Double, restored wasRestored: Bool = false) {
        if wasRestored {
            restored.insert(stage)
            // Its own fraction ran to 1 in no time: the smoothed estimate starts afresh.
            lastEstimate = nil
        } else {
            finishedSeconds[stage] = max(0, time - (current == stage ? currentStart : time))
        }
        if current == stage {
            current = nil
            currentFraction = 0
        }
        lastFinish = time
    }

    /// Reports the running stage's fraction and returns the smoothed estimate of the seconds left
    /// (nil while nothing has been measured). A stage not begun is taken to have started when the
    /// previous one finished.
    public mutating func update(_ stage: ProcessingStage, fraction: Double, at time: Double) -> Double? {
        if current != stage { begin(stage, at: lastFinish ?? time) }
        currentFraction = max(currentFraction, min(1, fraction))
        guard let raw = rawRemaining(at: time) else { return nil }
        let estimate: Double
        if let last = lastEstimate {
            let countedDown = max(0, last.remaining - (time - last.time))
            estimate = smoothing * raw + (1 - smoothing) * countedDown
        } else {
            estimate = raw
        }
        lastEstimate = (time, estimate)
        return estimate
    }

    /// The unsmoothed estimate: the running stage from its own rate, later stages from the rate
    /// learned over everything computed so far.
    func rawRemaining(at time: Double) -> Double? {
        var measuredSeconds = 0.0, measuredWeight = 0.0
        for (stage, seconds) in finishedSeconds {
            measuredSeconds += seconds
            measuredWeight += weights[stage] ?? 0
        }
        let elapsed = max(0, time - currentStart)
        var currentWeight = 0.0
        if let stage = current {
            currentWeight = weights[stage] ?? 0
            measuredSeconds += elapsed
            measuredWeight += currentWeight * currentFraction
        }
        guard measuredWeight > 1e-3, measuredSeconds > 0 else { return nil }
        // With no stage computed yet (the first, or every earlier one restored from a checkpoint),
        // the running stage's first moments are all there is: a resumed run's dense stage
        // reported at 0.1 % a few milliseconds in said "0 s left" with 44 s to go.
        guard !finishedSeconds.isEmpty || currentFraction >= minimumStageFraction else { return nil }
        let secondsPerWeight = measuredSeconds / measuredWeight
        var remaining = 0.0
        if current != nil {
            if currentFraction >= minimumStageFraction {
                remaining += elapsed * (1 - currentFraction) / currentFraction
            } else {
                remaining += secondsPerWeight * currentWeight * (1 - currentFraction)
            }
        }
        for stage in stages where stage != current && finishedSeconds[stage] == nil && !restored.contains(stage) {
            remaining += secondsPerWeight * (weights[stage] ?? 0)
        }
        return remaining
    }
}
