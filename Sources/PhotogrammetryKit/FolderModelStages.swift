import CaptureIO
import Foundation
import Meshing
import ModelExport
import Reconstruction
import ReconstructionCore

/// The session's dense, surface, model and export stages for photos in one folder (with their
/// depth, mask and gravity sidecars): what `PhotogrammetrySession(input: folder)` installs.
public struct FolderModelStages: ModelStages {
    /// Dense options; their `stereo.maxImageDimension` gives way to `stereoImageDimension` (or,
    /// when that is nil, to the requested levels' size) whenever there is a model request.
    public var dense: DenseRun.Options
    public var builder: TexturedModelBuilder.Options
    /// Longest side of the photos for dense stereo, pixels. Nil (the default): the largest size
    /// the run's requested detail levels ask for (`DetailBudget.stereoImageDimension`: 768 px for
    /// preview and reduced, 1024 for medium, 1536 for full and raw), replacing
    /// `dense.stereo.maxImageDimension`. The session runs dense stereo once for all requests.
    public var stereoImageDimension: Int?

    public init(dense: DenseRun.Options = .init(), builder: TexturedModelBuilder.Options = .init(),
                stereoImageDimension: Int? = nil) {
        self.dense = dense
        self.builder = builder
        self.stereoImageDimension = stereoImageDimension
    }

    public func stereoImageDimension(for details: [DetailLevel], samples: [PhotogrammetrySample],
                                     custom: CustomDetailSpecification) -> Int {
        denseOptions(for: details, custom: custom, largestPhotoSide: Self.largestPhotoSide(of: samples)).stereo.maxImageDimension
    }

    /// The dense options a run with models at `details` uses: `dense` with the stereo size
    /// resolved (see `stereoImageDimension`), and no larger than `largestPhotoSide` when that is
    /// known (photos are never scaled up, so the work is the same, and the checkpoint of a
    /// preview and of a full model of small photos is shared).
    public func denseOptions(for details: [DetailLevel], custom: CustomDetailSpecification,
                             largestPhotoSide: Int? = nil) -> DenseRun.Options {
        var options = dense
        if let size = stereoImageDimension ?? DetailBudget.stereoImageDimension(serving: details.map { $0.budget(custom: custom) }) {
            options.stereo.maxImageDimension = size
        }
        if let largestPhotoSide, largestPhotoSide > 0 {
            options.stereo.maxImageDimension = min(options.stereo.maxImageDimension, largestPhotoSide)
        }
        return options
    }

    /// The longer side of the largest photo among `samples`, from the files' headers; nil when a
    /// sample is not a file or its header cannot be read (HEIC, a corrupt file).
    static func largestPhotoSide(of samples: [PhotogrammetrySample]) -> Int? {
        var largest = 0
        for sample in samples {
            guard let url = sample.url, let size = ImageDimensions.read(contentsOf: url) else { return nil }
            largest = max(largest, size.width, size.height)
        }
        return largest > 0 ? largest : nil
    }

    public func validate(url: URL, detail: DetailLevel, custom: CustomDetailSpecification, samples: [PhotogrammetrySample]) throws {
        let format = try ModelExporter.validateOutputPath(url)
        if detail == .custom, let problem = format.problem(carrying: custom.outputTextureMaps) { throw ModelRunError(problem) }
        _ = try Self.imagesDirectory(of: samples)
    }

    public func run(scene: SparseScene, samples: [PhotogrammetrySample], requests: [ModelRequest],
                    custom: CustomDetailSpecification, context: ModelStageContext) throws -> [Result<URL, any Error>] {
        let folder = try Self.imagesDirectory(of: samples)
        // Dense stereo, depth fusion and meshing; checkpointed with everything they read.
        var denseOptions = denseOptions(for: requests.map(\.detail), custom: custom, largestPhotoSide: Self.largestPhotoSide(of: samples))
        if !context.isObjectMaskingEnabled {
            denseOptions.useMasks = false
            denseOptions.isolatesObject = false
        }
        let dense = try context.checkpointedSurface(.dense, inputs: ["\(denseOptions)"] + Self.sidecarFingerprints(in: folder)) { progress in
            // The checkpointed dense stage also fuses and meshes: one fraction over both.
            let run = try DenseRun.run(scene: scene, imagesDirectory: folder, options: denseOptions,
                                       isCancelled: { context.isCancelled }, progress: { stage, fraction in
                progress(DenseRun.stereoAndFusionShares.fraction(stage, fraction))
            })
            for warning in run.warnings { context.inputWarning(warning) }
            return SurfaceStageOutput(mesh: run.surface.mesh, metresPerUnit: run.metresPerUnit)
        }
        let surface = try context.stage(.surface) { _ -> TriangleMesh in
            guard dense.mesh.triangleCount > 0 else { throw ModelRunError("the dense stage found no surface to build a model from") }
            return dense.mesh
        }
        if dense.metresPerUnit == nil {
            for request in requests { context.inputWarning(ModelRun.unknownScaleWarning(request.url.lastPathComponent)) }
        }
        // The model's up, for requests that do not place the model themselves: from what the
        // samples carry (a resumed run has no dense run to ask).
        let up = requests.contains { $0.geometry == nil } ? scene.up(samples: samples) : nil
        var results: [Result<URL, any Error>] = []
        for request in requests {
            if context.isCancelled { throw CancellationError() }
            let budget = ModelRun.budget(request.detail.budget(custom: custom), writing: request.url)
            // A request's geometry (in the session's world: the poses' frame and units) crops the
            // surface (that world, in metres when the scale is known) and places the model.
            let geometry = request.geometry?.inMetres(metresPerUnit: dense.metresPerUnit)
            let cropped = geometry.map { surface.cropped(to: $0.bounds) } ?? surface
            do {
                let built = try context.stage(.model) { progress in
                    try ModelRun.build(scene: scene, surface: cropped, metresPerUnit: dense.metresPerUnit, imagesDirectory: folder,
                                       budget: budget, up: up, modelFromWorld: geometry?.modelFromWorld, options: builder, fraction: progress)
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

    /// Name, size and modification time of every file in `folder`: the photos and the depth, mask
    /// and gravity sidecars the dense stages read.
    static func sidecarFingerprints(in folder: URL, including include: (String) -> Bool = { _ in true }) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(include).sorted()
        return names.map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name) \(size) \(modified)"
        }
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
