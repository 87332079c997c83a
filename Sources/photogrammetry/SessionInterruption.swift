import Foundation
import Reconstruction

/// Ctrl-C (SIGINT) or SIGTERM during a session command. While a session is handed over, the first
/// signal cancels the session, whose output stream then ends with `processingCancelled`; a second
/// one ends the process at once (a stage may take a while to reach its next cancellation point).
/// Before a session is handed over, a signal calls `stop` (which ends the process), and so does
/// `release()` when a signal came while the session was finishing anyway. `stop`'s argument says
/// whether a session had been handed over. The signals stay caught until `cancel()`.
final class SessionInterruption: @unchecked Sendable {
    private var signals: InterruptSignals?
    private let lock = NSLock()
    private var session: PhotogrammetrySession?
    private var hadSession = false
    private var signalled = false
    private let stop: @Sendable (_ afterSession: Bool) -> Void

    init(stop: @escaping @Sendable (_ afterSession: Bool) -> Void) {
        self.stop = stop
        signals = InterruptSignals { [weak self] in
            guard let self else { return }
            lock.lock()
            let session = self.session, again = signalled, hadSession = self.hadSession
            signalled = true
            lock.unlock()
            if let session, !again { session.cancel() } else { stop(hadSession) }
        }
    }

    /// From now on a signal cancels `session`.
    func hand(to session: PhotogrammetrySession) {
        lock.lock()
        self.session = session
        hadSession = true
        lock.unlock()
    }

    /// The session has finished: from now on a signal calls `stop`, and a signal that came while it
    /// was finishing (too late to cancel it) calls it now.
    func release() {
        lock.lock()
        session = nil
        let came = signalled
        lock.unlock()
        if came { stop(true) }
    }

    func cancel() { signals?.cancel() }
}
