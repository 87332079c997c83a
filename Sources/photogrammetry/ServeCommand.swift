import ArgumentParser
import Foundation
import NodeODMServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a NodeODM-compatible HTTP API (PyODM, WebODM) that runs tasks through the batch runner.",
        discussion: """
            Clients create tasks from photos (POST /task/new/init, /task/new/upload/<uuid>, \
            /task/new/commit/<uuid>, or POST /task/new), follow them (GET /task/list, \
            /task/<uuid>/info, /task/<uuid>/output), download their outputs \
            (GET /task/<uuid>/download/all.zip) and cancel, remove or restart them (POST \
            /task/cancel, /task/remove, /task/restart). GET /options lists the processing options: \
            detail (none, preview, reduced, medium, full, raw), model-format (usdz, glb, obj), \
            point-cloud (the sparse points), bounds, object-masking. Every task gets camera poses (poses.json, colmap/, \
            sparse_pc.ply, transforms.json); upload K.txt with the photos to hold known intrinsics fixed, and \
            tracked_poses.json (from capture replay) for a metric scale without depth.

            Files live under DATA: DATA/tasks/<uuid>/ (photos, outputs, all.zip, console log) and \
            DATA/batch/ (the job ledger: `photogrammetry jobs list --ledger DATA/batch`). Removing \
            a task deletes its folder and checkpoints only. Errors are JSON ({"error": "…"}): 401 \
            without the token, 403 for refused input (path-like file names, non-photo files, limits, \
            bad option values; options this node lacks are ignored and named in the task's output), \
            404 for unknown tasks and assets.

            Ctrl-C or SIGTERM stops the server; running tasks resume from their checkpoints at the \
            next start with the same DATA.
            """)

    @Option(help: "TCP port to listen on (0: any free port, printed at start).")
    var port = 3000

    @Option(help: "Address to bind: 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).")
    var host = "127.0.0.1"

    @Option(help: "Token clients must send as ?token=… (also read from PHOTOGRAMMETRY_TOKEN). Without one, anyone who can reach the port can submit tasks.")
    var token: String?

    @Option(name: .customLong("data-dir"), help: "Folder for tasks, uploads, outputs and the job ledger (created if missing).")
    var dataDirectory: String

    @Option(help: "Tasks processed at once (capped at the cores available).")
    var workers = 1

    @Option(name: .customLong("max-images"), help: "Photos per task.")
    var maxImages = 2000

    @Option(name: .customLong("max-upload-mb"), help: "Largest uploaded file, in megabytes.")
    var maxUploadMB = 512

    @Option(name: .customLong("memory-budget"), parsing: .unconditional, help: "Gigabytes the running tasks may use together (default: 80 % of memory).")
    var memoryBudget: Double?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard workers >= 1 else { throw ValidationError("--workers must be at least 1") }
        guard maxImages >= 2 else { throw ValidationError("--max-images must be at least 2") }
        guard (1...1_000_000).contains(maxUploadMB) else { throw ValidationError("--max-upload-mb must be 1…1000000") }
        if let memoryBudget, !(memoryBudget > 0 && memoryBudget <= 1e6) { throw ValidationError("--memory-budget must be more than 0 and at most 1000000 GB") }
        if let token, token.isEmpty { throw ValidationError("--token must not be empty") }
    }

    func run() async throws {
        let data = URL(fileURLWithPath: dataDirectory, isDirectory: true)
        do { try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true) } catch {
            throw CommandFailure("--data-dir \(data.path) cannot be created: \(error.localizedDescription)")
        }
        guard FileManager.default.isWritableFile(atPath: data.path) else { throw CommandFailure("--data-dir \(data.path) is not writable") }
        var configuration = NodeODMService.Configuration(dataDirectory: data)
        configuration.host = host
        configuration.port = port
        configuration.token = token ?? ProcessInfo.processInfo.environment["PHOTOGRAMMETRY_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.workers = workers
        configuration.limits.maxImages = maxImages
        configuration.limits.maxFileBytes = maxUploadMB * 1_000_000
        configuration.memoryBudgetBytes = memoryBudget.map { Int($0 * 1e9) }
        let host = self.host, open = configuration.token == nil
        try await NodeODMService.run(configuration) { port in
            // The port bound (with --port 0 the system picks it), so the warning names the real one.
            if open {
                FileHandle.standardError.write(Data("warning: no --token: anyone who can reach \(host):\(port) can submit and remove tasks\n".utf8))
            }
            FileHandle.standardOutput.write(Data("serving the NodeODM API on http://\(host):\(port) (data in \(data.path))\n".utf8))
        }
        // Ctrl-C or SIGTERM ended the service, after the running tasks went back to the queue.
        FileHandle.standardError.write(Data("stopped: tasks not finished resume from their checkpoints when the server starts again\n".utf8))
    }
}
