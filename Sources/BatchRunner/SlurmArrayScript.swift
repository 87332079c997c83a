import Foundation

/// The batch script of one Slurm job array: task `i` runs job `jobIDs[i]` of the ledger with
/// `photogrammetry jobs run ID --ledger OUT` (a one-job runner: claim, run, commit, record).
///
/// ```bash
/// #!/bin/bash
/// ids=('vase-01' 'vase-02')
/// exec '/usr/local/bin/photogrammetry' jobs run "${ids[$SLURM_ARRAY_TASK_ID]}" --ledger '/data/out'
/// ```
public struct SlurmArrayScript: Sendable, Equatable {
    public var jobIDs: [String]
    /// The command that starts `photogrammetry` on the nodes (an absolute path, or a name on their PATH).
    public var worker: [String]
    /// The batch output folder (on a file system the nodes share).
    public var ledgerFolder: URL

    public init(jobIDs: [String], worker: [String], ledgerFolder: URL) {
        self.jobIDs = jobIDs
        self.worker = worker
        self.ledgerFolder = ledgerFolder
    }

    public var text: String {
        """
        #!/bin/bash
        # Written by `photogrammetry batch --backend slurm`: array task i runs job ids[i] of the ledger
        # in \(ledgerFolder.path) (claims it, runs it, commits its outputs, records the outcome).
        ids=(\(jobIDs.map(Self.quoted).joined(separator: " ")))
        exec \(worker.map(Self.quoted).joined(separator: " ")) jobs run "${ids[$SLURM_ARRAY_TASK_ID]}" --ledger \(Self.quoted(ledgerFolder.path))

        """
    }

    /// `text` in single quotes for bash.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
