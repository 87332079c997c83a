import BatchRunner
import Foundation

/// Each task's console output (`output.log` in its folder), one line per event: what the batch
/// runner reports about the task's jobs, as `GET /task/<uuid>/output` returns it.
final class TaskLog: @unchecked Sendable {
    private let tasksDirectory: URL
    private let lock = NSLock()
    /// The last stage written per job, so progress adds a line only when the stage changes.
    private var stages: [String: String] = [:]

    init(tasksDirectory: URL) {
        self.tasksDirectory = tasksDirectory
    }

    private func url(_ uuid: String) -> URL {
        tasksDirectory.appendingPathComponent(uuid, isDirectory: true).appendingPathComponent("output.log")
    }

    /// Appends a time-stamped line, if the task's folder exists.
    func append(_ uuid: String, _ text: String) {
        guard TaskRecord.isValidUUID(uuid) else { return }
        let line = "[\(TaskStore.dateText(Date()))] \(text)\n"
        lock.lock()
        defer { lock.unlock() }
        let file = url(uuid)
        guard FileManager.default.fileExists(atPath: file.deletingLastPathComponent().path) else { return }
        if let handle = try? FileHandle(forWritingTo: file) {
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: Data(line.utf8))
        } else {
            try? Data(line.utf8).write(to: file)
        }
    }

    /// The log's lines from `line` on (NodeODM's `line`: 0 for all, n to skip n lines, −n for the last n).
    func lines(_ uuid: String, from line: Int = 0) -> [String] {
        lock.lock()
        let text = (try? String(contentsOf: url(uuid), encoding: .utf8)) ?? ""
        lock.unlock()
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0).map(String.init)
        // Any Int is a valid request (Int.min has no negation).
        if line < 0 { return Array(all.suffix(line == .min ? all.count : -line)) }
        return Array(all.dropFirst(line))
    }

    /// Writes what the batch runner reports about a task's job.
    func record(_ event: BatchEvent) {
        switch event {
        case .started(let id, let attempt, let bytes):
            append(TaskRecord.uuid(ofJob: id), "job \(id): attempt \(attempt) started (estimated peak memory \(bytes / 1_000_000) MB)")
        case .progress(let id, let progress):
            lock.lock()
            let changed = stages[id] != progress.stage
            stages[id] = progress.stage
            lock.unlock()
            if changed { append(TaskRecord.uuid(ofJob: id), "stage \(progress.stage) (\(Int((progress.fraction * 100).rounded())) %)") }
        case .note(let id, let text):
            append(TaskRecord.uuid(ofJob: id), text)
        case .completed(let id, let seconds, _, let files):
            forget(id)
            append(TaskRecord.uuid(ofJob: id), String(format: "job %@ completed in %.1f s: %d files", id, seconds, files))
        case .retrying(let id, let message, let delay):
            forget(id)
            append(TaskRecord.uuid(ofJob: id), String(format: "attempt failed: %@; retrying in %.0f s", message, delay))
        case .failed(let id, let message):
            forget(id)
            append(TaskRecord.uuid(ofJob: id), "job \(id) failed: \(message)")
        case .cancelled(let id):
            forget(id)
            append(TaskRecord.uuid(ofJob: id), "job \(id) cancelled")
        case .interrupted(let id):
            forget(id)
            append(TaskRecord.uuid(ofJob: id), "job \(id) interrupted (server stopping): it resumes when the server starts again")
        case .recovered(let recovered):
            append(TaskRecord.uuid(ofJob: recovered.jobID), "job \(recovered.jobID): \(recovered.reason)")
        case .warning, .submitted:
            break
        }
    }

    private func forget(_ id: String) {
        lock.lock()
        stages[id] = nil
        lock.unlock()
    }
}
