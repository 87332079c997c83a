import Foundation
import Meshing
import ModelExport
import Reconstruction
import ReconstructionCore

/// The session's dense, surface, model and export stages for photos in one folder (with their
/// depth, mask and gravity sidecars): what `PhotogrammetrySession(input: folder)` installs.
public struct FolderModelStages: ModelStages {
    public var dense: DenseRun.Options
    public var builder: TexturedModelBuilder.Options

    public init(dense: DenseRun.Options = .init(), builder: TexturedModelBuilder.Options = .init()) {
        self.dense = dense
        self.builder = builder
    }

    public func validate(url: URL, detail: DetailLevel, custom: CustomDetailSpecification) throws {
        _ = try ModelExporter.validateOutputPath(url)
    }

    public func run(scene: SparseScene, samples: [PhotogrammetrySample], requests: [ModelRequest],
                    custom: CustomDetailSpecification, context: ModelStageContext) throws -> [Result<URL, any Error>] {
        let folder = try Self.imagesDirectory(of: samples)
        let dense = try context.stage(.dense) { _ in try DenseRun.run(scene: scene, imagesDirectory: folder, options: self.dense) }
        let surface = try context.stage(.surface) { _ -> TriangleMesh in
            guard dense.surface.mesh.triangleCount > 0 else { throw ModelRunError("the dense stage found no surface to build a model from") }
            return dense.surface.mesh
        }
        var results: [Result<URL, any Error>] = []
        for request in requests {
            if context.isCancelled { throw CancellationError() }
            let budget = request.detail.budget(custom: custom)
            // A request's geometry crops the surface (world frame, metres when metric) and places the model.
            let cropped = request.geometry.map { surface.cropped(to: $0.bounds) } ?? surface
            do {
                let built = try context.stage(.model) { _ in
                    try ModelRun.build(scene: scene, surface: cropped, metresPerUnit: dense.metresPerUnit, imagesDirectory: folder,
                                       budget: budget, modelFromWorld: request.geometry?.modelFromWorld, options: builder)
                }
                let format = request.detail == .custom ? custom.textureFormat : .png
                _ = try context.stage(.export) { _ in try ModelRun.write(built.model, textureFormat: format, to: request.url) }
                results.append(.success(request.url))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// The one folder every sample's photo lives in.
    static func imagesDirectory(of samples: [PhotogrammetrySample]) throws -> URL {
        let folders = Set(samples.compactMap { $0.url?.deletingLastPathComponent().standardizedFileURL.path })
        guard samples.allSatisfy({ $0.url != nil }), folders.count == 1, let folder = folders.first else {
            throw ModelRunError("model requests need every sample to be a photo file in one folder "
                                + "(samples given as pixels, or from several folders, cannot be densified yet)")
        }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }
}
