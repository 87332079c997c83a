import ArgumentParser
import CaptureIO
import Foundation
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore

struct PosesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poses",
        abstract: "Estimate camera poses from a folder of photos (structure from motion).",
        discussion: """
            Reads every JPEG/PNG/TIFF/WebP/BMP/HEIC in IMAGES_DIR (not recursive: a note names \
            subfolders whose photos are not read; hidden files skipped; \
            IMAGES_DIR/images/ when IMAGES_DIR itself has none), extracts SIFT features, \
            matches image pairs with geometric verification, and runs incremental structure from \
            motion with Ceres bundle adjustment. Writes, in OUT_DIR:
              poses.json        per image: registered or not (and why), camera-to-world rotation \
            (unit quaternion w,x,y,z) and translation (camera centre), intrinsics, observations \
            and mean reprojection error; the model's points, mean track length and mean \
            reprojection error under sparse_model; the run's warnings under warnings
              colmap/           COLMAP text model: cameras.txt, images.txt, points3D.txt
              sparse_pc.ply     the sparse points, coloured (transforms.json's ply_file_path)
              transforms.json   nerfstudio's format (OpenGL camera axes)
              models/N/         the same, for each group of at least 3 photos that no \
            verified pair joins to the main model (another scene in the folder, or a gap in a walk), \
            reconstructed on its own in its own frame; the main poses.json names each such photo's model
            Intrinsics: given with --intrinsics or --intrinsics-file they are held fixed (unless \
            --refine-intrinsics); otherwise they come from EXIF focal length, or a default guess \
            (1.2 × the longer side), and are refined by bundle adjustment (focal length and radial \
            distortion k1; the principal point stays at the image centre unless --refine-principal-point). A given K is checked against \
            each photo: a photo is skipped, with the reason, when the principal point lies outside it, or \
            far from its centre where K fits it turned by 90° (K for the upright view); far from the centre \
            otherwise is a warning (with how to scale K when K seems made for larger photos).
            Pixels are used as stored: the EXIF orientation tag is not applied (as in COLMAP), so poses \
            and intrinsics describe the stored raster; photos tagged to be shown turned are named in a \
            warning, and photos tagged to be shown mirrored (a mirror image as stored or as shown) are \
            skipped, saying how to keep them. An alpha channel is ignored (use a _mask sidecar).
            Images that cannot be decoded are reported and skipped, and so is a copy of another \
            photo (identical features; of a set of copies the one named like the original is kept: \
            no spaces, then the shortest name); fewer than two usable images \
            is an error (exit code 1). A photo's <name>_mask.<ext> sidecar (non-zero = object; a JPEG mask: above half its brightest level) and/or \
            <name>_matte.<ext> person/object matte (grey levels, object where ≥ 50 %), if present, mask \
            its background out of the features (--no-object-masking ignores them); a mask or matte \
            that does not decode, does not have its photo's aspect ratio, marks nothing as the object \
            or is mostly grey levels skips the photo, with a message naming the file (masks that all \
            mark nothing are an error; photos without a mask among photos with one are a warning, \
            as their background is not masked out). HEIC photos are decoded by libheif; their embedded depth, when metric, is \
            carried with the sample.
            Poses are in structure from motion's own units ("metric": false in poses.json), or in \
            metres when tracked_poses.json beside the photos (the poses a capture device tracked, \
            as capture replay writes) fits them; when it does not, a warning says why.
            With --checkpoint DIR, each finished stage (and each image's features) is saved in DIR; \
            running again with the same DIR, photos and options loads them instead of recomputing. \
            Ctrl-C (or SIGTERM) cancels promptly and keeps what is saved.
            """
    )

    @Argument(help: "Folder of photos (or a capture folder whose photos are in its images/ subfolder).", completion: .directory)
    var imagesDir: String

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @OptionGroup var known: IntrinsicsOptions

    @OptionGroup var estimation: PoseOptions

    @Option(help: "Checkpoint folder: finished stages are saved there and reused by a later run on the same photos and options.", completion: .directory)
    var checkpoint: String?

    @Flag(inversion: .prefixedNo, help: "Use <photo>_mask.<ext> and <photo>_matte.<ext> sidecars to keep only the object's features.")
    var objectMasking = true

    @Flag(help: "Print progress as JSON lines instead of text.")
    var json = false

    func run() async throws {
        let reporter = ProgressReporter(json: json)
        let outputExisted = FileManager.default.fileExists(atPath: output)
        // Ctrl-C or SIGTERM cancels the session (checkpoints stay) instead of killing the process.
        // Before the session exists (photo headers are still being read) it ends the run at once,
        // saying so.
        let interruption = SessionInterruption { [output, checkpoint] afterSession in
            // A second signal while the session stops: what it finished is kept all the same.
            let kept = checkpoint.map { "; finished stages are kept in \($0)" } ?? ""
            reporter.close(cancelled: afterSession ? "cancelled\(kept); files not yet written are not written" : "cancelled before processing began")
            if !outputExisted, (try? FileManager.default.contentsOfDirectory(atPath: output))?.isEmpty == true {
                try? FileManager.default.removeItem(atPath: output)
            }
            _exit(130)
        }
        defer { interruption.cancel() }
        do {
            try await estimate(reporter: reporter, interruption: interruption)
        } catch {
            if !(error is ExitCode) { reporter.failure(error) }
            // A run that wrote nothing leaves no empty output folder of its own behind.
            if !outputExisted, (try? FileManager.default.contentsOfDirectory(atPath: output))?.isEmpty == true {
                try? FileManager.default.removeItem(atPath: output)
            }
            throw error
        }
    }

    private func estimate(reporter: ProgressReporter, interruption: SessionInterruption) async throws {
        let outputURL = URL(fileURLWithPath: output)
        let given = try known.load()
        let imagesURL = try PhotoFolder.resolve(imagesDir, reporter: reporter)
        if let note = PhotoFolder.unusedKFile(imagesURL, intrinsicsGiven: known.isGiven) { reporter.note(note) }
        // Checked before any work, so a bad -o does not cost a whole run.
        try OutputFolder.prepare(outputURL)

        let folder = try CaptureSamples.read(imagesDirectory: imagesURL, given: given, objectMasks: objectMasking)
        for note in folder.notes { reporter.note(note) }
        for warning in folder.warnings { reporter.warning(warning) }
        let started = Date()
        let poses = try await SessionPoses.estimate(samples: folder.samples, configuration: estimation.sessionConfiguration(objectMasking: objectMasking, checkpoint: checkpoint),
                                                    reporter: reporter, interruption: interruption)
        // A signal from here on (or one that came as the session finished) stops the run: what
        // is written is whole, the rest is not written.
        interruption.release()
        // In metres when tracked_poses.json beside the photos gives the scale.
        var later: [String] = []
        let exported = TrackedPoses.exportedPoses(poses.scene, imagesDirectory: imagesURL, warnings: &later) { reporter.note($0) }
        later += PoseExport.warnings(scene: poses.scene)
        // poses.json keeps every warning of the run (a pipeline may read nothing else).
        try PoseExport.writeAll(scene: exported.scene, imagesDirectory: imagesURL, to: outputURL, world: exported.world,
                                warnings: reporter.warnings + later)
        try PoseExport.writeSeparateModels(poses.separateModels, imagesDirectory: imagesURL, to: outputURL)
        // Warnings first: with --json, `complete` is the last event.
        for warning in later { reporter.warning(warning) }
        if let note = estimation.separateModelsNote(poses.separateModels.count) { reporter.note(note) }
        reporter.summary(poses: poses, seconds: Date().timeIntervalSince(started), output: outputURL)
    }
}
