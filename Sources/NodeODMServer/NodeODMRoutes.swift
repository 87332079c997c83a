import Foundation
import Hummingbird
import ReconstructionCore

/// NodeODM's task API over a `TaskStore`:
///
/// | endpoint | does |
/// |---|---|
/// | `GET /info`, `GET /options` | the node, its limits and its processing options |
/// | `POST /task/new/init` → `/task/new/upload/:uuid` (repeated) → `/task/new/commit/:uuid` | a task in chunks, as PyODM sends it |
/// | `POST /task/new` | a task in one request (images and options together) |
/// | `GET /task/list`, `GET /task/:uuid/info`, `GET /task/:uuid/output` | tasks, status and progress, console output |
/// | `GET /task/:uuid/download/:asset` | `all.zip` or one output file, whole or a byte range |
/// | `POST /task/cancel`, `/task/remove`, `/task/restart` | with `uuid` (and `options`) in a form |
public struct NodeODMRoutes: Sendable {
    public let store: TaskStore
    public let workers: Int
    /// The NodeODM API level implemented (PyODM uses chunked uploads from 1.4.0 on).
    public static let apiVersion = "1.5.3"
    public static let engine = "photogrammetry"
    public static let engineVersion = PhotogrammetryVersion.string

    public init(store: TaskStore, workers: Int) {
        self.store = store
        self.workers = workers
    }

    public func router(token: String?) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: TokenMiddleware(token: token))
        router.get("info") { _, _ in try await info() }
        router.get("options") { _, _ in try JSONReply.encoded(TaskOptions.definitions) }
        router.post("task/new/init") { request, context in try await initTask(request, context) }
        router.post("task/new/upload/:uuid") { request, context in try await upload(request, context) }
        router.post("task/new/commit/:uuid") { _, context in
            let record = try await store.commit(try Self.uuid(context))
            return JSONReply.response(["uuid": record.uuid])
        }
        router.post("task/new") { request, context in try await newTask(request, context) }
        router.get("task/list") { _, _ in JSONReply.response(await store.list().map { ["uuid": $0.uuid] }) }
        router.get("task/:uuid/info") { request, context in
            let withOutput = request.uri.queryParameters.get("with_output", as: Int.self)
            return try JSONReply.encoded(try await store.info(try Self.uuid(context), withOutput: withOutput))
        }
        router.get("task/:uuid/output") { request, context in
            let line = request.uri.queryParameters.get("line", as: Int.self) ?? 0
            return JSONReply.response(try await store.output(try Self.uuid(context), from: line))
        }
        router.get("task/:uuid/download/:asset") { request, context in try await download(request, context) }
        router.post("task/cancel") { request, context in
            try await cancel(try await TaskForm.read(request, context).uuid)
            return JSONReply.response(["success": true])
        }
        router.post("task/remove") { request, context in
            try await remove(try await TaskForm.read(request, context).uuid)
            return JSONReply.response(["success": true])
        }
        router.post("task/restart") { request, context in
            let form = try await TaskForm.read(request, context)
            let parsed = try form.options.map(TaskOptions.parseReportingIgnored)
            try await store.restart(form.uuid, options: parsed?.options)
            noteIgnored(parsed?.ignored ?? [], task: form.uuid)
            return JSONReply.response(["success": true])
        }
        return router
    }

    /// The `:uuid` of the path. Task ids are kept in lower case; clients that generate upper-case
    /// UUIDs (Swift's, .NET's) use theirs as they are.
    static func uuid(_ context: BasicRequestContext) throws -> String {
        try context.parameters.require("uuid").lowercased()
    }

    /// Cancels the task's job and waits (up to 10 s) for its runner to stop it, as NodeODM
    /// answers with the task already cancelled: an info or restart right after sees it so.
    private func cancel(_ uuid: String) async throws {
        try await store.cancel(uuid)
        let record = try await store.record(uuid)
        for _ in 0..<100 {
            guard let job = try await store.job(of: record), !job.state.isFinal else { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    private func info() async throws -> Response {
        let memory = MemoryInfo.read()
        return JSONReply.response([
            "version": Self.apiVersion, "engine": Self.engine, "engineVersion": Self.engineVersion,
            "taskQueueCount": await store.activeCount(), "maxImages": store.limits.maxImages,
            "maxParallelTasks": workers, "cpuCores": ProcessInfo.processInfo.activeProcessorCount,
            "totalMemory": memory.total, "availableMemory": memory.available,
            "maxUploadBytes": store.limits.maxFileBytes,
        ])
    }

    private func initTask(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        // A bare init (no form) makes a task with the default options, as NodeODM's does.
        if request.headers[.contentType] == nil {
            return JSONReply.response(["uuid": try await createTask(MultipartUpload.Result(), request).uuid])
        }
        return try await withUpload(request, maxFiles: 0) { form in
            JSONReply.response(["uuid": try await createTask(form, request).uuid])
        }
    }

    private func upload(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let uuid = try Self.uuid(context)
        let record = try await store.record(uuid)
        guard !record.committed else { throw NodeODMError.refused("task \(uuid) is already committed: create a new task to add photos") }
        return try await withUpload(request, maxFiles: store.limits.maxImages) { form in
            try await store.addUploads(uuid, files: form.files)
            return JSONReply.response(["success": true])
        }
    }

    private func newTask(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        return try await withUpload(request, maxFiles: store.limits.maxImages) { form in
            let record = try await createTask(form, request)
            do {
                try await store.addUploads(record.uuid, files: form.files)
                _ = try await store.commit(record.uuid)
            } catch {
                try? await store.deleteFiles(record.uuid)
                throw error
            }
            return JSONReply.response(["uuid": record.uuid])
        }
    }

    /// A new task from the form's `name` and `options` and the `set-uuid` header.
    private func createTask(_ form: MultipartUpload.Result, _ request: Request) async throws -> TaskRecord {
        let parsed = try TaskOptions.parseReportingIgnored(form.fields["options"])
        let record = try await store.create(name: form.fields["name"], options: parsed.options,
                                            requestedUUID: request.headers.first { $0.name.canonicalName == "set-uuid" }?.value)
        noteIgnored(parsed.ignored, task: record.uuid)
        return record
    }

    /// Options of ODM's that this node does not have are ignored, as NodeODM does; the task's
    /// console output says which.
    private func noteIgnored(_ names: [String], task uuid: String) {
        guard !names.isEmpty else { return }
        store.log.append(uuid, "ignored option\(names.count == 1 ? "" : "s") this node does not have: \(names.joined(separator: ", ")) "
                         + "(it takes \(TaskOptions.definitions.map(\.name).joined(separator: ", ")))")
    }

    /// Reads a multipart body into a new incoming folder, hands it to `use`, and removes the
    /// folder afterwards (accepted files have been moved out of it by then).
    private func withUpload<T>(_ request: Request, maxFiles: Int, _ use: (MultipartUpload.Result) async throws -> T) async throws -> T {
        let incoming = try store.newIncomingDirectory()
        defer { try? FileManager.default.removeItem(at: incoming) }
        let result = try await MultipartUpload.read(request.body, contentType: request.headers[.contentType], directory: incoming,
                                                    maxFileBytes: store.limits.maxFileBytes, maxFiles: maxFiles)
        return try await use(result)
    }

    /// Sends an output, whole or one byte range of it (`Range: bytes=…`, answered with 206), and
    /// says `Accept-Ranges: bytes` so clients such as PyODM download large archives in parallel
    /// chunks and can resume.
    private func download(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let uuid = try Self.uuid(context)
        let asset = try context.parameters.require("asset")
        let file = try await store.asset(uuid, named: asset)
        let size = try (FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        let type = asset.hasSuffix(".zip") ? "application/zip" : asset.hasSuffix(".json") ? "application/json" : "application/octet-stream"
        var headers: HTTPFields = [.contentType: type, .acceptRanges: "bytes",
                                   .contentDisposition: "attachment; filename=\"\(asset)\""]
        switch ByteRange(header: request.headers[.range], size: size) {
        case .whole:
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers, body: try await FileIO().loadFile(path: file.path, context: context))
        case .part(let range):
            headers[.contentLength] = String(range.count)
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            let body = try await FileIO().loadFile(path: file.path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        case .unsatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes"])
        }
    }

    /// Cancels the task's job if it runs, waits (up to a minute) for the runner to let go of it,
    /// then deletes the task's files.
    private func remove(_ uuid: String) async throws {
        let record = try await store.record(uuid)
        if record.committed {
            try await store.cancel(uuid)
            for _ in 0..<600 {
                guard let job = try await store.job(of: record), job.state == .running else { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        try await store.deleteFiles(uuid)
    }
}

/// The `uuid` (and `options`) of cancel, remove and restart: a URL-encoded form as PyODM sends
/// it, or JSON.
struct TaskForm: Decodable {
    var uuid: String
    var options: String?

    /// Largest form read.
    static let maximumBytes = 1 << 20

    static func read(_ request: Request, _ context: BasicRequestContext) async throws -> TaskForm {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: Self.maximumBytes) } catch {
            throw NodeODMError(.contentTooLarge, "the form is larger than \(Self.maximumBytes / 1024) KiB; it holds a task's uuid and options only")
        }
        let text = String(buffer: buffer)
        let type = request.headers[.contentType]?.lowercased() ?? ""
        var fields: [String: String] = [:]
        if type.hasPrefix("application/json") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw NodeODMError.refused("the body is not a JSON object")
            }
            fields = object.compactMapValues { value in
                if let string = value as? String { return string }
                if JSONSerialization.isValidJSONObject(value), let data = try? JSONSerialization.data(withJSONObject: value) {
                    return String(decoding: data, as: UTF8.self)
                }
                return nil
            }
        } else {
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                if let key = parts.first, !key.isEmpty { fields[key] = parts.count > 1 ? parts[1] : "" }
            }
        }
        guard let uuid = fields["uuid"] ?? request.uri.queryParameters.get("uuid") else {
            throw NodeODMError.refused("missing 'uuid' (send it URL-encoded, as PyODM does: curl -d uuid=…, as JSON, or as ?uuid=…; multipart forms are not read here)")
        }
        return TaskForm(uuid: uuid.lowercased(), options: fields["options"])
    }
}

extension JSONReply {
    static func encoded(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Total and available memory from `/proc/meminfo`, in bytes (0 where it cannot be read).
enum MemoryInfo {
    static func read() -> (total: Int, available: Int) {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else {
            return (Int(ProcessInfo.processInfo.physicalMemory), 0)
        }
        func value(_ key: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (value("MemTotal"), value("MemAvailable"))
    }
}
