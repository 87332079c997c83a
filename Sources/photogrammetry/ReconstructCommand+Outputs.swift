import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

extension ReconstructCommand {
    /// Writes what the dense stage gives: the mesh (the `-o` of a `.ply` run, or `--mesh` of a model
    /// run, in the model's frame), and `--poses-output` (for a `.ply` run), `--preview`,
    /// `--point-cloud` and `--bounds`. Returns the side outputs written (not `-o`).
    func writeDenseOutputs(scene: SparseScene, dense: DenseRun, imagesDirectory: URL,
                           modelFromWorld: SimilarityTransform?) throws -> [String] {
        var written: [String] = []
        let posed = scene.scaled(by: dense.metresPerUnit ?? 1)
        if modelFromWorld == nil {
            try PLYWriter.write(dense.surface.mesh, to: URL(fileURLWithPath: output))
        } else if let mesh, let modelFromWorld {
            try PLYWriter.write(dense.surface.mesh.transformed(by: modelFromWorld), to: URL(fileURLWithPath: mesh))
            written.append(mesh)
        }
        if let posesOutput, modelFromWorld == nil {
            let units = dense.metresPerUnit == nil ? "the reconstruction's units (the scale is unknown)" : "metres"
            try PoseExport.writeAll(scene: posed, imagesDirectory: imagesDirectory, to: URL(fileURLWithPath: posesOutput, isDirectory: true),
                                    world: PosesWorld(description: "the dense mesh's frame (\(output)), in \(units)",
                                                      isMetric: dense.metresPerUnit != nil))
            written.append(posesOutput)
        }
        if let preview {
            let views = MeshPreview.render(dense.surface.mesh, scene: posed)
            for (i, view) in views.enumerated() {
                let file = "\(preview)-\(i + 1).png"
                try AtomicFileWriter.write(try ImageCodec.encode(view, as: .png), to: URL(fileURLWithPath: file))
                written.append(file)
            }
        }
        if let pointCloud, let cloud = dense.stereo?.pointCloud {
            // In the mesh's units (metres when depth fixed the scale), and for a model in its frame.
            let scaled = cloud.scaled(by: Float(dense.metresPerUnit ?? 1))
            try PLYWriter.write(modelFromWorld.map { scaled.transformed(by: $0) } ?? scaled, to: URL(fileURLWithPath: pointCloud))
            written.append(pointCloud)
        }
        if let bounds {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFileWriter.write(try encoder.encode(dense.surface.bounds), to: URL(fileURLWithPath: bounds))
            written.append(bounds)
        }
        return written
    }
}
