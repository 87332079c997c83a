import Foundation
import ReconstructionCore

/// Everything one dataset's run produced: the judged outcome and what the report shows.
public struct DatasetRun: Sendable {
    public var dataset: RegressionManifest.Dataset
    public var outcome: DatasetOutcome
    /// The pose stage's result, when it ran.
    public var poses: PoseRun?
    /// The dense and model stages' result, when the dataset asked for them.
    public var model: ModelRegressionRun?

    public init(dataset: RegressionManifest.Dataset, outcome: DatasetOutcome, poses: PoseRun? = nil, model: ModelRegressionRun? = nil) {
        self.dataset = dataset
        self.outcome = outcome
        self.poses = poses
        self.model = model
    }
}
