import Foundation
import ModelExport
import ReconstructionCore

extension TrackedPoses {
    /// Metres per scene unit from the capture's tracked poses beside `imagesDirectory` and the
    /// photos that gave it, nil without them; a file that cannot be read, or poses that do not fit
    /// the estimated ones, is a warning.
    public static func metricScale(scene: SparseScene, imagesDirectory: URL, warnings: inout [String],
                                   log: (String) -> Void) -> (metresPerUnit: Double, cameras: Int)? {
        let tracked: [NamedPose]
        do {
            guard let loaded = try load(besides: imagesDirectory) else { return nil }
            tracked = loaded
        } catch {
            warnings.append("\(error); the tracked poses are not used")
            return nil
        }
        switch scale(scene: scene, tracked: tracked) {
        case let .metresPerUnit(scale, cameras, residual):
            log(String(format: "metric scale from the tracked poses (%@): %d photos, their centres within %.1f %% of their spread after alignment",
                       fileName, cameras, 100 * residual))
            return (scale, cameras)
        case .refused(let reason):
            warnings.append("\(imagesDirectory.appendingPathComponent(fileName).path): \(reason); the scale stays unknown")
            return nil
        }
    }

    /// Estimated poses as `poses` writes them: in metres when the tracked poses beside the photos
    /// give the scale (`metresPerUnit`; the frame stays structure from motion's), else in its own units.
    public static func exportedPoses(_ scene: SparseScene, imagesDirectory: URL, warnings: inout [String],
                                     log: (String) -> Void) -> (scene: SparseScene, world: PosesWorld, metresPerUnit: Double?) {
        guard let tracked = metricScale(scene: scene, imagesDirectory: imagesDirectory, warnings: &warnings, log: log) else {
            return (scene, .reconstruction, nil)
        }
        let world = PosesWorld(description: "the reconstruction's frame, in metres: an arbitrary rigid transform of the real world, "
                                   + "scaled by the \(tracked.cameras) photos' tracked poses (\(fileName))", isMetric: true)
        return (scene.scaled(by: tracked.metresPerUnit), world, tracked.metresPerUnit)
    }
}
