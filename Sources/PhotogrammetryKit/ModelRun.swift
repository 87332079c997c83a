import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import Texturing

/// The model stages after the dense ones: the cleaned surface and the posed photos in, a textured
/// model at a detail level out, written as USDZ, GLB or an OBJ folder.
public enum ModelRun {
    public struct Output: Sendable {
        public var model: TexturedModel
        public var report: TexturedModelBuilder.Report
        /// Files written (the model file, or the OBJ folder's files).
        public var files: [URL]
        public var seconds: Double
        public var warnings: [String]
        /// Where the model sits relative to the reconstruction's (metric when known) world frame.
        public var modelFromWorld: SimilarityTransform
        /// Texture fidelity on the held-out photos, when some were held out.
        public var fidelity: TextureFidelity.Result?
    }

    /// A built model, not yet written.
    public struct Built: Sendable {
        public var model: TexturedModel
        public var report: TexturedModelBuilder.Report
        public var modelFromWorld: SimilarityTransform
        public var fidelity: TextureFidelity.Result?
        /// The photos kept out of texturing (what `fidelity` scored), in the surface's frame.
        public var heldOutViews: [BakingView]
        public var warnings: [String]
    }

    /// The model of `surface` (in metres when `metresPerUnit` is set, else in the scene's units).
    /// `modelFromWorld`: where the model goes; nil chooses it with `up` (see `modelFrame`), the
    /// dense stage's `DenseRun.up`. `log` says what it is doing, `fraction` how far it is (0…1).
    public static func build(scene: SparseScene, surface: TriangleMesh, metresPerUnit: Double?, imagesDirectory: URL,
                             budget: DetailBudget, posesAreMetric: Bool = false, up: Vector3?, modelFromWorld given: SimilarityTransform? = nil,
                             holdOutEvery: Int = 0, options: TexturedModelBuilder.Options = .init(),
                             log: @Sendable (String) -> Void = { _ in },
                             fraction: @Sendable (Double) -> Void = { _ in }) throws -> Built {
        // The surface is in metres when depth fixed the scale; put the cameras in the same frame.
        let metric = metresPerUnit != nil || posesAreMetric
        let posed = scene.scaled(by: metresPerUnit ?? 1)
        // Shares of the time (a full level of 24 photos: 56 s reading photos and scoring, 115 s building).
        let shares = StepShares<String>([("photos", 0.25), ("build", 0.7), ("fidelity", holdOutEvery > 1 ? 0.05 : 0)])
        let (views, loadWarnings) = try loadViews(scene: posed, imagesDirectory: imagesDirectory,
                                                  longerSide: budget.textureDimension.rawValue, surface: surface, log: log,
                                                  fraction: { fraction(shares.fraction("photos", $0)) })
        var warnings = loadWarnings
        // Every n-th photo (from the middle of each run of n) can be kept out of texturing to score it.
        let heldOut = holdOutEvery > 1 ? Set(views.indices.filter { $0 % holdOutEvery == holdOutEvery / 2 }) : []
        if holdOutEvery > 1 && heldOut.isEmpty {
            warnings.append("holding out every \(holdOutEvery)th photo leaves none of the \(views.count) out (the first held out is "
                            + "number \(holdOutEvery / 2 + 1)); texture fidelity is not measured")
            log("warning: \(warnings.last!)")
        }
        let baking = views.indices.filter { !heldOut.contains($0) }.map { views[$0] }
        guard !baking.isEmpty else { throw ModelRunError("every photo was held out: nothing left to colour the model") }
        let modelFromWorld = given ?? modelFrame(scene: posed, surface: surface, up: up)
        let (model, report) = try TexturedModelBuilder(options: options).build(
            surface: surface, views: baking, budget: budget, modelFromWorld: modelFromWorld, isMetric: metric, progress: log,
            fraction: { fraction(shares.fraction("build", $0)) })
        var fidelity: TextureFidelity.Result?
        let heldOutViews = heldOut.sorted().map { views[$0] }
        if !heldOut.isEmpty {
            log("scoring the texture against \(heldOut.count) held-out photos")
            fidelity = TextureFidelity.evaluate(model: model, modelFromWorld: modelFromWorld, views: heldOutViews)
        }
        return Built(model: model, report: report, modelFromWorld: modelFromWorld, fidelity: fidelity,
                     heldOutViews: heldOutViews, warnings: warnings)
    }

    /// Encodes the maps and writes the model (USDZ, GLB, OBJ or an OBJ folder by `output`).
    public static func write(_ model: TexturedModel, textureFormat: CustomDetailSpecification.TextureFormat, to output: URL,
                             name: String? = nil, log: @Sendable (String) -> Void = { _ in }) throws -> [URL] {
        log("encoding the texture maps and writing \(output.path)")
        let textures = try encode(model.textures, diffuseFormat: textureFormat)
        let stem = output.deletingPathExtension().lastPathComponent
        let package = ModelPackage(name: name ?? (stem.isEmpty ? "Model" : stem), model: model, textures: textures)
        let format = try ModelExporter.format(for: output)
        if [.obj, .objFolder].contains(format), textures.contains(where: { $0.map == .ambientOcclusion }) {
            log("MTL has no ambient-occlusion statement: the occlusion map is written beside the model and named in a comment of its .mtl")
        }
        return try ModelExporter.write(package, to: output)
    }

    /// `budget` without the maps the format of `output` has no place for, saying so: a full
    /// level's displacement map is not baked for a GLB (it took 8K of baking, and memory, to be
    /// dropped). Maps asked for explicitly are checked before any work (`ModelExportFormat.problem`).
    public static func budget(_ budget: DetailBudget, writing output: URL, log: (String) -> Void = { _ in }) -> DetailBudget {
        guard let format = try? ModelExporter.format(for: output) else { return budget }
        var carried = budget
        carried.textureMaps.formIntersection(format.carriedMaps)
        if carried.textureMaps != budget.textureMaps {
            log("glTF has no displacement map, so none is baked for \(output.lastPathComponent) (USDZ and OBJ carry it)")
        }
        return carried
    }

    /// The warning for a model whose scale no input fixed.
    /// USDZ and glTF declare metres; OBJ and PLY carry no units at all.
    public static func unknownScaleWarning(_ output: String) -> String {
        let format = (output as NSString).pathExtension.lowercased()
        let viewers = ["usdz", "usda", "usdc", "usd"].contains(format) ? "viewers such as AR Quick Look"
            : ["glb", "gltf"].contains(format) ? "viewers such as three.js, <model-viewer> and Blender" : nil
        return "the scale is unknown (no depth sidecars, tracked_poses.json or metric known poses): \(output) is in the reconstruction's "
            + (viewers.map { "own units, which its format reads as metres, so \($0) show it at an arbitrary size" }
                ?? "own units (its format carries none), not metres")
    }

    /// The power-of-two reduction (1, 2, 4 or 8: what JPEG decodes directly) a photo is decoded at
    /// for baking a `textureSide` texture: the largest that keeps its longer side at least that.
    public static func bakingReduction(photoLongerSide: Int, textureSide: Int) -> Int {
        var reduction = 1
        while reduction < 8 && photoLongerSide / (reduction * 2) >= textureSide { reduction *= 2 }
        return reduction
    }

    /// The registered photos as baking views, decoded at the largest power-of-two reduction that
    /// keeps their longer side at least `longerSide` (the texture's size: finer photos add little),
    /// with their `_mask` sidecars. A photo that no longer decodes is reported and left out;
    /// greyscale photos among colour ones are marked (they colour only what no colour photo sees)
    /// and named in a warning. With
    /// `surface` (in `scene`'s frame), each view keeps only the part of its photo the surface
    /// covers (`BakingView.cropped(toProjectionsOf:)`): the same texels, a fraction of the memory.
    public static func loadViews(scene: SparseScene, imagesDirectory: URL, longerSide: Int, surface: TriangleMesh? = nil,
                                 log: @Sendable (String) -> Void = { _ in },
                                 fraction: @Sendable (Double) -> Void = { _ in }) throws -> ([BakingView], [String]) {
        let registered = scene.images.filter(\.isRegistered)
        let sidecars = MaskSidecars(directory: imagesDirectory)
        let started = AtomicCounter()
        let loaded = parallelMap(registered.count, workers: ProcessInfo.processInfo.activeProcessorCount) { i -> Result<BakingView, Error> in
            fraction(Double(started.next()) / Double(registered.count))
            let image = registered[i]
            let url = imagesDirectory.appendingPathComponent(image.name)
            return Result {
                let data = try Data(contentsOf: url)
                let reduction = bakingReduction(photoLongerSide: max(image.intrinsics.width, image.intrinsics.height),
                                                textureSide: longerSide)
                let photo: RGBImage
                do { photo = try ImageCodec.decodeRGB(data, reduction: reduction) } catch {
                    throw ModelRunError("\(url.path): \(error)")
                }
                let mask = try? sidecars.objectMask(of: image.name)  // the dense stage named one it could not use
                var view = BakingView(name: image.name, image: photo,
                                      intrinsics: image.intrinsics.scaled(toWidth: photo.width, height: photo.height),
                                      cameraFromWorld: image.cameraFromWorld!, mask: mask)
                view.isGreyscale = BakingView.looksGreyscale(photo)
                return surface.map { view.cropped(toProjectionsOf: $0.positions) } ?? view
            }
        }
        var views: [BakingView] = [], warnings: [String] = []
        for result in loaded {
            switch result {
            case .success(let view): views.append(view)
            case .failure(let error):
                warnings.append("\(error); the photo does not colour the model")
                log("warning: \(warnings.last!)")
            }
        }
        guard !views.isEmpty else { throw ModelRunError("no registered photo could be read to colour the model") }
        let grey = views.filter(\.isGreyscale).map(\.name)
        if !grey.isEmpty && grey.count < views.count {
            warnings.append("\(grey.count) of the \(views.count) photos colouring the model \(grey.count == 1 ? "is" : "are") greyscale "
                            + "(\(CaptureSamples.listed(grey))): \(grey.count == 1 ? "it colours" : "they colour") only the surface no colour photo sees")
            log("warning: \(warnings.last!)")
        }
        return (views, warnings)
    }

    /// The model frame: `up` (see `up(scene:imagesDirectory:)`; nil: +y), facing the first
    /// registered camera, resting on y = 0.
    public static func modelFrame(scene: SparseScene, surface: TriangleMesh, up: Vector3?) -> SimilarityTransform {
        ModelFrame.transform(points: surface.positions, up: up ?? Vector3(0, 1, 0),
                             metresPerUnit: 1, facing: scene.images.compactMap(\.cameraFromWorld).first?.cameraCentreInWorld)
    }

    /// The world's up direction: from the photos' gravity sidecars when they agree, else from how
    /// the cameras were held; nil without registered cameras. `warnings`: the gravity sidecars that
    /// could not be used, each naming its file, and sidecars holding "up" (`ModelFrame.checkedUp`).
    public static func up(scene: SparseScene, imagesDirectory: URL) -> (up: Vector3?, warnings: [String]) {
        let registered = scene.images.filter(\.isRegistered)
        let photos = registered.map { imagesDirectory.appendingPathComponent($0.name) }
        var warnings: [String] = []
        let gravity = photos.map { photo -> Vector3? in
            do { return try GravitySidecar.load(besides: photo) } catch {
                warnings.append("\(error); the photo's gravity is not used")
                return nil
            }
        }
        // As the photos are shown: a phone held upright stores portrait photos sideways, tagged to be turned.
        let checked = ModelFrame.checkedUp(cameraFromWorld: registered.compactMap(\.cameraFromWorld), gravityInCamera: gravity,
                                           exifOrientations: photos.map { ExifReader.read(contentsOf: $0)?.orientation })
        if checked.gravityTurnedRound {
            let named = gravity.indices.filter { gravity[$0] != nil }.map { GravitySidecar.url(besides: photos[$0]).lastPathComponent }
            warnings.append("the gravity sidecars (\(CaptureSamples.listed(named))) point up, not down: "
                + "taken as given, the photos would have been held upside down; they are used turned round "
                + "(write physical down in the camera frame, x right, y down, z forward, as CoreMotion's gravity)")
        }
        return (checked.up, warnings)
    }

    /// The maps as image files: the base colour in the requested format, the data maps as PNG
    /// (lossless: normals and heights must not pick up JPEG blocks).
    public static func encode(_ textures: ModelTextures, diffuseFormat: CustomDetailSpecification.TextureFormat) throws -> [EncodedTexture] {
        var out: [EncodedTexture] = []
        if let diffuse = textures.diffuseColor {
            switch diffuseFormat {
            case .png:
                out.append(EncodedTexture(map: .diffuseColor, data: [UInt8](try ImageCodec.encode(diffuse, as: .png)), format: .png,
                                          width: diffuse.width, height: diffuse.height))
            case .jpeg(let quality):
                let q = Int((quality * 100).rounded())
                out.append(EncodedTexture(map: .diffuseColor, data: [UInt8](try ImageCodec.encode(diffuse, as: .jpeg(quality: max(1, min(100, q))))),
                                          format: .jpeg, width: diffuse.width, height: diffuse.height))
            }
        }
        if let normal = textures.normal {
            out.append(EncodedTexture(map: .normal, data: [UInt8](try ImageCodec.encode(normal, as: .png)), format: .png,
                                      width: normal.width, height: normal.height))
        }
        let grey: [(TextureMapKind, GrayImage?)] = [(.ambientOcclusion, textures.ambientOcclusion), (.roughness, textures.roughness),
                                                     (.displacement, textures.displacement)]
        for case let (kind, image?) in grey {
            out.append(EncodedTexture(map: kind, data: [UInt8](try ImageCodec.encode(image, as: .png)), format: .png,
                                      width: image.width, height: image.height))
        }
        return out
    }
}

/// Why the model stages could not use an input; the message names the file.
public struct ModelRunError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension ModelRun.Output {
    /// The output of `built`, written as `files` in `seconds` (building and writing).
    public init(_ built: ModelRun.Built, files: [URL], seconds: Double) {
        self.init(model: built.model, report: built.report, files: files, seconds: seconds, warnings: built.warnings,
                  modelFromWorld: built.modelFromWorld, fidelity: built.fidelity)
    }
}
