import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore

/// Ground truth of a scene folder: a Strecha scene (`gt_dense_cameras/`) or a synthetic capture
/// written by `photogrammetry synth` (`ground_truth/poses.json`, `ground_truth/mesh.ply`).
public struct GroundTruth: Sendable {
    public static let syntheticFolderName = "ground_truth"

    public var poses: [NamedPose]
    /// The true surface, when the scene has one.
    public var meshURL: URL?

    public init(poses: [NamedPose], meshURL: URL?) {
        self.poses = poses
        self.meshURL = meshURL
    }

    /// Reads the ground truth of `directory` (a scene folder, or its `gt_dense_cameras/` or `ground_truth/`).
    public static func load(_ directory: URL) throws -> GroundTruth {
        let fm = FileManager.default
        let synthetic = directory.lastPathComponent == syntheticFolderName
            ? directory : directory.appendingPathComponent(syntheticFolderName, isDirectory: true)
        let posesFile = synthetic.appendingPathComponent("poses.json")
        if fm.fileExists(atPath: posesFile.path) {
            let mesh = synthetic.appendingPathComponent("mesh.ply")
            return GroundTruth(poses: try PosesJSONReader.load(posesFile),
                               meshURL: fm.fileExists(atPath: mesh.path) ? mesh : nil)
        }
        let strecha = directory.appendingPathComponent(StrechaGroundTruth.camerasFolderName, isDirectory: true)
        if fm.fileExists(atPath: strecha.path) || directory.lastPathComponent == StrechaGroundTruth.camerasFolderName {
            return GroundTruth(poses: try StrechaGroundTruth.load(sceneDirectory: directory), meshURL: nil)
        }
        throw RegressionError.dataset(directory.path, "no ground truth found: expected \(StrechaGroundTruth.camerasFolderName)/ (Strecha) or \(syntheticFolderName)/poses.json (synthetic capture)")
    }
}
