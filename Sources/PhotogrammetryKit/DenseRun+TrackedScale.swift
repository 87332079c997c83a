import Foundation
import ReconstructionCore

extension DenseRun {
    /// Metres per scene unit from the capture's tracked poses (`TrackedPoses`) and the photos that
    /// gave it, nil without them; a file that cannot be read, or poses that do not fit the
    /// estimated ones, is a warning.
    static func trackedScale(scene: SparseScene, imagesDirectory: URL, warnings: inout [String],
                             log: (String) -> Void) -> (metresPerUnit: Double, cameras: Int)? {
        let tracked: [NamedPose]
        do {
            guard let loaded = try TrackedPoses.load(besides: imagesDirectory) else { return nil }
            tracked = loaded
        } catch {
            warnings.append("\(error); the tracked poses are not used")
            return nil
        }
        switch TrackedPoses.scale(scene: scene, tracked: tracked) {
        case let .metresPerUnit(scale, cameras, residual):
            log(String(format: "metric scale from the tracked poses (%@): %d photos, their centres within %.1f %% of their spread after alignment",
                       TrackedPoses.fileName, cameras, 100 * residual))
            return (scale, cameras)
        case .refused(let reason):
            warnings.append("\(imagesDirectory.appendingPathComponent(TrackedPoses.fileName).path): \(reason); the scale stays unknown")
            return nil
        }
    }
}
