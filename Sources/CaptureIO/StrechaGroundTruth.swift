import Foundation
import ReconstructionCore

/// Ground-truth camera poses of a Strecha multi-view benchmark scene (e.g. fountain-P11).
///
/// Each `gt_dense_cameras/NNNN.jpg.camera` file holds 26 whitespace-separated numbers:
/// K (9, row-major, pixels), 3 zeros (radial distortion, unused), R (9, row-major, rotation
/// camera-to-world), C (3, camera centre in world coordinates, metres), image width and height
/// (pixels). A world point X projects as x ~ K · Rᵀ · (X − C), so the camera-to-world transform
/// is (R, C).
public enum StrechaGroundTruth {
    /// Name of the folder of camera files inside a scene directory.
    public static let camerasFolderName = "gt_dense_cameras"

    /// The ground-truth poses of a scene, sorted by image name (`0000.jpg.camera` → `0000.jpg`).
    ///
    /// - Parameter sceneDirectory: the scene folder containing `gt_dense_cameras`, or that folder itself.
    /// - Throws: `CaptureIOError` naming the folder or file when it is missing or malformed.
    public static func load(sceneDirectory: URL) throws -> [NamedPose] {
        let folder = try camerasFolder(in: sceneDirectory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw CaptureIOError(file: folder, "cannot list the ground-truth cameras: \(error.localizedDescription)")
        }
        let cameraFiles = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".camera") && $0 != ".camera" }.sorted()
        guard !cameraFiles.isEmpty else {
            throw CaptureIOError(file: folder,
                                 "contains no .camera files (expected Strecha ground truth such as 0000.jpg.camera)")
        }
        return try cameraFiles.map { fileName in
            let url = folder.appendingPathComponent(fileName, isDirectory: false)
            let imageName = String(fileName.dropLast(".camera".count))
            return NamedPose(name: imageName, worldFromCamera: try loadCamera(url))
        }
    }

    /// The camera-to-world transform stored in one `.camera` file.
    /// - Throws: `CaptureIOError` naming the file for a wrong number count, non-numbers, a bad
    ///   rotation or a non-positive image size.
    public static func loadCamera(_ url: URL) throws -> RigidTransform {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CaptureIOError(file: url, "cannot read camera file: \(FileReadFailure.reason(url, error))")
        }
        let tokens = text.components(separatedBy: .whitespacesAndNewlines).filter { !$0.isEmpty }
        guard tokens.count == 26 else {
            throw CaptureIOError(file: url,
                                 "a Strecha .camera file holds 26 numbers (K, 3 zeros, R, C, width, height), found \(tokens.count)")
        }
        var values: [Double] = []
        values.reserveCapacity(26)
        for (index, token) in tokens.enumerated() {
            guard let value = Double(token), value.isFinite else {
                throw CaptureIOError(file: url, "value \(index + 1) of 26, \"\(token)\", is not a finite number")
            }
            values.append(value)
        }
        let rotation = Matrix3(rowMajor: Array(values[12..<21]))
        let centre = Vector3(values[21], values[22], values[23])
        let (width, height) = (values[24], values[25])
        guard width > 0, height > 0 else {
            throw CaptureIOError(file: url, "image size \(width) × \(height) is not positive")
        }
        // The file stores R to about 6 digits: accept small deviations from orthonormality.
        let product = rotation.transposed * rotation
        let deviation = zip(product.m, Matrix3.identity.m).map { abs($0 - $1) }.max() ?? 0
        guard deviation < 1e-3, rotation.determinant > 0 else {
            throw CaptureIOError(file: url, "R (values 13–21) is not a rotation matrix "
                                     + "(|RᵀR − I| = \(deviation), det = \(rotation.determinant))")
        }
        return RigidTransform(rotation: rotation, translation: centre)
    }

    /// `directory/gt_dense_cameras` when it exists, else `directory` itself.
    private static func camerasFolder(in directory: URL) throws -> URL {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw CaptureIOError(file: directory, "ground-truth directory does not exist")
        }
        guard isDirectory.boolValue else {
            throw CaptureIOError(file: directory, "is not a directory (expected a Strecha scene or its \(camerasFolderName) folder)")
        }
        let nested = directory.appendingPathComponent(camerasFolderName, isDirectory: true)
        if fileManager.fileExists(atPath: nested.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return nested
        }
        return directory
    }
}
