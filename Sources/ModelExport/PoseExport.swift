import Foundation
import ReconstructionCore

/// Writes every pose and model export of a reconstruction into one output directory.
public enum PoseExport {
    /// Name of the sub-folder holding the COLMAP text model.
    public static let colmapFolderName = "colmap"

    /// Writes `poses.json`, `colmap/{cameras,images,points3D}.txt` and `transforms.json` into
    /// `outputDirectory` (created if needed; each file written atomically).
    /// - Parameters:
    ///   - imagesDirectory: the folder holding the input images (for transforms.json's relative paths).
    ///   - worldDescription: text describing the world frame, written into poses.json.
    /// - Returns: the files written.
    /// - Throws: `ModelExportError` naming the file that could not be written.
    @discardableResult
    public static func writeAll(scene: SparseScene, imagesDirectory: URL, to outputDirectory: URL,
                                worldDescription: String = PosesJSONWriter.defaultWorldDescription) throws -> [URL] {
        let posesURL = outputDirectory.appendingPathComponent("poses.json", isDirectory: false)
        try PosesJSONWriter.write(scene: scene, to: posesURL, worldDescription: worldDescription)
        let colmapDirectory = outputDirectory.appendingPathComponent(colmapFolderName, isDirectory: true)
        try COLMAPTextWriter.write(scene: scene, to: colmapDirectory)
        let transformsURL = outputDirectory.appendingPathComponent(TransformsJSONWriter.fileName, isDirectory: false)
        try TransformsJSONWriter.write(scene: scene, imagesDirectory: imagesDirectory, to: transformsURL)
        return [posesURL]
            + [COLMAPTextWriter.camerasFileName, COLMAPTextWriter.imagesFileName, COLMAPTextWriter.pointsFileName]
                .map { colmapDirectory.appendingPathComponent($0, isDirectory: false) }
            + [transformsURL]
    }
}
