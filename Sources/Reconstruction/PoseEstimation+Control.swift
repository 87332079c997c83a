extension PoseEstimation {
    /// How a caller steers a running stage: progress reports and cooperative cancellation.
    public struct Control: Sendable {
        /// Called from worker threads as work finishes.
        public var progress: @Sendable (Progress) -> Void
        /// Checked between images, between pairs and between mapper steps; when it returns true the
        /// stage stops and throws `CancellationError`.
        public var isCancelled: @Sendable () -> Bool

        public init(progress: @escaping @Sendable (Progress) -> Void = { _ in },
                    isCancelled: @escaping @Sendable () -> Bool = { false }) {
            self.progress = progress
            self.isCancelled = isCancelled
        }

        func checkCancellation() throws {
            if isCancelled() { throw CancellationError() }
        }
    }
}
