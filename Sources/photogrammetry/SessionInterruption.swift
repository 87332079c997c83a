import Foundation
import Reconstruction

/// Ctrl-C (SIGINT) or SIGTERM during a session command: while a session is handed over, it cancels
/// the session, whose output stream then ends with `processingCancelled`; before that (and after
/// `release()`) it calls `beforeSession` (which ends the process). The signals stay caught until
/// `cancel()`.
final class SessionInterruption: @unchecked Sendable {
    private var signals: InterruptSignals?
    private let lock = NSLock()
    private var session: PhotogrammetrySession?

    init(beforeSession: @escaping @Sendable () -> Void) {
        signals = InterruptSignals { [weak self] in
            guard let self else { return }
            lock.lock()
            let session = self.session
            lock.unlock()
            if let session { session.cancel() } else { beforeSession() }
        }
    }

    /// From now on a signal cancels `session`.
    func hand(to session: PhotogrammetrySession) {
        lock.lock()
        self.session = session
        lock.unlock()
    }

    /// From now on a signal calls `beforeSession` again (the session has finished).
    func release() {
        lock.lock()
        session = nil
        lock.unlock()
    }

    func cancel() { signals?.cancel() }
}
