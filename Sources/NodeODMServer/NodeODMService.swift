import BatchRunner
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `photogrammetry serve`: the NodeODM-compatible HTTP API and the batch runner that processes
/// its tasks, in one process, until SIGINT or SIGTERM (running jobs then go back to the queue
/// with their checkpoints and resume at the next start).
public enum NodeODMService {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port = 3000
        /// Clients must send it (`?token=`); nil lets anyone who reaches the port in.
        public var token: String?
        public var dataDirectory: URL
        public var limits = TaskStore.Limits()
        /// Tasks processed at once.
        public var workers = 1
        public var memoryBudgetBytes: Int?

        public init(dataDirectory: URL) {
            self.dataDirectory = dataDirectory
        }
    }

    /// Serves until a shutdown signal. `onListening` gets the bound port.
    public static func run(_ configuration: Configuration, onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let store = try TaskStore(dataDirectory: configuration.dataDirectory, limits: configuration.limits)
        // What a server killed mid-upload left behind goes at the start, not only at the next task.
        await store.removeAbandonedUploads(olderThan: 86_400)
        var options = BatchRunner.Options()
        options.workers = max(1, min(configuration.workers, options.cores))
        options.waitsForNewJobs = true
        if let budget = configuration.memoryBudgetBytes { options.memoryBudgetBytes = budget }
        let runner = BatchRunner(ledger: store.ledger, layout: store.layout, executor: SessionJobExecutor(), options: options) { event in
            store.log.record(event)
            if case .completed(let id, _, _, _) = event { store.removeOrphanedOutput(jobID: id) }
        }
        let processing = Task { try await runner.run() }

        var logger = Logger(label: "photogrammetry.serve")
        logger.logLevel = .warning
        let routes = NodeODMRoutes(store: store, workers: options.workers)
        let app = Application(router: routes.router(token: configuration.token),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "photogrammetry"),
                              onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
                              logger: logger)
        do {
            try await app.runService()
        } catch {
            runner.stop()
            _ = try? await processing.value
            throw ServeError(error, host: configuration.host, port: configuration.port) ?? error
        }
        runner.stop()
        _ = try await processing.value
    }
}

/// The server could not listen: a reason the user can act on instead of the socket call's text.
public struct ServeError: Error, CustomStringConvertible, Equatable {
    public var description: String

    /// nil when `error` is not a failure to listen on `host:port`.
    init?(_ error: Error, host: String, port: Int) {
        if error is SocketAddressError.UnknownHost {
            description = "--host \(host) does not resolve to an address: use 127.0.0.1, 0.0.0.0 or one of this machine's addresses"
            return
        }
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE:
            description = "\(host):\(port) is already in use (another server listens there): choose another --port, or --port 0 for any free one"
        case EACCES:
            description = "no permission to listen on \(host):\(port) (ports below 1024 need privileges): choose another --port"
        case EADDRNOTAVAIL:
            description = "\(host) is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its own addresses for --host"
        default:
            return nil
        }
    }
}

extension TaskStore {
    /// A job that completed after its task was removed wrote its outputs into a folder no task
    /// owns any more: remove that folder.
    nonisolated func removeOrphanedOutput(jobID: String) {
        let uuid = TaskRecord.uuid(ofJob: jobID)
        guard TaskRecord.isValidUUID(uuid) else { return }
        let folder = taskDirectory(uuid)
        guard !FileManager.default.fileExists(atPath: folder.appendingPathComponent("task.json").path) else { return }
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(at: layout.jobDirectory(jobID))
    }
}
