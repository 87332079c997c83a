import ArgumentParser
import Foundation
import Regression
import SyntheticCapture

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Render a synthetic Object Capture-style capture with exact ground truth.",
        discussion: """
            Scenes: textured-vase (richly textured), plain-box (low texture: flat colour, shading \
            only), flip-object (its textured bottom is seen only in a second pass, after the object \
            is turned upside down). Cameras orbit at three heights; photos are shaded and \
            anti-aliased on the CPU. Writes, in DIR:
              images/NNNN.jpg              photos (or .png with --format png)
              images/NNNN_depth.png        LiDAR-like depth: 16-bit millimetres along the camera z axis, \
            lower resolution, range-limited, noisy, with missing returns (0)
              images/NNNN_depthConfidence.png  0 low, 1 medium, 2 high
              images/NNNN_mask.png         object mask (255 = object)
              images/NNNN_gravity.txt      physical down in camera coordinates (g units)
              images/K.txt                 photo intrinsics (3×3)
              ground_truth/                true poses (poses.json, colmap/, transforms.json; object \
            frame, metres, z up) and mesh.ply (the true surface)
              capture.json                 settings and per-view pass / ring
            Identical settings give byte-identical files.
            """
    )

    @Argument(help: "Scene: \(SyntheticSceneKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scene: SyntheticSceneKind

    @Option(name: .shortAndLong, help: "Output folder (created if missing). An earlier capture there is replaced (its images/, ground_truth/ and capture.json); other files are kept.")
    var output: String

    @Option(help: "Number of views (split over the orbits, and over both passes for flip-object).")
    var views = 40

    @Option(help: "Random seed: camera jitter, LiDAR noise and dropouts.")
    var seed: UInt64 = 1

    @Option(help: "Photo size in pixels, WxH.")
    var size = "1024x768"

    @Option(help: "Photo format: jpeg (quality 95) or png.")
    var format: SyntheticCaptureWriter.PhotoFormat = .jpeg

    @Option(help: "What surrounds the object: studio (a plain floor and backdrop: every feature is on the object) or room (a textured rug and walls with posters, as at home).")
    var surroundings: SyntheticCapture.Surroundings = .studio

    @Flag(help: "Write only the photos (and K.txt) in images/, as a camera would: no masks, depth or gravity sidecars. The ground truth is written all the same.")
    var photosOnly = false

    func validate() throws {
        guard (3...10_000).contains(views) else { throw ValidationError("--views must be 3…10000") }
        _ = try parsedSize()
    }

    func parsedSize() throws -> (width: Int, height: Int) {
        try PixelSize.parse(size, maximum: 16384)
    }

    func run() throws {
        let (width, height) = try parsedSize()
        try OutputFolder.checkFolder(output, option: "-o")
        let started = Date()
        var settings = SyntheticCapture.Settings(scene: scene, views: views, seed: seed, imageWidth: width, imageHeight: height)
        settings.surroundings = surroundings
        let capture = SyntheticCapture(settings: settings)
        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        try clearEarlierCapture(in: outputURL)
        try SyntheticCaptureWriter.write(capture, to: outputURL, photoFormat: format, sidecars: !photosOnly)
        print(String(format: "wrote %d views of %@ (%d×%d) to %@ in %.1f s", views, scene.rawValue, width, height,
                     outputURL.path, Date().timeIntervalSince(started)))
    }
}

extension SynthCommand {
    /// The folders and file a capture consists of.
    static let captureParts = ["images", GroundTruth.syntheticFolderName, "capture.json"]
    /// Written before any photo and left in place: a capture that a stopped or failed run left
    /// without its capture.json (written last) is still known to be synth's.
    static let marker = ".photogrammetry-synth"

    /// An earlier capture in `folder` (its capture.json names synth as its generator, or the
    /// marker is there) is removed, so that none of its photos or sidecars stays beside the new
    /// ones (more views, or sidecars that a `--photos-only` capture would otherwise seem to have).
    /// Other files are left alone; an `images/` or `ground_truth/` folder that synth did not write
    /// is refused, not overwritten.
    func clearEarlierCapture(in folder: URL) throws {
        let parts = Self.captureParts.map { folder.appendingPathComponent($0) }
        let present = parts.filter { FileManager.default.fileExists(atPath: $0.path) }
        let markerURL = folder.appendingPathComponent(Self.marker)
        if !present.isEmpty {
            guard FileManager.default.fileExists(atPath: markerURL.path) || Self.isSynthCapture(parts[2]) else {
                throw CommandFailure("-o \(output) already holds \(present.map(\.lastPathComponent).joined(separator: " and ")) "
                                     + "that synth did not write (no capture.json of synth's); choose another folder")
            }
            for part in present {
                do { try FileManager.default.removeItem(at: part) } catch {
                    throw CommandFailure("-o \(output): cannot remove the earlier capture's \(part.lastPathComponent): \(error.localizedDescription)")
                }
            }
            print("replaced the earlier capture in \(folder.path)")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data().write(to: markerURL)
        } catch {
            throw CommandFailure("-o \(output): cannot write \(Self.marker): \(error.localizedDescription)")
        }
    }

    /// Whether `file` is a capture.json whose generator is synth.
    static func isSynthCapture(_ file: URL) -> Bool {
        guard let data = try? Data(contentsOf: file),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return (object["generator"] as? String)?.hasPrefix("photogrammetry synth") == true
    }
}

extension SyntheticSceneKind: ExpressibleByArgument {}
extension SyntheticCaptureWriter.PhotoFormat: ExpressibleByArgument {}
extension SyntheticCapture.Surroundings: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
