import Foundation

extension BatchRunner {
    /// Runs one claimed attempt to its end and records that end in the ledger: completed (after
    /// the output commit), retry scheduled, failed, cancelled, or requeued when the runner stops.
    func attempt(_ job: JobRecord, runnerID: String) async {
        defer { gate.release(job.id) }
        guard let spec = job.decodedSpec else {
            end(job, runnerID: runnerID, error: JobFailure("the ledger's spec does not decode", isRetryable: false))
            return
        }
        let outputDirectory = layout.outputDirectory(job.id, spec: spec)
        let outputs = JobOutputs(finalDirectory: outputDirectory, attempt: job.attempts)
        // A runner killed between the output commit and the ledger update left whole outputs:
        // record them instead of computing them again.
        if let manifest = JobOutputs.committed(at: outputDirectory, jobID: job.id, specDigest: job.specDigest,
                                              enqueuedAt: job.enqueuedAt) {
            finish(job, runnerID: runnerID, outputDirectory: outputDirectory, files: manifest.files.map(\.path),
                   detail: "outputs committed by attempt \(manifest.attempt) before its runner stopped")
            return
        }
        do { try outputs.prepare() } catch {
            // An output folder that cannot be made now will not be made in ten seconds either.
            end(job, runnerID: runnerID, error: JobFailure("\(error)", isRetryable: false))
            return
        }
        let execution = JobExecution(jobID: job.id, spec: spec, attempt: job.attempts, outputDirectory: outputs.stagingDirectory,
                                     checkpointDirectory: layout.checkpointDirectory(job.id), threads: options.threadsPerJob)
        let task = Task { [executor] in
            try await executor.execute(execution) { update in self.handle(update, job: job, runnerID: runnerID) }
        }
        state.started(job.id, task)
        defer { state.ended(job.id) }
        do {
            try await task.value
            let manifest = try outputs.commit(jobID: job.id, specDigest: job.specDigest, enqueuedAt: job.enqueuedAt)
            finish(job, runnerID: runnerID, outputDirectory: outputDirectory, files: manifest.files.map(\.path), detail: nil)
        } catch {
            try? FileManager.default.removeItem(at: outputs.stagingDirectory)
            end(job, runnerID: runnerID, error: error)
        }
    }

    private func finish(_ job: JobRecord, runnerID: String, outputDirectory: URL, files: [String], detail: String?) {
        do {
            try ledger.complete(job.id, runnerID: runnerID, outputDirectory: outputDirectory, outputs: files, detail: detail)
        } catch {
            observer(.warning("job '\(job.id)': outputs committed but not recorded: \(error)"))
            return
        }
        // Reported at once: observers (the HTTP server's task log) must not lag behind the ledger,
        // which clients already see as completed; removing the checkpoints can take a while. They
        // go only once the ledger says this runner completed the job: before, a runner that had
        // lost the job to another could remove the checkpoints the other one was using.
        let seconds = Date().timeIntervalSince1970 - (job.startedAt ?? Date().timeIntervalSince1970)
        observer(.completed(jobID: job.id, seconds: seconds, outputDirectory: outputDirectory, files: files.count))
        tally.add(\.completed)
        if !options.keepCheckpoints { try? FileManager.default.removeItem(at: layout.checkpointDirectory(job.id)) }
    }

    /// Records an attempt that did not complete.
    private func end(_ job: JobRecord, runnerID: String, error: any Error) {
        do {
            if error is CancellationError {
                if state.wasCancelledByUser(job.id) {
                    try ledger.markCancelled(job.id, runnerID: runnerID)
                    tally.add(\.cancelled)
                    observer(.cancelled(jobID: job.id))
                } else if try ledger.release(job.id, runnerID: runnerID, reason: "the runner stopped") == .cancelled {
                    tally.add(\.cancelled)
                    observer(.cancelled(jobID: job.id))
                } else {
                    tally.add(\.interrupted)
                    observer(.interrupted(jobID: job.id))
                }
                return
            }
            let failure = error as? JobFailure
            let retryable: Bool
            if case BatchError.outputs = error { retryable = false } else { retryable = failure?.isRetryable ?? true }
            let message = failure?.message ?? "\(error)"
            let stopped = state.latestProgress(of: job.id)
            let next = try ledger.fail(job.id, runnerID: runnerID, message: message, retryable: retryable,
                                       stage: stopped?.stage, fraction: stopped?.fraction)
            switch next {
            case .queued:
                tally.add(\.retried)
                let delay = (try? ledger.job(job.id)?.notBefore).flatMap { $0 }.map { $0 - Date().timeIntervalSince1970 } ?? 0
                observer(.retrying(jobID: job.id, message: message, delaySeconds: max(0, delay)))
            case .cancelled:
                tally.add(\.cancelled)
                observer(.cancelled(jobID: job.id))
            default:
                tally.add(\.failed)
                observer(.failed(jobID: job.id, message: message))
            }
        } catch {
            observer(.warning("job '\(job.id)': \(error)"))
        }
    }

    /// Passes an executor's update on to the observer and (throttled) to the ledger.
    func handle(_ update: JobUpdate, job: JobRecord, runnerID: String) {
        switch update {
        case .progress(let progress):
            observer(.progress(jobID: job.id, progress))
            state.progressed(job.id, progress)
            let now = Date().timeIntervalSince1970
            if state.shouldWriteProgress(job.id, now: now, interval: options.progressWriteInterval) {
                try? ledger.recordProgress(job.id, runnerID: runnerID, stage: progress.stage, fraction: progress.fraction,
                                           etaSeconds: progress.etaSeconds)
            }
        case .restoredFromCheckpoint(let what):
            try? ledger.note(job.id, runnerID: runnerID, kind: .restoredFromCheckpoint, what)
            observer(.note(jobID: job.id, "restored from the checkpoint: \(what)"))
        case .note(let text):
            try? ledger.note(job.id, runnerID: runnerID, text)
            observer(.note(jobID: job.id, text))
        }
    }
}
