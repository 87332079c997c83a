import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM call `handler` instead of ending the process, until `cancel()`.
/// The batch commands use it to stop their runner or backend cleanly; `poses` and `reconstruct`
/// (through `SessionInterruption`) to cancel their session, or outside one to end with a
/// `cancelled` event.
struct InterruptSignals {
    private let sources: [DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
