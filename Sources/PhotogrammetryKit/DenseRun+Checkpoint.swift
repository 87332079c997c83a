import CaptureIO
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

    /// A run restored from a checkpoint (`isRestored`): its surface and what was measured, without a stereo point cloud.
    public init(restoring saved: SavedDenseResult) {
        self.init(stereo: nil,
                  surface: SurfaceReconstruction.Result(mesh: saved.mesh, bounds: saved.bounds, voxelSize: saved.voxelSize, seconds: saved.fusionSeconds),
                  metresPerUnit: saved.metresPerUnit, up: saved.up, warnings: saved.warnings, stereoSeconds: saved.stereoSeconds,
                  lidarViews: saved.lidarViews, trackedScaleCameras: saved.trackedScaleCameras, fusedPoints: saved.fusedPoints)
        isRestored = true
    }

    /// The fingerprint of everything a run on photos in `imagesDirectory` reads: every photo's
    /// name, pose and intrinsics, the sparse points, `options` (the stereo size no larger than the
    /// largest photo, so the levels of small photos share one), and the capture's files with their
    /// size and modification time: the photos, their sidecars (depth, confidence, mask, matte,
    /// gravity: named after the photo) and `tracked_poses.json`. Other files of the folder (a
    /// model or checkpoint written there) do not change it.
    public static func checkpointKey(scene: SparseScene, imagesDirectory: URL, options: Options) -> Fingerprint {
        // Photos are never scaled up: a size above the largest registered photo's (from the files'
        // headers; not when one cannot be read) does the same work.
        var options = options
        let sides = scene.images.filter(\.isRegistered).map { image in
            ImageDimensions.read(contentsOf: imagesDirectory.appendingPathComponent(image.name)).map { max($0.width, $0.height) }
        }
        if !sides.isEmpty, !sides.contains(nil), let largest = sides.compactMap({ $0 }).max(), largest > 0 {
            options.stereo.maxImageDimension = min(options.stereo.maxImageDimension, largest)
        }
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
        let stems = Set(scene.images.map { ($0.name as NSString).deletingPathExtension })
        for file in FolderModelStages.sidecarFingerprints(in: imagesDirectory, including: { isCaptureFile($0, stems: stems) }) { key.combine(file) }
        return key
    }

    /// Whether the file `name` is a photo, a sidecar named after one (`0001_depth.png`,
    /// `IMG_7.jpg` → `IMG_7_mask.png`) or the tracked poses.
    static func isCaptureFile(_ name: String, stems: Set<String>) -> Bool {
        if name == CaptureFolderFiles.trackedPoses { return true }
        // Every prefix that ends before a "_" or "." could be the photo's name without its extension.
        var index = name.startIndex
        while index < name.endIndex {
            if name[index] == "_" || name[index] == ".", stems.contains(String(name[..<index])) { return true }
            index = name.index(after: index)
        }
        return false
    }
}
