import ArgumentParser
import CaptureIO
import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

struct ReconstructCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconstruct",
        abstract: "Photos (and depth) to a textured model or a dense mesh: poses, multi-view stereo, LiDAR fusion, meshing, texturing.",
        discussion: """
            INPUT is a folder of photos, or a capture folder holding images/. Runs structure from \
            motion (or takes --poses), PatchMatch multi-view stereo on the CPU, registers per-photo \
            depth sidecars (NNNN_depth.png in millimetres or NNNN_depth.tif in metres, with \
            NNNN_depthConfidence.png) to the poses — which also sets the metric scale — fuses all \
            depth weighted by confidence into a signed distance volume, extracts the surface, crops \
            it to the object's bounding box (estimated from the stereo points) and removes floating \
            fragments. Object masks (NNNN_mask.png, or NNNN_matte.png as `poses` reads them) restrict \
            the features, and so the poses, to the object (a turntable, or an object turned over \
            between passes, moves against its background), and stereo too. Writes the mesh \
            as binary PLY with vertex colours (metres when depth fixed the scale, else the pose \
            units). Bad depth sidecars are reported by name and the photo is used without depth. \
            Without depth, tracked_poses.json beside the photos (the poses a capture device \
            tracked, poses.json's format, metres; capture replay writes it) sets the metric scale \
            when the estimated camera centres fit the tracked ones.

            For an object capture (photos with NNNN_mask.png), parts no depth reached (grazing \
            surfaces, few photos) are completed from the masks' visual hull, and the surface is \
            made watertight where no camera could see it: the support plane the object rests on is \
            found in the depth around it (else where the photos' lowest object pixels meet the \
            hull, across the up direction of the gravity sidecars or of the cameras), the hull is \
            cut there, and what is still open is continued down to it and capped \
            (--close-openings; never also turns the hull off).

            Photos without masks whose cameras look at one place from around it (an object \
            photographed all round, at least half-way) are treated as an object capture too, as \
            Object Capture's object masking does: when poses are estimated, stereo matches only \
            around the object's sparse points; the plane it stands on is found in the depth, and \
            only the depth on the object above that plane is fused (then closed on the plane, \
            without a hull). An object that reaches beyond what every photo frames is kept with \
            its surroundings. \
            --no-object-masking ignores masks and keeps everything the photos show. An open \
            scene (a facade, a room seen from inside) is left as seen.

            INPUT may also be an RGB-D keyframe folder: color_N.jpg|png, depth_N.png (16-bit mm) \
            or depth_N.tif (float metres), metadata_N.json with "intrinsics" (3×3, pixels, colour \
            resolution) and "cameraToWorld" (4×4, metres; ARKit camera axes x right, y up, z back \
            unless "axes": "opencv"), optionally confidence_N.png (0 low, 1 medium, 2 high, at the \
            depth's size). Its poses are used as known metric poses and its depth is \
            fused, weighted by confidence; bad frames are reported by file name and skipped. --lidar-points adds point \
            clouds (PLY, metres, in the poses' world frame; normals estimated when missing); they \
            need known metric poses (--poses or an RGB-D folder) and are not registered to \
            estimated poses.

            With -o MODEL.usdz, MODEL.glb, MODEL.obj or a folder, the mesh goes on to a textured \
            model at --detail LEVEL (Object Capture's budgets: preview 25k triangles and 1K maps, \
            reduced 50k / 2K, medium 100k / 4K, full 250k / 8K with roughness and displacement, raw \
            = undecimated with an 8K base colour, or custom with --max-polygons, --texture-size, \
            --texture-format, --jpeg-quality, --maps): decimation, UV atlas, base colour baked from \
            the photos, normal, ambient-occlusion (and at full, roughness and displacement) maps; \
            Y up (gravity sidecars NNNN_gravity.txt when present, else the cameras' up, as the \
            photos are shown by their EXIF orientation), resting on \
            y = 0, in metres when depth or tracked poses fixed the scale. A folder gets OBJ + MTL + textures. The \
            request is checked before any work starts.

            Progress (stage, percentage and the time left for the whole run) and messages go to \
            standard error, the result to standard output. With --json, standard output carries \
            JSON lines instead: {"event":"progress","stage":…,"fraction":…,"eta_seconds":…} \
            through features, matching, mapping (when poses are estimated), dense, surface, and \
            model and export (for a model); "note" and "warning" events; then one "complete" event \
            (output, registered and images, dense_mesh, metric and metres_per_pose_unit, \
            depth_sidecars, tracked_poses, dense_from_checkpoint, also_written, seconds, and for a model: \
            detail, files, triangles, charts, atlas_utilisation, photo_coverage, held_out PSNRs), \
            an "error" event, or after Ctrl-C or SIGTERM a "cancelled" event (exit 130). With \
            --checkpoint DIR the pose stages are saved in DIR (as `poses --checkpoint` saves them), \
            and the dense surface in DIR/dense.ckpt: a later run on the same photos and options \
            loads them, so another model of the same capture starts at the model stage.
            """
    )

    @Argument(help: "Folder of photos, a capture folder with images/, or an RGB-D keyframe folder.", completion: .directory)
    var input: String

    @Option(name: .shortAndLong, help: "Output: a model (.usdz, .glb, .obj, or a folder for OBJ + MTL + textures) or the dense mesh (.ply).")
    var output: String

    @OptionGroup var detailOptions: DetailOptions

    @Option(help: "Also write the full-resolution mesh (.ply) when the output is a model, in the model's frame (Y up, resting on y = 0, metres when known), like --poses-output and --point-cloud.")
    var mesh: String?

    @Option(help: "Texture fidelity: keep every N-th photo out of texturing and report the PSNR of the model rendered from its camera (0 = off).")
    var holdOutEvery = 0

    @Option(help: "Also write the model stage's report (triangles, atlas, timings, texture fidelity) as JSON.")
    var modelReport: String?

    @OptionGroup var known: IntrinsicsOptions

    @OptionGroup(title: "Pose estimation (structure from motion, unless the poses are known)") var estimation: PoseOptions

    @Option(help: "Checkpoint folder: the pose stages (features, matching, mapping) and the dense surface are saved there and reused by a later run on the same photos and options (the pose stages by `poses --checkpoint` runs too; the surface by another model of the same capture, unless --point-cloud asks for stereo's points, which it does not keep). With --poses, the surface alone.", completion: .directory)
    var checkpoint: String?

    @Option(help: "Known camera poses (a poses.json, camera-to-world, metres unless the file says \"metric\": false, as `poses` writes when no tracked poses give the scale): skips structure from motion; each photo's intrinsics come from the file (as `poses` records them) unless --intrinsics or --intrinsics-file is given.")
    var poses: String?

    @Option(help: "Also write the fused stereo point cloud (.ply), in the output's frame and units: the dense mesh's for a .ply, the model's for a model.")
    var pointCloud: String?

    @Option(help: "Also write the bounding box the dense mesh was cropped to (JSON: centre and half extents), in the dense mesh's frame (before a model's frame is applied).")
    var bounds: String?

    @Option(help: "Also write the poses (poses.json, colmap/, sparse_pc.ply, transforms.json) into this folder, in the mesh's frame and units (for a model output: the model's frame, Y up, metres when known).")
    var posesOutput: String?

    @Option(help: "Also write PNG pictures of the mesh seen through two of the cameras: PREFIX-1.png, PREFIX-2.png.")
    var preview: String?

    @Option(help: "Longest side of the images used for stereo, pixels (never scaled up). Default: by --detail: 768 for preview and reduced, 1024 for medium (and for a .ply mesh), 1536 for full and raw; a custom level by its polygon cap (up to 50k: 768, 100k: 1024, more: 1536).")
    var stereoImageSize: Int?

    @Flag(help: "Ignore depth sidecars (photos only).")
    var noDepth = false

    @Flag(help: "Ignore images for depth (LiDAR / depth sidecars only; needs depth).")
    var noStereo = false

    @Option(name: .customLong("lidar-points"), help: ArgumentHelp(
        "A point cloud (.ply, metres, in the known poses' world frame) to fuse with the depth; repeatable. Needs --poses or an RGB-D folder.",
        valueName: "file"))
    var lidarPoints: [String] = []

    @Option(help: "Weight of each --lidar-points point relative to one depth pixel.")
    var lidarPointsWeight: Float = 1

    @Flag(inversion: .prefixedNo, help: "Isolate the object: use NNNN_mask.png and NNNN_matte.png sidecars (features, stereo), and without them keep an object capture (cameras looking at one place from around it) to the object standing there. --no-object-masking ignores masks and keeps all the surroundings.")
    var objectMasking = true

    @Option(help: "Close openings no camera saw (the underside on a support): auto (object captures: with masks, or isolated without them), always, never.")
    var closeOpenings: SurfaceReconstruction.ClosureMode = .whenObjectMasked

    @Flag(help: "Print progress, messages and the result as JSON lines on standard output instead of text.")
    var json = false

    /// Whether INPUT is an RGB-D keyframe folder.
    var isKeyframeFolder: Bool { RGBDKeyframes.isKeyframeFolder(URL(fileURLWithPath: input, isDirectory: true)) }

    /// A `.ply` output is the dense mesh itself; anything else is a model.
    var writesMesh: Bool { output.lowercased().hasSuffix(".ply") }

    func run() async throws {
        let reporter = ProgressReporter(json: json)
        // Ctrl-C (or SIGTERM) ends the run at once, saying so (and with --json, as an event):
        // outputs are written whole or not at all. While poses are estimated it cancels the
        // session instead, which keeps the stages it finished in --checkpoint.
        // The model's folder is made when the run starts; a run that wrote nothing into it leaves
        // no empty folder of its own behind (as `poses` does).
        let outputFolder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        let outputFolderExisted = FileManager.default.fileExists(atPath: outputFolder)
        @Sendable func removeEmptyOutputFolder() {
            if !outputFolderExisted, (try? FileManager.default.contentsOfDirectory(atPath: outputFolder))?.isEmpty == true {
                try? FileManager.default.removeItem(atPath: outputFolder)
            }
        }
        let interruption = SessionInterruption { [checkpoint] afterSession in
            let kept = afterSession ? checkpoint.map { "; finished stages are kept in \($0)" } ?? "" : ""
            reporter.close(cancelled: "cancelled; outputs not yet written are not written\(kept)")
            removeEmptyOutputFolder()
            _exit(130)
        }
        defer { interruption.cancel() }
        do {
            try await reconstruct(reporter: reporter, interruption: interruption)
        } catch {
            reporter.finish()
            if !(error is ExitCode) { reporter.failure(error) }
            removeEmptyOutputFolder()
            throw error
        }
    }

    private func reconstruct(reporter: ProgressReporter, interruption: SessionInterruption) async throws {
        let started = Date()
        var imagesURL = URL(fileURLWithPath: input, isDirectory: true)
        let nested = imagesURL.appendingPathComponent("images", isDirectory: true)
        if FileManager.default.fileExists(atPath: nested.path) { imagesURL = nested }
        let given = try known.load()
        if !isKeyframeFolder, poses == nil, try ImageFolder.listImages(in: imagesURL).isEmpty { throw PhotoFolder.noPhotos(imagesURL.path) }
        if !isKeyframeFolder, let note = PhotoFolder.unreadSubfolders(imagesURL) { reporter.note(note) }
        if !isKeyframeFolder, poses == nil, let note = PhotoFolder.unusedKFile(imagesURL, intrinsicsGiven: known.isGiven) { reporter.note(note) }
        let stereoSize = try resolvedStereoImageSize()
        // Without stereo only depth sidecars give depth (a keyframe folder has its own, LiDAR clouds
        // need --poses): found missing before any work, not after the poses.
        if noStereo, !isKeyframeFolder, lidarPoints.isEmpty,
           !(try ImageFolder.listImages(in: imagesURL)).contains(where: { DepthSidecar.file(besides: $0) != nil }) {
            throw CommandFailure("--no-stereo: no photo in \(imagesURL.path) has a depth sidecar (NAME\(DepthSidecar.depthSuffix).png), so "
                                 + "there would be no depth to fuse; leave out --no-stereo to compute depth from the photos")
        }
        // The model's folder, once the input is known to hold photos (validate checked that it can be made), so `-o new/model.usdz` works
        // as `--mesh new/mesh.ply` does.
        let outputParent = URL(fileURLWithPath: output).deletingLastPathComponent()
        do { try FileManager.default.createDirectory(at: outputParent, withIntermediateDirectories: true) } catch {
            throw CommandFailure("-o \(output): cannot create \(outputParent.path): \(error.localizedDescription)")
        }

        let scene: SparseScene
        var frameDepth: [String: DepthSidecar] = [:]
        // Known poses are metres unless their file says otherwise (`poses` writes its own units).
        let posesInMetres = try poses.map { try PosesJSONReader.isMetric(URL(fileURLWithPath: $0)) ?? true } ?? false
        let knownMetricPoses = posesInMetres || isKeyframeFolder
        let progress: StageProgress
        if isKeyframeFolder {
            imagesURL = URL(fileURLWithPath: input, isDirectory: true)
            let keyframes = try RGBDKeyframes.load(imagesURL)
            for problem in keyframes.problems { reporter.warning("\(problem)") }
            guard !keyframes.frames.isEmpty else { throw CommandFailure("\(input): no usable RGB-D keyframe (each frame's problem is above)") }
            reporter.note("RGB-D keyframes: \(keyframes.frames.count) frames with known poses and depth")
            scene = keyframes.scene
            frameDepth = keyframes.depthByPhotoName
            progress = StageProgress(reporter: reporter, stages: stageWeights(photos: scene.images.count, stereoSize: stereoSize, estimatesPoses: false))
        } else if let poses {
            // Without --intrinsics or --intrinsics-file, each photo's come from the poses file.
            scene = try KnownPoses.scene(posesFile: URL(fileURLWithPath: poses), imagesDirectory: imagesURL, intrinsics: given)
            if scene.registeredCount < scene.images.count {
                reporter.note("\(scene.registeredCount)/\(scene.images.count) photos have a pose in \(poses)")
                for line in scene.unregisteredLines { reporter.note(line) }
            }
            if !posesInMetres {
                // Depth is named only when there is some to leave out.
                let hasDepth = !lidarPoints.isEmpty
                    || scene.images.contains { DepthSidecar.file(besides: imagesURL.appendingPathComponent($0.name)) != nil }
                let depth = hasDepth ? ", and depth sidecars and point clouds, which need metric poses or sparse points to be scaled, are not used. "
                    + "To take the scale from the depth, reconstruct from the photos without --poses" : ""
                reporter.warning("\(poses) says its units are not metres (\"metric\": false, as `poses` writes structure from motion's own units without tracked poses): "
                                 + "the model keeps those units unless \(CaptureFolderFiles.trackedPoses) gives the scale\(depth)")
            }
            progress = StageProgress(reporter: reporter, stages: stageWeights(photos: scene.images.count, stereoSize: stereoSize, estimatesPoses: false))
        } else {
            // Depth comes from the sidecars (the dense stage reads them), not from HEIC photos.
            let folder = try CaptureSamples.read(imagesDirectory: imagesURL, given: given, objectMasks: objectMasking, embeddedDepth: false)
            for note in folder.notes { reporter.note(note) }
            for warning in folder.warnings { reporter.warning(warning) }
            progress = StageProgress(reporter: reporter, stages: stageWeights(photos: folder.samples.count, stereoSize: stereoSize, estimatesPoses: true))
            reporter.note("estimating poses")
            let estimated = try await SessionPoses.estimate(samples: folder.samples, configuration: estimation.sessionConfiguration(objectMasking: objectMasking, checkpoint: checkpoint),
                                                            reporter: reporter, interruption: interruption, progress: progress)
            interruption.release()
            progress.finish()
            scene = estimated.scene.leavingOut(estimated.separateModels)
            reporter.note("registered \(scene.registeredCount)/\(scene.images.count) images")
            for line in scene.unregisteredLines { reporter.note(line) }
            if let warning = SparseScene.leftOutWarning(estimated.separateModels) { reporter.warning(warning) }
        }
        if posesOutput != nil { for warning in PoseExport.warnings(scene: scene) { reporter.warning(warning) } }
        var options = DenseRun.Options()
        options.stereo.maxImageDimension = stereoSize
        // Depth is scaled to estimated poses through their sparse points; known poses have none.
        options.useDepthSidecars = !noDepth && (poses == nil || posesInMetres)
        options.useStereo = !noStereo
        options.posesAreMetric = knownMetricPoses
        options.surface.closesOpenings = closeOpenings
        options.useMasks = objectMasking
        options.masksCheckedWhenRead = poses == nil && !isKeyframeFolder
        options.isolatesObject = objectMasking
        // Known poses bring no sparse points to bound each view's depth: 5 cm to 50 m, or, in units
        // that are not metres, from 1/100 to 1000 times the cameras' spread (an orbit's radius; a
        // forward-facing capture's few centimetres against a scene metres away).
        if knownMetricPoses {
            options.stereo.fallbackDepthRange = 0.05...50
        } else if poses != nil, let spread = scene.images.compactMap({ $0.cameraFromWorld?.cameraCentreInWorld }).rmsSpread, spread > 0 {
            options.stereo.fallbackDepthRange = Float(0.01 * spread)...Float(1000 * spread)
        }
        let clouds = try lidarPoints.map { file in
            SurfaceReconstruction.PointInput(cloud: try PLYReader.readPointCloud(URL(fileURLWithPath: file)), weight: lidarPointsWeight, name: file)
        }
        let dense = try denseStages(scene: scene, imagesDirectory: imagesURL, options: options, frameDepth: frameDepth, points: clouds,
                                    progress: progress)
        progress.finish()
        // A model's frame (Y up, resting on y = 0), chosen before the model is built so that its
        // full-resolution mesh and point cloud can be written, in that frame, whatever follows.
        let posed = scene.scaled(by: dense.metresPerUnit ?? 1)
        let modelFromWorld = writesMesh ? nil : ModelRun.modelFrame(scene: posed, surface: dense.surface.mesh, up: dense.up)
        var alsoWritten = try writeDenseOutputs(scene: scene, dense: dense, imagesDirectory: imagesURL, modelFromWorld: modelFromWorld)
        if let pointCloud, dense.stereo == nil {
            reporter.warning("\(pointCloud) not written: dense stereo gave no point cloud (the surface came from depth alone)")
        }
        var summary = ReconstructSummary(output: output, scene: scene, dense: dense)
        if !writesMesh {
            let (level, custom) = try detailOptions.resolved()
            let budget = ModelRun.budget(level.budget(custom: custom), writing: URL(fileURLWithPath: output)) { reporter.note($0) }
            if dense.metresPerUnit == nil { reporter.warning(ModelRun.unknownScaleWarning(output)) }
            let modelStarted = Date()
            let built = try progress.stage(.model) {
                try ModelRun.build(scene: scene, surface: dense.surface.mesh, metresPerUnit: dense.metresPerUnit, imagesDirectory: imagesURL,
                                   budget: budget, posesAreMetric: knownMetricPoses, up: dense.up, modelFromWorld: modelFromWorld,
                                   holdOutEvery: holdOutEvery, log: { progress.note($0) },
                                   fraction: { progress.update(.model, $0) })
            }
            let files = try progress.stage(.export) {
                try ModelRun.write(built.model, textureFormat: custom.textureFormat, to: URL(fileURLWithPath: output)) { progress.note($0) }
            }
            progress.finish()
            let model = ModelRun.Output(built, files: files, seconds: Date().timeIntervalSince(modelStarted))
            if let posesOutput {
                // The cameras in the model's frame: `evaluate --model` renders the model through them.
                let units = dense.metresPerUnit == nil ? "the reconstruction's units (the scale is unknown without depth)" : "metres"
                try PoseExport.writeAll(scene: posed.transformed(by: model.modelFromWorld),
                                        imagesDirectory: imagesURL, to: URL(fileURLWithPath: posesOutput, isDirectory: true),
                                        world: PosesWorld(description: "the model's frame (\(output)): Y up, the model resting on y = 0, in \(units)",
                                                          isMetric: dense.metresPerUnit != nil))
                alsoWritten.append(posesOutput)
            }
            if let modelReport {
                try AtomicFileWriter.write(try ModelStageReport(level: level, output: model).json(), to: URL(fileURLWithPath: modelReport))
                alsoWritten.append(modelReport)
            }
            summary.model = (level, model)
        }
        summary.seconds = Date().timeIntervalSince(started)
        summary.alsoWritten = alsoWritten.map { URL(fileURLWithPath: $0).path }
        summary.print(to: reporter)
    }

    /// The stages this run goes through and their expected relative costs, for the time estimate.
    private func stageWeights(photos: Int, stereoSize: Int, estimatesPoses: Bool) -> [(ProcessingStage, weight: Double)] {
        var weights: [(ProcessingStage, weight: Double)] = []
        if estimatesPoses {
            let pairs = estimation.sessionConfiguration().resolvedPoseOptions.pairSelection.estimatedPairCount(imageCount: photos)
            weights += ETAEstimator.poseStageWeights(imageCount: photos, pairCount: pairs)
        }
        let model = writesMesh ? nil : (try? detailOptions.resolved()).map { $0.level.budget(custom: $0.custom) }
        weights += ETAEstimator.modelStageWeights(imageCount: photos, models: model.map { [$0] } ?? [], stereoImageDimension: stereoSize)
            .map { stage, weight in (stage, stage == .dense && noStereo ? weight / 10 : weight) }
        return weights.filter { $0.weight > 0 }
    }
}

extension SurfaceReconstruction.ClosureMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
