import CaptureIO
import Foundation
import ReconstructionCore

/// A capture ready to run: its photos, the intrinsics to give (if any), and its ground truth.
public struct PreparedCapture: Sendable {
    /// Folder of photos (sidecars beside them are skipped by the pose stage).
    public var imagesDirectory: URL
    /// True pinhole intrinsics, given to the pose stage when the dataset asks for it.
    public var intrinsics: PinholeIntrinsics?
    /// True camera-to-world poses, by image file name.
    public var groundTruthPoses: [NamedPose]
    /// True surface, when the dataset has one (synthetic captures).
    public var groundTruthMesh: URL?

    public init(imagesDirectory: URL, intrinsics: PinholeIntrinsics?, groundTruthPoses: [NamedPose], groundTruthMesh: URL? = nil) {
        self.imagesDirectory = imagesDirectory
        self.intrinsics = intrinsics
        self.groundTruthPoses = groundTruthPoses
        self.groundTruthMesh = groundTruthMesh
    }

    /// A real scene in the Strecha layout: `images/` with `images/K.txt`, and `gt_dense_cameras/`.
    public static func strecha(sceneDirectory: URL) throws -> PreparedCapture {
        let images = sceneDirectory.appendingPathComponent("images", isDirectory: true)
        return PreparedCapture(
            imagesDirectory: images,
            intrinsics: try PinholeIntrinsics.load(kFile: images.appendingPathComponent(CaptureFolderFiles.intrinsics)),
            groundTruthPoses: try StrechaGroundTruth.load(sceneDirectory: sceneDirectory))
    }
}
