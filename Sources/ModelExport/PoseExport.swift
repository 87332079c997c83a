import Foundation
import ReconstructionCore

/// Writes every pose and model export of a reconstruction into one output directory.
public enum PoseExport {
    /// Name of the sub-folder holding the COLMAP text model.
    public static let colmapFolderName = "colmap"

    /// Writes `poses.json`, `colmap/{cameras,images,points3D}.txt`, `sparse_pc.ply` and `transforms.json` into
    /// `outputDirectory` (created if needed; each file written atomically).
    /// - Parameters:
    ///   - imagesDirectory: the folder holding the input images (for transforms.json's relative paths).
    ///   - world: the world frame, described in poses.json.
    ///   - warnings: the run's warnings, kept in poses.json.
    /// - Returns: the files written.
    /// - Throws: `ModelExportError` naming the file that could not be written.
    @discardableResult
    public static func writeAll(scene: SparseScene, imagesDirectory: URL, to outputDirectory: URL,
                                world: PosesWorld = .reconstruction, warnings: [String] = []) throws -> [URL] {
        let posesURL = outputDirectory.appendingPathComponent("poses.json", isDirectory: false)
        try PosesJSONWriter.write(scene: scene, to: posesURL, world: world, warnings: warnings)
        let colmapDirectory = outputDirectory.appendingPathComponent(colmapFolderName, isDirectory: true)
        try COLMAPTextWriter.write(scene: scene, to: colmapDirectory)
        // The sparse points beside transforms.json, which names them (nerfstudio seeds splats with them).
        let pointsURL = outputDirectory.appendingPathComponent(sparsePointsFileName, isDirectory: false)
        try PLYWriter.write(sparsePoints(scene), to: pointsURL, comment: "sparse points of the structure from motion, in transforms.json's world frame")
        let transformsURL = outputDirectory.appendingPathComponent(TransformsJSONWriter.fileName, isDirectory: false)
        try TransformsJSONWriter.write(scene: scene, imagesDirectory: imagesDirectory, to: transformsURL, plyFilePath: sparsePointsFileName)
        return [posesURL]
            + [COLMAPTextWriter.camerasFileName, COLMAPTextWriter.imagesFileName, COLMAPTextWriter.pointsFileName]
                .map { colmapDirectory.appendingPathComponent($0, isDirectory: false) }
            + [pointsURL, transformsURL]
    }

    /// The sparse point cloud's file, named by transforms.json's `ply_file_path` (nerfstudio's name).
    public static let sparsePointsFileName = "sparse_pc.ply"

    /// The scene's points with their colours.
    static func sparsePoints(_ scene: SparseScene) -> PointCloud {
        PointCloud(positions: scene.points.map { SIMD3(Float($0.position.x), Float($0.position.y), Float($0.position.z)) },
                   colors: scene.points.map { SIMD3(Float($0.rgb.0), Float($0.rgb.1), Float($0.rgb.2)) / 255 })
    }

    /// What the exports cannot say as the scene has it: COLMAP's text reader ends an image's name
    /// at its first space, so names with spaces (or other white space) do not load by name there.
    public static func warnings(scene: SparseScene) -> [String] {
        let registered = scene.images.filter(\.isRegistered).map(\.name)
        let spaced = registered.filter { $0.contains(where: \.isWhitespace) }
        guard let first = spaced.first else { return [] }
        // What COLMAP reads: "Photo 1.jpg" and "Photo 2.jpg" both become "Photo".
        let read = Dictionary(grouping: registered) { String($0.prefix { !$0.isWhitespace }) }.filter { $0.value.count > 1 }
        let clash = read.keys.sorted().first.map { name in
            " Here \(read.values.reduce(0) { $0 + $1.count }) photos share what COLMAP reads (\(read[name]!.count) read as \"\(name)\""
                + (read.count > 1 ? ", …" : "") + "), so COLMAP cannot tell them apart."
        } ?? ""
        return ["\(spaced.count) photo name(s) contain spaces (\"\(first)\"" + (spaced.count > 1 ? ", …" : "")
                + "), which COLMAP's images.txt cannot hold: COLMAP reads such a name only up to its first space." + clash
                + " poses.json and transforms.json keep the names whole; rename the photos for COLMAP"]
    }

    /// Folder, inside an output directory, that holds the separate models: `models/1`, `models/2`, …
    public static let separateModelsFolderName = "models"

    /// Writes each separate model, as `writeAll` does, into `models/<n>/` (n from 1) of
    /// `outputDirectory`. A `models/` folder from an earlier run is removed first when it holds
    /// nothing but numbered model folders, so no stale model outlives the run. One holding
    /// anything else is left as it is, and is an error only when there are models to write.
    /// - Returns: the files written.
    /// - Throws: `ModelExportError` naming the folder or file.
    @discardableResult
    public static func writeSeparateModels(_ models: [SparseScene], imagesDirectory: URL, to outputDirectory: URL,
                                           world: PosesWorld = .reconstruction) throws -> [URL] {
        let folder = outputDirectory.appendingPathComponent(separateModelsFolderName, isDirectory: true)
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.path) {
            let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            if entries.allSatisfy({ Int($0) != nil }) {
                do { try manager.removeItem(at: folder) } catch {
                    throw ModelExportError(file: folder, "cannot remove the separate models of an earlier run: \(error.localizedDescription)")
                }
            } else if !models.isEmpty {
                throw ModelExportError(file: folder, "holds files that are not separate models from an earlier run; "
                                       + "move them away or choose another output folder")
            }
        }
        var written: [URL] = []
        for (k, model) in models.enumerated() {
            let directory = folder.appendingPathComponent("\(k + 1)", isDirectory: true)
            written += try writeAll(scene: model, imagesDirectory: imagesDirectory, to: directory, world: world)
        }
        return written
    }
}
