import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

extension ReconstructCommand {
    /// The dense stages (stereo, fusion, meshing). With `--checkpoint` they go through its
    /// `dense.ckpt`: loaded when it was saved for these poses, dense options and capture files
    /// (unless `--point-cloud` asks for the stereo points, which it does not keep), else computed
    /// and saved there, so that another model of the same capture, or a run whose model stage
    /// failed, does not run stereo again.
    func denseStages(scene: SparseScene, imagesDirectory: URL, options: DenseRun.Options, frameDepth: [String: DepthSidecar],
                     points: [SurfaceReconstruction.PointInput], progress: StageProgress) throws -> DenseRun {
        let reporter = progress.reporter
        // Keyframe depth and point clouds are not in the key: validation refuses --checkpoint with them.
        let checkpoint = frameDepth.isEmpty && points.isEmpty ? checkpoint : nil
        let store = try checkpoint.map { try StageCheckpointStore(directory: URL(fileURLWithPath: $0, isDirectory: true)) }
        let key = store.map { _ in DenseRun.checkpointKey(scene: scene, imagesDirectory: imagesDirectory, options: options) }
        if let store, let key {
            let (saved, setAside) = store.loadDense(fingerprint: key)
            if let saved, pointCloud == nil {
                progress.restored(.dense)
                progress.restored(.surface)
                reporter.note(String(format: "dense, surface: loaded from the checkpoint (saved about %.1f s)", saved.computeSeconds))
                for warning in saved.result.warnings { reporter.warning(warning) }
                return DenseRun(restoring: saved.result)
            }
            if saved != nil {
                reporter.note("dense: the checkpoint keeps no stereo point cloud, which --point-cloud asks for; computed again")
            } else if let setAside {
                // The stereo size follows the detail level unless given: the likeliest reason a level's
                // surface does not serve another.
                let size = stereoImageSize == nil
                    ? "; the stereo size follows --detail (768 px for preview and reduced, 1024 for medium, 1536 for full and raw), "
                        + "so levels of two sizes keep a surface each in turn: give --stereo-image-size to share one" : ""
                reporter.note("dense: checkpoint files not used, computed again (\(SavedDenseResult.entry): \(setAside)\(size))")
            }
        }
        let started = Date()
        let dense = try DenseRun.run(scene: scene, imagesDirectory: imagesDirectory, options: options, frameDepth: frameDepth, points: points,
                                     log: { [progress] in progress.note($0) }, progress: { [progress] in progress.update($0, $1) })
        if let store, let key {
            do {
                try store.saveDense(dense.saved, fingerprint: key, computeSeconds: Date().timeIntervalSince(started))
            } catch {
                reporter.warning("the dense result could not be kept in the checkpoint: \(error)")
            }
        }
        return dense
    }
}
