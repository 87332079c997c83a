import ArgumentParser
import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import Regression

struct PosesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poses",
        abstract: "Estimate camera poses from a folder of photos (structure from motion).",
        discussion: """
            Reads every JPEG/PNG/TIFF/WebP/BMP in IMAGES_DIR (not recursive), extracts SIFT features, \
            matches image pairs with geometric verification, and runs incremental structure from \
            motion with Ceres bundle adjustment. Writes, in OUT_DIR:
              poses.json        per image: registered or not (and why), camera-to-world rotation \
            (unit quaternion w,x,y,z) and translation (camera centre), intrinsics
              colmap/           COLMAP text model: cameras.txt, images.txt, points3D.txt
              transforms.json   nerfstudio's format (OpenGL camera axes)
            Intrinsics: given with --intrinsics or --intrinsics-file they are held fixed (unless \
            --refine-intrinsics); otherwise they come from EXIF focal length, or a default guess \
            (1.2 × the longer side), and are refined by bundle adjustment.
            Images that cannot be decoded are reported and skipped; fewer than two usable images \
            is an error (exit code 1).
            """
    )

    @Argument(help: "Folder of photos.", completion: .directory)
    var imagesDir: String

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @Option(help: "Known pinhole intrinsics in pixels: fx,fy,cx,cy (pixel origin at the top-left corner).")
    var intrinsics: String?

    @Option(help: "File with a 3×3 intrinsics matrix K (9 numbers, row-major), e.g. Strecha's K.txt.")
    var intrinsicsFile: String?

    @Flag(help: "Refine given intrinsics in bundle adjustment instead of holding them fixed.")
    var refineIntrinsics = false

    @Option(help: "Pair selection: auto (exhaustive up to \(PairSelection.exhaustiveLimit) images, else sequential), exhaustive, or sequential.")
    var matching: MatchingMode = .auto

    @Option(help: "Neighbours matched per image with --matching sequential.")
    var window = 20

    @Option(help: "Longest image side used for features, pixels (larger images are resized).")
    var maxImageSize = 3200

    @Option(help: "Maximum features per image.")
    var maxFeatures = 8192

    @Option(help: "Feature sensitivity: normal (SIFT from the photo's own resolution) or high (from twice it, as COLMAP's default; more precise rotations, about 2.7 GB peak and 1.5–2× the time on 6-megapixel photos).")
    var featureSensitivity: FeatureSensitivity = .normal

    @Flag(help: "Print progress as JSON lines instead of text.")
    var json = false

    enum MatchingMode: String, ExpressibleByArgument, CaseIterable {
        case auto, exhaustive, sequential
    }

    enum FeatureSensitivity: String, ExpressibleByArgument, CaseIterable {
        case normal, high
    }

    func validate() throws {
        if intrinsics != nil && intrinsicsFile != nil {
            throw ValidationError("give either --intrinsics or --intrinsics-file, not both")
        }
        if maxImageSize < 64 { throw ValidationError("--max-image-size must be at least 64") }
        if maxFeatures < 64 { throw ValidationError("--max-features must be at least 64") }
        if window < 1 { throw ValidationError("--window must be at least 1") }
    }

    func run() throws {
        let imagesURL = URL(fileURLWithPath: imagesDir)
        let outputURL = URL(fileURLWithPath: output)
        var given: PinholeIntrinsics?
        if let text = intrinsics { given = try PinholeIntrinsics.parse(commaSeparated: text) }
        if let path = intrinsicsFile { given = try PinholeIntrinsics.load(kFile: URL(fileURLWithPath: path)) }

        let sources = try CaptureSources.load(imagesDirectory: imagesURL, given: given)

        var options = PoseEstimation.Options()
        options.features.maxImageDimension = maxImageSize
        options.features.maxFeatures = maxFeatures
        options.features.detectionScale = featureSensitivity == .high ? 1.0 : 0.5
        options.mapper.refineGivenIntrinsics = refineIntrinsics
        switch matching {
        case .auto: options.pairSelection = .automatic
        case .exhaustive: options.pairSelection = .exhaustive
        case .sequential: options.pairSelection = .sequential(window: window)
        }

        let reporter = ProgressReporter(json: json)
        let started = Date()
        let report: PoseEstimation.Report
        do {
            report = try PoseEstimation(options: options).run(sources) { reporter.progress($0) }
        } catch {
            reporter.finish()
            throw error
        }
        reporter.finish()
        for bad in report.invalidImages { reporter.warning("skipped \(bad.name): \(bad.reason)") }
        try PoseExport.writeAll(scene: report.scene, imagesDirectory: imagesURL, to: outputURL)
        let seconds = Date().timeIntervalSince(started)
        reporter.summary(report: report, seconds: seconds, output: outputURL)
    }
}
