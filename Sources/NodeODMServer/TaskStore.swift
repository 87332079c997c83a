import BatchRunner
import Foundation

/// The server's tasks: one folder each under `DATA/tasks/` (see `TaskRecord`), run as jobs of the
/// batch ledger in `DATA/batch/`. Every path it touches comes from a checked UUID and a
/// sanitised file name, so no request can reach outside a task's own folder.
public actor TaskStore {
    public struct Limits: Sendable, Equatable {
        /// Photos per task.
        public var maxImages = 2000
        /// Bytes per uploaded file.
        public var maxFileBytes = 512 * 1_000_000
        public init() {}
    }

    public nonisolated let dataDirectory: URL
    public nonisolated let limits: Limits
    public nonisolated let ledger: JobLedger
    public nonisolated let layout: BatchLayout
    nonisolated let log: TaskLog
    /// `all.zip` archives being written, by task: a second request waits for the first's.
    var archiving: [String: Task<Void, any Error>] = [:]

    public init(dataDirectory: URL, limits: Limits = Limits()) throws {
        self.dataDirectory = dataDirectory.standardizedFileURL
        self.limits = limits
        layout = BatchLayout(root: self.dataDirectory.appendingPathComponent("batch", isDirectory: true))
        try FileManager.default.createDirectory(at: layout.root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: self.dataDirectory.appendingPathComponent("tasks"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: self.dataDirectory.appendingPathComponent("incoming"), withIntermediateDirectories: true)
        ledger = try JobLedger(path: layout.ledger)
        log = TaskLog(tasksDirectory: self.dataDirectory.appendingPathComponent("tasks", isDirectory: true))
    }

    // MARK: Folders

    public nonisolated func taskDirectory(_ uuid: String) -> URL {
        dataDirectory.appendingPathComponent("tasks", isDirectory: true).appendingPathComponent(uuid, isDirectory: true)
    }

    nonisolated func imagesDirectory(_ uuid: String) -> URL { taskDirectory(uuid).appendingPathComponent("images", isDirectory: true) }
    public nonisolated func outputDirectory(_ uuid: String) -> URL { taskDirectory(uuid).appendingPathComponent("output", isDirectory: true) }
    nonisolated func archiveURL(_ uuid: String) -> URL { taskDirectory(uuid).appendingPathComponent("all.zip") }
    private nonisolated func recordURL(_ uuid: String) -> URL { taskDirectory(uuid).appendingPathComponent("task.json") }

    /// A new folder for one request's uploads, on the tasks' file system (so files move by rename).
    public nonisolated func newIncomingDirectory() throws -> URL {
        let url = dataDirectory.appendingPathComponent("incoming", isDirectory: true).appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: Records

    /// The task `uuid` (committed or not).
    /// - Throws: `NodeODMError.notFound` for an invalid or unknown UUID.
    public func record(_ uuid: String) throws -> TaskRecord {
        guard TaskRecord.isValidUUID(uuid) else { throw NodeODMError.notFound("'\(uuid.prefix(64))' is not a task UUID") }
        guard let data = try? Data(contentsOf: recordURL(uuid)), let record = try? JSONDecoder().decode(TaskRecord.self, from: data) else {
            throw NodeODMError.notFound("task \(uuid) not found")
        }
        return record
    }

    /// A committed task.
    public func committedRecord(_ uuid: String) throws -> TaskRecord {
        let record = try record(uuid)
        guard record.committed else { throw NodeODMError.notFound("task \(uuid) not found (its upload was not committed)") }
        return record
    }

    private func save(_ record: TaskRecord) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(record).write(to: recordURL(record.uuid), options: .atomic)
    }

    /// Committed tasks, oldest first.
    public func list() -> [TaskRecord] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("tasks").path)) ?? []
        return names.filter(TaskRecord.isValidUUID).compactMap { try? committedRecord($0) }.sorted { $0.dateCreated < $1.dateCreated }
    }

    // MARK: Creating

    /// A new task waiting for its photos. `requestedUUID` is the client's `set-uuid`. Uploads
    /// never committed within a day are removed first.
    public func create(name: String?, options: TaskOptions, requestedUUID: String?) throws -> TaskRecord {
        removeAbandonedUploads(olderThan: 86_400)
        var uuid = UUID().uuidString.lowercased()
        if let requestedUUID, !requestedUUID.isEmpty {
            guard TaskRecord.isValidUUID(requestedUUID) else { throw NodeODMError.refused("set-uuid '\(requestedUUID.prefix(64))' is not a UUID") }
            uuid = requestedUUID.lowercased()
            guard !FileManager.default.fileExists(atPath: taskDirectory(uuid).path) else {
                throw NodeODMError.refused("a task with UUID \(uuid) already exists")
            }
        }
        try FileManager.default.createDirectory(at: imagesDirectory(uuid), withIntermediateDirectories: true)
        let cleanName = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let record = TaskRecord(uuid: uuid, name: cleanName.isEmpty ? "Task of \(Self.dateText(Date()))" : String(cleanName.prefix(200)),
                                dateCreated: Date().timeIntervalSince1970, options: options, committed: false, jobIDs: [])
        try save(record)
        return record
    }

    /// Moves uploaded files (already named by `UploadName`) into an uncommitted task's photos;
    /// a file with a name the task already has replaces it (an upload retried by the client; the
    /// task log says so when its content differs).
    /// - Throws: `NodeODMError.refused` when the task is committed, would exceed the image limit,
    ///   or when one request carries two files of the same name (photos of two folders, say: one
    ///   would be lost).
    public func addUploads(_ uuid: String, files: [UploadedFile]) throws {
        let record = try record(uuid)
        guard !record.committed else { throw NodeODMError.refused("task \(uuid) is already committed: create a new task to add photos") }
        var names: Set<String> = []
        for file in files where !names.insert(file.storedName).inserted {
            throw NodeODMError.refused("two uploaded files are named \(file.storedName): one would replace the other; rename them "
                                       + "(photos from different folders often share names) and upload again")
        }
        let folder = imagesDirectory(uuid)
        let existing = Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(UploadName.isPhoto))
        let added = Set(files.map(\.storedName).filter(UploadName.isPhoto)).subtracting(existing)
        guard existing.count + added.count <= limits.maxImages else {
            throw NodeODMError.refused("task \(uuid) would have \(existing.count + added.count) photos: this node takes at most \(limits.maxImages) per task")
        }
        for file in files {
            let target = folder.appendingPathComponent(file.storedName)
            if FileManager.default.fileExists(atPath: target.path), !FileManager.default.contentsEqual(atPath: target.path, andPath: file.location.path) {
                log.append(uuid, "warning: \(file.storedName) was uploaded again with other content; the new upload replaces the earlier one")
            }
            _ = try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: file.location, to: target)
        }
    }

    /// Commits a task: checks its photos and queues its job.
    public func commit(_ uuid: String) throws -> TaskRecord {
        var record = try record(uuid)
        guard !record.committed else { return record }
        let photos = photoCount(uuid)
        guard photos >= 2 else {
            throw NodeODMError.refused("task \(uuid) has \(photos) photo\(photos == 1 ? "" : "s"): at least 2 are needed")
        }
        let jobID = uuid
        try enqueue(jobID, record: record)
        record.committed = true
        record.jobIDs = [jobID]
        try save(record)
        log.append(uuid, "task committed: \(photos) photos, options \(Self.optionsText(record.options))")
        return record
    }

    /// Deletes uncommitted tasks created more than `seconds` ago (a client that gave up).
    public func removeAbandonedUploads(olderThan seconds: Double, now: Double = Date().timeIntervalSince1970) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.appendingPathComponent("tasks").path)) ?? []
        for uuid in names where TaskRecord.isValidUUID(uuid) {
            guard let record = try? record(uuid), !record.committed, now - record.dateCreated > seconds else { continue }
            try? FileManager.default.removeItem(at: taskDirectory(uuid))
        }
        // A request's incoming folder is removed when the request ends; one left by a server that
        // was killed mid-upload is removed once nothing has written to it, or to a file in it (a
        // slow upload's file grows without touching its folder), for an hour.
        let incoming = dataDirectory.appendingPathComponent("incoming", isDirectory: true)
        func modified(_ url: URL) -> Double {
            ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? now
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: incoming.path)) ?? [] {
            let folder = incoming.appendingPathComponent(name)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let latest = files.map { modified(folder.appendingPathComponent($0)) }.reduce(modified(folder), max)
            guard now - latest > min(seconds, 3600) else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    nonisolated func photoCount(_ uuid: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: imagesDirectory(uuid).path)) ?? []).filter(UploadName.isPhoto).count
    }

    /// Queues `jobID` for the task's photos and options, through the jobs-file checks.
    private func enqueue(_ jobID: String, record: TaskRecord) throws {
        var job: [String: Any] = [
            "id": jobID, "input": taskDirectory(record.uuid).path, "output": outputDirectory(record.uuid).path,
            "requests": record.options.requests.map(Self.requestObject),
            "retry": ["maxAttempts": 2, "backoffSeconds": 5],
        ]
        if FileManager.default.fileExists(atPath: imagesDirectory(record.uuid).appendingPathComponent(UploadName.intrinsicsFileName).path) {
            job["intrinsicsFile"] = "images/\(UploadName.intrinsicsFileName)"
        }
        if !record.options.objectMasking { job["objectMasking"] = false }
        let data = try JSONSerialization.data(withJSONObject: job)
        let file = try JobsFile.parse(data, name: "task \(record.uuid)", baseDirectory: taskDirectory(record.uuid))
        guard let entry = file.entries.first else { throw NodeODMError.refused("task \(record.uuid): no job") }
        // A client sees its task's files by their names, not the server's paths.
        func withoutPaths(_ problem: String) -> String {
            problem.replacingOccurrences(of: taskDirectory(record.uuid).path + "/", with: "")
                .replacingOccurrences(of: taskDirectory(record.uuid).path, with: "the task")
        }
        if case .invalid(_, _, let problem) = entry { throw NodeODMError.refused(withoutPaths(problem)) }
        if case .valid(let spec) = entry {
            switch try ledger.enqueue(entry, facts: JobFacts.scan(input: URL(fileURLWithPath: spec.input))) {
            case .queued, .replaced(problem: nil), .unchanged: break
            case .rejected(let problem), .replaced(problem: .some(let problem)), .invalidKept(let problem, _):
                throw NodeODMError.refused(withoutPaths(problem))
            case .conflict(let state):
                throw NodeODMError.refused("job \(jobID) is already \(state.rawValue) in the ledger")
            }
        }
    }

    private static func requestObject(_ request: JobRequest) -> Any {
        guard let data = try? JSONEncoder().encode(request) else { return request.kind }
        return (try? JSONSerialization.jsonObject(with: data)) ?? request.kind
    }

    static func optionsText(_ options: TaskOptions) -> String {
        options.entries.map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }.joined(separator: ", ")
    }

    static func dateText(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    // MARK: Running

    /// The current job of a committed task.
    public func job(of record: TaskRecord) throws -> JobRecord? {
        guard let id = record.currentJobID else { return nil }
        return try ledger.job(id)
    }

    /// Cancels the task's job (a no-op for finished tasks, as in NodeODM).
    public func cancel(_ uuid: String) throws {
        let record = try committedRecord(uuid)
        guard let current = try job(of: record), !current.state.isFinal else { return }
        try ledger.requestCancel(current.id)
        log.append(uuid, "cancel requested")
    }

    /// Runs a cancelled, failed or completed task again, with new options if given: the job is
    /// retried from its checkpoint when the options are unchanged and it did not complete;
    /// otherwise a new job (`<uuid>.<n>`) runs from the start.
    public func restart(_ uuid: String, options newOptions: TaskOptions?) throws {
        var record = try committedRecord(uuid)
        let current = try job(of: record)
        if let current, !current.state.isFinal {
            throw NodeODMError.refused("task \(uuid) is \(current.state.rawValue): only cancelled, failed or completed tasks can be restarted")
        }
        stopArchiving(uuid)
        try? FileManager.default.removeItem(at: archiveURL(uuid))
        let options = newOptions ?? record.options
        if let current, current.state != .completed, current.isValid, options == record.options {
            try ledger.retry(current.id)
        } else {
            record.options = options
            let jobID = "\(uuid).\(record.jobIDs.count + 1)"
            // The finished job's outputs give way to the new job's, as NodeODM's restart discards them.
            try? FileManager.default.removeItem(at: outputDirectory(uuid))
            try enqueue(jobID, record: record)
            record.jobIDs.append(jobID)
        }
        try save(record)
        log.append(uuid, "task restarted, options \(Self.optionsText(options))")
    }

    /// Deletes everything the task owns: its folder and its jobs' checkpoint folders. The ledger
    /// keeps the jobs' history; other tasks and the ledger itself are not touched.
    public func deleteFiles(_ uuid: String) throws {
        stopArchiving(uuid)
        let record = try record(uuid)
        for id in record.jobIDs where JobSpec.isValidID(id) {
            try? FileManager.default.removeItem(at: layout.jobDirectory(id))
        }
        try FileManager.default.removeItem(at: taskDirectory(uuid))
    }
}

/// A file received in an upload, waiting in an incoming folder.
public struct UploadedFile: Sendable, Equatable {
    /// The name it will have in the task's `images/` (checked by `UploadName`).
    public var storedName: String
    public var location: URL
    public var bytes: Int

    public init(storedName: String, location: URL, bytes: Int) {
        self.storedName = storedName
        self.location = location
        self.bytes = bytes
    }
}
