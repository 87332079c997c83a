import BatchRunner
import Foundation

/// `GET /task/<uuid>/info`, in NodeODM's fields.
public struct TaskInfo: Codable, Sendable, Equatable {
    public struct Status: Codable, Sendable, Equatable {
        public var code: TaskStatusCode
        public var errorMessage: String?
    }

    public var uuid: String
    public var name: String
    /// Milliseconds since 1970.
    public var dateCreated: Double
    /// Milliseconds of processing so far (to the end for finished tasks), −1 before it starts.
    public var processingTime: Double
    public var status: Status
    public var options: [[String: String]]
    public var imagesCount: Int
    /// 0…100.
    public var progress: Double
    /// The console output from the requested line (`with_output`), else absent.
    public var output: [String]?
    /// Our additions: the pipeline stage and the estimated seconds left.
    public var stage: String?
    public var etaSeconds: Double?
}

extension TaskStore {
    /// A committed task's info, with its console output from `withOutput` if given.
    public func info(_ uuid: String, withOutput: Int? = nil, now: Double = Date().timeIntervalSince1970) throws -> TaskInfo {
        let record = try committedRecord(uuid)
        let current = try job(of: record)
        // A committed task's job was enqueued at commit: without it, it was removed (`jobs remove`).
        let state = current?.state ?? .failed
        var processing = -1.0
        // A queued task has not started (again, after a restart): −1, as NodeODM says.
        if let started = current?.startedAt, state != .queued {
            processing = ((state.isFinal ? current?.finishedAt ?? now : now) - started) * 1000
        }
        let progress = state == .completed ? 100 : min(99.9, (current?.progress ?? 0) * 100)
        let message: String? = current == nil ? "the task's job was removed from the ledger"
            : [.failed, .cancelled].contains(state) ? (current?.error ?? (state == .cancelled ? "cancelled" : nil)) : nil
        return TaskInfo(uuid: record.uuid, name: record.name, dateCreated: (record.dateCreated * 1000).rounded(),
                        processingTime: processing.rounded(), status: .init(code: TaskStatusCode(state), errorMessage: message),
                        options: record.options.entries, imagesCount: photoCount(uuid), progress: (progress * 10).rounded() / 10,
                        output: withOutput.map { log.lines(uuid, from: $0) },
                        stage: state == .running ? current?.stage : nil, etaSeconds: state == .running ? current?.etaSeconds : nil)
    }

    /// A committed task's console output from `line` (see `TaskLog.lines`).
    public func output(_ uuid: String, from line: Int) throws -> [String] {
        _ = try committedRecord(uuid)
        return log.lines(uuid, from: line)
    }

    /// Tasks queued or running.
    public func activeCount() -> Int {
        list().filter { record in
            guard let current = try? job(of: record) else { return false }
            return !current.state.isFinal
        }.count
    }
}
