import BatchRunner
import Foundation

/// How `jobs list` and `jobs show` present ledger rows, as text and as JSON.
enum JobsJSON {
    static func summary(_ job: JobRecord) -> [String: Any] {
        var fields: [String: Any] = [
            "id": job.id, "state": job.state.rawValue, "progress": job.progress, "attempts": job.attempts,
            "failures": job.failures, "interruptions": job.interruptions, "completions": job.completions,
            "priority": job.priority, "valid": job.isValid, "enqueued_at": iso(job.enqueuedAt),
        ]
        // Every key in every state, null when it has no value: a client reads one shape.
        let optional: [(String, Any?)] = [("stage", job.stage), ("eta_seconds", job.etaSeconds), ("started_at", job.startedAt.map(iso)),
                                          ("finished_at", job.finishedAt.map(iso)), ("error", job.error), ("output", job.outputDirectory),
                                          ("slurm_job_id", job.slurmJobID)]
        for (key, value) in optional { fields[key] = value ?? NSNull() }
        return fields
    }

    static func detail(_ job: JobRecord, events: [JobEvent], layout: BatchLayout) -> [String: Any] {
        var fields = summary(job)
        fields["slurm_log"] = job.slurmJobID.map { layout.slurmLog($0).path }
        fields["spec"] = (try? JSONSerialization.jsonObject(with: Data(job.spec.utf8))) ?? job.spec
        fields["outputs"] = job.outputFiles
        fields["cancel_requested"] = job.cancelRequested
        fields["events"] = events.map { event -> [String: Any] in
            var e: [String: Any] = ["at": iso(event.at), "kind": event.kind.rawValue, "attempt": event.attempt]
            e["detail"] = event.detail
            e["runner"] = event.runnerID
            return e
        }
        return fields
    }

    static func describe(_ job: JobRecord, events: [JobEvent], layout: BatchLayout) -> String {
        var lines = [
            "job \(job.id): \(job.state.rawValue)\(job.cancelRequested && job.state == .running ? " (cancel requested)" : "")",
            "  stage \(job.stage ?? "-"), \(Int((job.progress * 100).rounded()))%" + (job.state == .running ? job.etaSeconds.map { String(format: ", about %.0f s left", $0) } ?? "" : ""),
            "  attempts \(job.attempts) (failures \(job.failures), interruptions \(job.interruptions)), completions \(job.completions), priority \(job.priority)",
            "  enqueued \(iso(job.enqueuedAt))" + (job.startedAt.map { ", started \(iso($0))" } ?? "")
                + (job.finishedAt.map { ", finished \(iso($0))" } ?? "") + ", \(duration(job))",
        ]
        if let task = job.slurmJobID {
            lines.append("  Slurm job \(task)" + (job.state == .queued ? " (submitted, waiting to start)" : "") + ", log \(layout.slurmLog(task).path)")
        }
        if let error = job.error { lines.append("  error: \(error)") }
        if let output = job.outputDirectory {
            lines.append("  output \(output):")
            lines += job.outputFiles.map { "    \($0)" }
        }
        lines.append("  spec: \(job.spec)")
        lines.append("  history:")
        lines += events.map { event in
            "    \(iso(event.at))  \(event.kind.rawValue)  attempt \(event.attempt)" + (event.detail.map { ": \($0)" } ?? "")
        }
        return lines.joined(separator: "\n")
    }

    /// Time the latest attempt took (or has taken so far); "-" while the job waits in the queue
    /// (after a retry its last start is an earlier attempt's) and for one that never started.
    static func duration(_ job: JobRecord) -> String {
        guard let started = job.startedAt, job.state != .queued else { return "-" }
        let end = job.state == .running ? Date().timeIntervalSince1970 : (job.finishedAt ?? job.updatedAt)
        return String(format: "%.1f s", max(0, end - started))
    }

    /// `message` without its leading "job 'id': " (the table names the job already).
    static func withoutJobName(_ message: String, _ id: String) -> String {
        let prefix = "job '\(id)': "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// `text` on one line (line breaks become spaces, so a table row stays one row), at most
    /// `length` characters.
    static func shortened(_ text: String, _ length: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.count <= length ? line : String(line.prefix(length - 1)) + "…"
    }

    static func text(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
               as: UTF8.self)
    }

    private static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
