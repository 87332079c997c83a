import Foundation
import Reconstruction
import ReconstructionCore

extension DenseRun {
    /// What a checkpoint keeps of this run (`SavedDenseResult`: all but the stereo point cloud).
    public var saved: SavedDenseResult {
        SavedDenseResult(mesh: surface.mesh, bounds: surface.bounds, voxelSize: surface.voxelSize, metresPerUnit: metresPerUnit, up: up,
                         lidarViews: lidarViews, trackedScaleCameras: trackedScaleCameras, fusedPoints: fusedPoints,
                         stereoSeconds: stereoSeconds, fusionSeconds: surface.seconds, warnings: warnings)
    }

    /// A run restored from a checkpoint: its surface and what was measured, without a stereo point cloud.
    public init(restoring saved: SavedDenseResult) {
        self.init(stereo: nil,
                  surface: SurfaceReconstruction.Result(mesh: saved.mesh, bounds: saved.bounds, voxelSize: saved.voxelSize, seconds: saved.fusionSeconds),
                  metresPerUnit: saved.metresPerUnit, up: saved.up, warnings: saved.warnings, stereoSeconds: saved.stereoSeconds,
                  lidarViews: saved.lidarViews, trackedScaleCameras: saved.trackedScaleCameras, fusedPoints: saved.fusedPoints)
    }

    /// The fingerprint of everything a run on photos in `imagesDirectory` reads: every photo's
    /// name, pose and intrinsics, the sparse points, `options`, and every file of the folder with its
    /// size and modification time (the photos and their depth, mask and gravity sidecars).
    public static func checkpointKey(scene: SparseScene, imagesDirectory: URL, options: Options) -> Fingerprint {
        var key = Fingerprint("dense run", "1", "\(options)")
        for image in scene.images {
            key.combine(image.name)
            let k = image.intrinsics
            key.combine(array: [Double(k.width), Double(k.height), k.fx, k.fy, k.cx, k.cy, k.k1, k.k2])
            if let pose = image.cameraFromWorld {
                key.combine(array: pose.rotation.m + [pose.translation.x, pose.translation.y, pose.translation.z])
            } else {
                key.combine("unregistered")
            }
        }
        key.combine(array: scene.points.flatMap { [$0.position.x, $0.position.y, $0.position.z] })
        for file in FolderModelStages.sidecarFingerprints(in: imagesDirectory) { key.combine(file) }
        return key
    }
}
