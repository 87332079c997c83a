import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore

/// A scene from known camera poses (e.g. a device's tracking) instead of structure from motion.
public enum KnownPoses {
    /// Every photo in `imagesDirectory` with a pose in `posesFile` (matched by file name), all with
    /// `intrinsics` at the size of the first photo. No sparse points.
    public static func scene(posesFile: URL, imagesDirectory: URL, intrinsics: PinholeIntrinsics) throws -> SparseScene {
        let poses = Dictionary(try PosesJSONReader.load(posesFile).map { ($0.name, $0.worldFromCamera) }, uniquingKeysWith: { a, _ in a })
        let photos = try ImageFolder.listImages(in: imagesDirectory)
        guard let first = photos.first else { throw RegressionError.dataset(imagesDirectory.path, "has no photos") }
        let size = try ImageCodec.decodeGray(try Data(contentsOf: first))
        let camera = intrinsics.cameraIntrinsics(width: size.width, height: size.height)
        return SparseScene(images: photos.map { url in
            let pose = poses[url.lastPathComponent] ?? nil
            return SparseScene.Image(name: url.lastPathComponent, intrinsics: camera, intrinsicsSource: .given,
                                     cameraFromWorld: pose?.inverse, unregisteredReason: pose == nil ? "no pose in \(posesFile.lastPathComponent)" : nil,
                                     keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
    }
}
