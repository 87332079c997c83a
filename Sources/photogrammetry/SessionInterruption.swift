import Dispatch
import Foundation
import Reconstruction

/// Ctrl-C during a session command: until a session is handed over, it calls `beforeSession`
/// (which ends the process); afterwards it cancels the session, whose output stream then ends with
/// `processingCancelled`. Ctrl-C stays caught until `cancel()`.
final class SessionInterruption: @unchecked Sendable {
    private let source: DispatchSourceSignal
    private let lock = NSLock()
    private var session: PhotogrammetrySession?

    init(beforeSession: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self else { return }
            lock.lock()
            let session = self.session
            lock.unlock()
            if let session { session.cancel() } else { beforeSession() }
        }
        source.resume()
    }

    /// From now on Ctrl-C cancels `session`.
    func hand(to session: PhotogrammetrySession) {
        lock.lock()
        self.session = session
        lock.unlock()
    }

    func cancel() { source.cancel() }
}
