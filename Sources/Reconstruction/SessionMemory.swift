import Foundation
import ReconstructionCore

/// Stage results a session keeps between its `process` calls, so that a later call on the same
/// samples and options (another detail level, another file format, a cancelled model request
/// asked again) does not compute them again, with or without a checkpoint directory. Only the
/// newest value of each entry is kept: the pose stages' result and the last surface. They stay
/// in memory while the session lives (the sparse scene, and the surface mesh before decimation).
final class SessionMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (key: Fingerprint, value: any Sendable)] = [:]

    /// The kept value of `entry` when it was made for `key`. One made for another key is dropped,
    /// so the run about to compute its replacement does not hold both.
    func value<T: Sendable>(_: T.Type, entry: String, key: Fingerprint) -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard let kept = entries[entry] else { return nil }
        guard kept.key == key, let value = kept.value as? T else {
            entries[entry] = nil
            return nil
        }
        return value
    }

    /// Keeps `value` as `entry`, replacing what was kept there.
    func keep<T: Sendable>(_ value: T, entry: String, key: Fingerprint) {
        lock.lock()
        entries[entry] = (key, value)
        lock.unlock()
    }
}

/// What the pose stages (features, matching, mapping) leave for the rest of a run, and what a
/// later run on the same inputs replays from `SessionMemory` instead of computing them again.
struct PoseStagesResult: Sendable {
    var report: PoseEstimation.Report
    /// The key the surface checkpoints build on.
    var mappingKey: Fingerprint
    /// Per input index, why the sample could not be used (already prefixed with its name).
    var invalidSamples: [(index: Int, reason: String)]
    /// Whether some photo was larger than the maximum the features stage works on.
    var downsampled: Bool
    /// Wall seconds each pose stage took when it was computed (or restored).
    var stageSeconds: [ProcessingStage: Double]
    /// The warning when photos' EXIF focal length was set aside (`PoseEstimation.exifSetAsideWarning`).
    var exifSetAside: String?
    /// The warning when photos' given focal length their pairs contradict (`PoseEstimation.givenFocalWarning`).
    var givenFocalContradicted: String? = nil
}
