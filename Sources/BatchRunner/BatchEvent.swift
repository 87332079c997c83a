import Foundation

/// What a running batch reports, in the order it happens (the CLI prints these as progress bars
/// or JSON lines).
public enum BatchEvent: Sendable, Equatable {
    /// A job abandoned by a dead runner was requeued (or cancelled, or failed).
    case recovered(JobLedger.Recovered)
    /// Jobs were submitted to Slurm as one job array (task i runs `jobIDs[i]`).
    case submitted(slurmArrayID: String, jobIDs: [String])
    /// A worker claimed a job: its attempt and estimated peak memory.
    case started(jobID: String, attempt: Int, estimatedBytes: Int)
    case progress(jobID: String, JobProgress)
    /// A line for the job's history (a checkpoint restored, a photo skipped).
    case note(jobID: String, String)
    /// Outputs committed, job marked completed.
    case completed(jobID: String, seconds: Double, outputDirectory: URL, files: Int)
    /// The attempt failed; the job waits `delaySeconds` before its next attempt.
    case retrying(jobID: String, message: String, delaySeconds: Double)
    case failed(jobID: String, message: String)
    case cancelled(jobID: String)
    /// The runner is stopping: the job went back to the queue.
    case interrupted(jobID: String)
    case warning(String)
}

/// The batch's overall progress and time left, folded from its events.
///
/// Time left: the longest running job's estimate, or the remaining work spread over the workers
/// when that is longer (running jobs' estimates plus queued jobs times the mean job duration seen
/// so far; before any job finished, the running jobs' elapsed + estimated times stand in for it).
public struct BatchProgress: Sendable {
    public var queued: Int
    public var completed = 0
    public var failed = 0
    public var cancelled = 0
    public let workers: Int
    /// Running jobs: start time and latest progress.
    public private(set) var running: [String: (started: Double, progress: JobProgress?)] = [:]
    private var durations: [Double] = []

    public init(queued: Int, workers: Int) {
        self.queued = queued
        self.workers = max(1, workers)
    }

    public mutating func apply(_ event: BatchEvent, now: Double = Date().timeIntervalSince1970) {
        switch event {
        case .started(let id, _, _):
            queued = max(0, queued - 1)
            running[id] = (now, nil)
        case .progress(let id, let progress):
            if let entry = running[id] { running[id] = (entry.started, progress) }
        case .completed(let id, let seconds, _, _):
            running[id] = nil
            completed += 1
            durations.append(seconds)
        case .retrying(let id, _, _), .interrupted(let id):
            running[id] = nil
            queued += 1
        case .failed(let id, _):
            running[id] = nil
            failed += 1
        case .cancelled(let id):
            running[id] = nil
            cancelled += 1
        case .recovered(let recovered):
            if recovered.state == .queued { queued += 1 }
        case .note, .warning, .submitted:
            break
        }
    }

    /// Seconds until the queue should be empty; nil until there is something to go on.
    public func etaSeconds(now: Double = Date().timeIntervalSince1970) -> Double? {
        let runningETAs = running.values.compactMap { $0.progress?.etaSeconds }
        var mean: Double?
        if !durations.isEmpty {
            mean = durations.reduce(0, +) / Double(durations.count)
        } else {
            let totals = running.values.compactMap { entry in entry.progress?.etaSeconds.map { now - entry.started + $0 } }
            if !totals.isEmpty { mean = totals.reduce(0, +) / Double(totals.count) }
        }
        if queued > 0 {
            guard let mean else { return nil }
            let spread = (runningETAs.reduce(0, +) + Double(queued) * mean) / Double(workers)
            return max(runningETAs.max() ?? 0, spread)
        }
        if running.isEmpty { return 0 }
        return runningETAs.count == running.count ? runningETAs.max() : nil
    }
}
