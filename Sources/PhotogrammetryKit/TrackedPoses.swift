import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore

/// The poses a capture device tracked for its photos: `tracked_poses.json` beside the photos, in
/// `poses.json`'s format, world in metres (`capture replay` writes it from the frame stream).
/// Tracking drifts by centimetres, too much to replace structure from motion, but its scale is
/// metric: the similarity that best maps the estimated camera centres onto the tracked ones gives
/// the reconstruction's metres per unit when no depth gives them.
public enum TrackedPoses {
    /// The file's name in a capture folder.
    public static let fileName = CaptureFolderFiles.trackedPoses
    /// Registered photos with a tracked pose needed for a scale.
    public static let minimumCameras = 3
    /// Largest root-mean-square distance between the aligned estimated centres and the tracked
    /// ones, as a fraction of the tracked centres' spread (their RMS distance from their mean), for
    /// the scale to be used: tracking a 0.5 m orbit to within 2 cm is 4 %.
    public static let maximumRelativeResidual = 0.05

    /// What aligning the estimated cameras to the tracked ones gave.
    public enum Scale: Equatable, Sendable {
        /// Metres per scene unit, from `cameras` photos whose aligned centres lie within
        /// `relativeResidual` (RMS, as a fraction of their spread) of the tracked ones.
        case metresPerUnit(Double, cameras: Int, relativeResidual: Double)
        /// Why no scale is taken from them.
        case refused(String)
    }

    /// The tracked camera-to-world poses from `imagesDirectory/tracked_poses.json`; nil when the
    /// folder has no such file.
    /// - Throws: `ModelExportError` naming the file when it is unreadable or malformed.
    public static func load(besides imagesDirectory: URL) throws -> [NamedPose]? {
        let url = imagesDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try PosesJSONReader.load(url)
    }

    /// The scale of `scene` from the tracked poses of its registered photos. One trimming round
    /// drops photos more than three times the median distance off (a tracking jump), at most a
    /// fifth of them, before the final fit.
    /// Photos match by name, or by name without extension when that is unambiguous, as pose
    /// evaluation matches them (`PoseAccuracyReport.matchedPairs`).
    public static func scale(scene: SparseScene, tracked: [NamedPose]) -> Scale {
        let pairs = PoseAccuracyReport.matchedPairs(estimated: scene.namedPoses, groundTruth: tracked)
            .map { (estimated: $0.est.translation, tracked: $0.truth.translation) }
        guard pairs.count >= minimumCameras else {
            return .refused("only \(pairs.count) registered photo\(pairs.count == 1 ? " has" : "s have") a tracked pose (\(minimumCameras) needed)")
        }
        guard var fit = align(pairs) else { return .refused("the tracked camera centres do not spread out (all at one place)") }
        // A jump moves a few photos far off; at least 80 % must stay, and a distance within 1 % of
        // the spread is never trimmed (nearly exact poses would otherwise lose photos to rounding).
        let limit = max(3 * Statistics.median(fit.distances), 0.01 * fit.spread)
        let kept = zip(pairs, fit.distances).filter { $0.1 <= limit }.map(\.0)
        if kept.count < pairs.count, kept.count >= max(minimumCameras, Int((0.8 * Double(pairs.count)).rounded(.up))),
           let trimmed = align(kept) { fit = trimmed }
        guard fit.transform.scale > 0, fit.transform.scale.isFinite else {
            return .refused("the tracked camera centres give no positive scale")
        }
        guard fit.relativeResidual <= maximumRelativeResidual else {
            return .refused(String(format: "after the best similarity the estimated camera centres lie %.0f %% of their spread from the tracked ones "
                                   + "(at most %.0f %% is used): the tracked poses do not describe these photos, or tracking jumped for many of them",
                                   100 * fit.relativeResidual,
                                   100 * maximumRelativeResidual))
        }
        return .metresPerUnit(fit.transform.scale, cameras: fit.distances.count, relativeResidual: fit.relativeResidual)
    }

    private static func align(_ pairs: [(estimated: Vector3, tracked: Vector3)])
        -> (transform: SimilarityTransform, distances: [Double], spread: Double, relativeResidual: Double)? {
        let target = pairs.map(\.tracked)
        guard let transform = SimilarityTransform.aligning(pairs.map(\.estimated), onto: target) else { return nil }
        guard let spread = target.rmsSpread, spread > 0 else { return nil }
        let distances = pairs.map { (transform.apply($0.estimated) - $0.tracked).length }
        let rms = (distances.map { $0 * $0 }.reduce(0, +) / Double(distances.count)).squareRoot()
        return (transform, distances, spread, rms / spread)
    }
}
