import ArgumentParser
import Foundation
import Regression
import SyntheticCapture

struct SynthFramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth-frames",
        abstract: "Render a synthetic guided-capture frame stream (one orbit) with spoiled frames at known indices.",
        discussion: """
            A camera circles the scene's object once at one height (counter-clockwise seen from \
            above, the first frame half a step past world +x), one frame per --interval seconds, \
            as a phone streams frames to a capture session. Chosen frames are spoiled: --dark \
            (4.6 stops under-exposed), --blurred (Gaussian blur, σ = width/160 pixels), --off-frame \
            (the camera turned away about the vertical by half the horizontal field of view, so the \
            object's centre lands on the image's edge). Indices count from 0. Without any of the \
            three options, two of each are injected at 10 % and 27 % (dark), 44 % and 60 % \
            (blurred), 77 % and 94 % (off-frame) of the stream; --no-injection renders a clean stream.
            Writes, in DIR (the input of `photogrammetry capture replay`):
              frames.json                     the index (format photogrammetry-frame-stream/1): \
            intrinsics, object box, per frame: image, timestamp (s), camera-to-world rotation \
            (w,x,y,z) and position (m, world z up), gravity, sidecar names
              frame_NNNN.jpg                  the frames (or .png with --format png), 1-based
              frame_NNNN_depth.png            LiDAR-like depth, 16-bit millimetres
              frame_NNNN_depthConfidence.png  0 low, 1 medium, 2 high
              frame_NNNN_mask.png             object mask (255 = object)
              synthetic.json                  settings and each frame's kind (normal, dark, \
            blurred, off-frame): the truth, which the replay does not read
            Identical settings give byte-identical files.
            """
    )

    @Argument(help: "Scene: \(SyntheticSceneKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scene: SyntheticSceneKind

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @Option(help: "Number of frames in the orbit.")
    var frames = 48

    @Option(help: "Random seed: camera jitter, LiDAR noise and dropouts.")
    var seed: UInt64 = 1

    @Option(help: "Frame size in pixels, WxH.")
    var size = "480x360"

    @Option(help: "Seconds between frames.")
    var interval = 1.0

    @Option(help: "Elevation of the orbit seen from the object's centre, degrees.")
    var elevation = 25.0

    @Option(help: "Indices of dark frames, comma-separated (e.g. 5,13), or none.")
    var dark: String?

    @Option(help: "Indices of blurred frames, comma-separated, or none.")
    var blurred: String?

    @Option(help: "Indices of off-frame frames (object partly out of view), comma-separated, or none.")
    var offFrame: String?

    @Flag(help: "Inject no spoiled frames (unless --dark, --blurred or --off-frame give some).")
    var noInjection = false

    @Option(help: "Frame format: jpeg (quality 95) or png.")
    var format: SyntheticCaptureWriter.PhotoFormat = .jpeg

    func validate() throws {
        _ = try settings()
    }

    func settings() throws -> SyntheticFrameStream.Settings {
        let (width, height) = try PixelSize.parse(size, maximum: 8192)
        var settings = SyntheticFrameStream.Settings(scene: scene, frames: frames, seed: seed, imageWidth: width, imageHeight: height)
        settings.frameIntervalSeconds = interval
        settings.elevationDegrees = elevation
        // The stream's own limits first: too few frames is the problem, not where spoiled ones would go.
        if settings.frames < 3, let problem = settings.problem { throw ValidationError(problem) }
        if dark == nil && blurred == nil && offFrame == nil {
            if !noInjection {
                settings.injectDefaultFrames()
                let injected = settings.darkFrames + settings.blurredFrames + settings.offFrameFrames
                if Set(injected).count != injected.count {
                    throw ValidationError("with \(frames) frames the six default spoiled frames (2 dark, 2 blurred, 2 off-frame) would "
                                          + "overlap; give more --frames, --no-injection, or your own --dark, --blurred and --off-frame indices")
                }
            }
        } else {
            settings.darkFrames = try indices(dark, option: "--dark")
            settings.blurredFrames = try indices(blurred, option: "--blurred")
            settings.offFrameFrames = try indices(offFrame, option: "--off-frame")
        }
        guard elevation > -80, elevation < 80 else { throw ValidationError("--elevation must be between -80 and 80 degrees") }
        if let problem = settings.problem { throw ValidationError(problem) }
        return settings
    }

    private func indices(_ text: String?, option: String) throws -> [Int] {
        guard let text, text.lowercased() != "none", !text.isEmpty else { return [] }
        return try text.split(separator: ",").map { field in
            guard let value = Int(field.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw ValidationError("\(option) takes frame indices (from 0) separated by commas, or none (got \"\(text)\")")
            }
            return value
        }
    }

    func run() throws {
        let settings = try settings()
        try OutputFolder.checkFolder(output, option: "-o")
        let started = Date()
        let stream = SyntheticFrameStream(settings: settings)
        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        try SyntheticFrameStreamWriter.write(stream, to: outputURL, photoFormat: format)
        func list(_ values: [Int]) -> String { values.isEmpty ? "none" : values.map(String.init).joined(separator: ",") }
        print(String(format: "wrote %d frames of %@ (%d×%d) to %@ in %.1f s", settings.frames, scene.rawValue,
                     settings.imageWidth, settings.imageHeight, outputURL.path, Date().timeIntervalSince(started)))
        print("spoiled frames: dark \(list(settings.darkFrames)); blurred \(list(settings.blurredFrames)); off-frame \(list(settings.offFrameFrames))")
    }
}
