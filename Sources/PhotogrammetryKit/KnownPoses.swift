import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore

/// A scene from known camera poses (e.g. a device's tracking) instead of structure from motion.
public enum KnownPoses {
    /// Every photo in `imagesDirectory` with a pose in `posesFile` (matched by file name), all with
    /// `intrinsics` at the size of the first photo. No sparse points. Photos without a pose are
    /// unregistered, saying so; a file that names none of the photos is an error.
    public static func scene(posesFile: URL, imagesDirectory: URL, intrinsics: PinholeIntrinsics) throws -> SparseScene {
        let poses = Dictionary(try PosesJSONReader.load(posesFile).map { ($0.name, $0.worldFromCamera) }, uniquingKeysWith: { a, _ in a })
        let photos = try ImageFolder.listImages(in: imagesDirectory)
        guard let first = photos.first else { throw CaptureIOError(path: imagesDirectory.path, problem: "has no photos") }
        let named = photos.filter { poses[$0.lastPathComponent] != nil }.count
        guard named > 0 else {
            let examples = poses.keys.sorted().prefix(3).joined(separator: ", ")
            throw CaptureIOError(path: posesFile.path, problem: "names none of the \(photos.count) photos in \(imagesDirectory.path) "
                                          + "(poses are matched to photos by file name; it has \(poses.count): \(examples)\(poses.count > 3 ? ", …" : ""))")
        }
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
