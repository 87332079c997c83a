import ArgumentParser
import Foundation
import Reconstruction

/// A session's `.poses` request run for a command (`poses`, and `reconstruct` when it estimates
/// poses): the session's messages go to the reporter, progress to `progress` (the whole run's, which
/// learns the time left from the stages computed; by default the reporter's bar with the session's
/// own estimate), and Ctrl-C or SIGTERM cancels the session, keeping its checkpoints (until the
/// caller releases the interruption).
enum SessionPoses {
    /// The poses of `samples`.
    /// - Throws: the request's error; `ExitCode(130)` after a cancellation, which has been reported
    ///   (with the checkpoint folder that keeps the finished stages, when there is one).
    static func estimate(samples: [PhotogrammetrySample], configuration: PhotogrammetrySession.Configuration,
                         reporter: ProgressReporter, interruption: SessionInterruption,
                         progress: StageProgress? = nil) async throws -> PhotogrammetrySession.Poses {
        let session = try PhotogrammetrySession(input: samples, configuration: configuration)
        reporter.sampleNames = Dictionary(samples.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        try session.process(requests: [.poses])
        // From here a signal cancels the run (cancelling a session before `process` does nothing).
        interruption.hand(to: session)
        var poses: PhotogrammetrySession.Poses?
        var failure: (any Error)?
        loop: for await output in session.outputs {
            switch output {
            case .requestProgressInfo(_, let info) where progress != nil:
                progress?.update(info.stage, info.stageFraction)
            case .stageComplete(let report) where report.isRestored:
                progress?.restored(report.stage)
                reporter.handle(output)
            case .requestComplete(_, .poses(let result)): poses = result
            case .requestError(_, let error): failure = error
            case .processingCancelled:
                reporter.finish()
                let kept = configuration.checkpointDirectory.map { "; finished stages are kept in \($0.relativePath)" } ?? ""
                reporter.close(cancelled: "cancelled\(kept)")
                throw ExitCode(130)
            case .processingComplete: break loop
            default: reporter.handle(output)
            }
        }
        reporter.finish()
        if let failure { throw failure }
        guard let poses else { throw CommandFailure("the session finished without poses") }
        return poses
    }
}
