import Foundation

/// A task as its folder records it (`task.json`).
///
/// ```
/// DATA/tasks/<uuid>/task.json     this record
/// DATA/tasks/<uuid>/images/       the uploaded photos, their sidecars, K.txt, tracked_poses.json
/// DATA/tasks/<uuid>/output/       the job's outputs (committed atomically by the batch runner)
/// DATA/tasks/<uuid>/all.zip       the outputs as one archive, made on the first download
/// DATA/tasks/<uuid>/output.log    the task's console output
/// ```
public struct TaskRecord: Codable, Sendable, Equatable {
    public var uuid: String
    public var name: String
    /// Seconds since 1970.
    public var dateCreated: Double
    public var options: TaskOptions
    /// False while photos are being uploaded; the task is listed and runs once committed.
    public var committed: Bool
    /// The batch jobs that ran this task, oldest first: `<uuid>`, then `<uuid>.2`, … for each
    /// restart that needed a new job. The last is the current one.
    public var jobIDs: [String]

    public var currentJobID: String? { jobIDs.last }

    /// Whether `text` can name a task: a UUID (any case).
    public static func isValidUUID(_ text: String) -> Bool {
        text.utf8.count == 36 && UUID(uuidString: text) != nil
    }

    /// The task a batch job belongs to (job ids are `<uuid>` or `<uuid>.<n>`).
    public static func uuid(ofJob jobID: String) -> String {
        String(jobID.prefix { $0 != "." })
    }
}
