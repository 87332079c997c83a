import ArgumentParser
import CaptureReplay
import Foundation
import ReconstructionCore

struct CaptureReplayCommand: ParsableCommand {
    static let defaults = CaptureSession.Configuration()
    static let analysisDefaults = FrameAnalyzer.Options()

    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded frame stream through the capture session and write the curated capture folder.",
        discussion: """
            Input: FRAMES_DIR/frames.json (format photogrammetry-frame-stream/1, written by \
            `photogrammetry synth-frames`) lists the frames in order, each with its image, timestamp \
            (seconds, increasing), camera-to-world pose (rotation as a unit quaternion w,x,y,z; \
            position in metres; world z up; camera x right, y down, z forward) and optional \
            gravity, depth (16-bit PNG mm or float TIFF m), depth confidence and mask sidecars; \
            intrinsics (pixels) for all frames or per frame; and the object box the person \
            confirmed (world, metres; or --box).
            Each frame is measured — mean luminance, sharpness (variance of the Laplacian of the \
            exposure-normalised grey image at most --analysis-size pixels long, averaged over the \
            sharpest tenth of 32-pixel cells), texture, fraction of the box in view — and given to \
            the capture session with its pose. The session starts detecting; the box is confirmed \
            on the first frame that shows it with no blocking feedback, and capturing starts with \
            the next frame. Guidance: environmentTooDark (luminance below --min-luminance), \
            movingTooFast (faster than --max-speed or --max-turn-rate, or blurred: sharpness below \
            --min-sharpness, or below --min-relative-sharpness of the median of the previous \
            frames', so that a plain object is judged against itself), objectTooClose / objectTooFar (outside --min-distance … \
            --max-distance box diagonals), outOfFieldOfView (less than --min-box-fraction of the \
            box in view), overCapturing. A frame with none of the blocking ones becomes a shot when \
            it turned at least --min-degrees-between-shots and --min-seconds-between-shots passed \
            since the last shot; shots fill the coverage dial (--coverage-bins azimuth bins), and a \
            full dial completes the scan pass.
            Output: CAPTURE_DIR (new or empty) gets, per shot, NNNN.<ext> (the frame's bytes) and \
            the sidecars it has: NNNN_depth.png, NNNN_depthConfidence.png, NNNN_mask.png, \
            NNNN_gravity.txt; K.txt when all shots share intrinsics; and tracked_poses.json (each \
            shot's frame pose, poses.json's format). It is a capture folder \
            for `photogrammetry poses` or `reconstruct`.
            Report: one line per frame (saved, rejected and why, or invalid and why) and a summary \
            (shots, rejections per feedback, dial, completed passes, flip advice); with --json, one \
            JSON object per line: {"event":"frame",…} per frame and {"event":"summary",…} last. \
            Bad frames (missing or undecodable image, bad pose) are reported and skipped; a \
            missing or malformed frames.json, or a stream from which no shot is saved (an output \
            folder the command made is then removed), is an error (exit code 1).
            """
    )

    @Argument(help: "Frame-stream folder (holding frames.json).", completion: .directory)
    var framesDir: String

    @Option(name: .shortAndLong, help: "Curated capture folder to write (created; must be empty if it exists).")
    var output: String

    @Option(help: "Object box cx,cy,cz,hx,hy,hz: centre and half extents, world frame, metres (default: the index's objectBox).")
    var box: String?

    @Option(help: "Most shots (auto-capture stops there unless --over-capture).")
    var maxShots = defaults.maximumShots

    @Flag(help: "Keep taking shots past --max-shots (overCapturing is shown).")
    var overCapture = false

    @Option(help: "Azimuth bins of the coverage dial.")
    var coverageBins = defaults.coverageBinCount

    @Option(help: "Darkest mean luminance (0…1) at which shots are taken.")
    var minLuminance = defaults.minimumMeanLuminance

    @Option(help: "Least sharpness of a shot in any scene (variance of the Laplacian on 8-bit grey, exposure-normalised).")
    var minSharpness = defaults.minimumSharpness

    @Option(help: "Least sharpness of a shot as a fraction (0…1) of the median of the previous \(CaptureSession.sharpnessHistory) frames' (0: off).")
    var minRelativeSharpness = defaults.minimumRelativeSharpness

    @Option(help: "Fastest camera movement for shots, metres per second.")
    var maxSpeed = defaults.maximumSpeedMetresPerSecond

    @Option(help: "Fastest camera rotation for shots, degrees per second.")
    var maxTurnRate = defaults.maximumTurnRateDegreesPerSecond

    @Option(help: "Nearest camera-to-box-centre distance, in box diagonals.")
    var minDistance = defaults.minimumDistanceInBoxDiagonals

    @Option(help: "Farthest camera-to-box-centre distance, in box diagonals.")
    var maxDistance = defaults.maximumDistanceInBoxDiagonals

    @Option(help: "Least fraction (0…1) of the box volume inside the field of view.")
    var minBoxFraction = defaults.minimumBoxFractionInView

    @Option(help: "Least change of view direction from the box centre between shots, degrees.")
    var minDegreesBetweenShots = defaults.minimumDegreesBetweenShots

    @Option(help: "Least time between shots, seconds.")
    var minSecondsBetweenShots = defaults.minimumSecondsBetweenShots

    @Option(help: "Longest side frames are analysed at, pixels (frames are decoded at 1/2, 1/4 or 1/8 to fit).")
    var analysisSize = analysisDefaults.maximumDimension

    @Flag(help: "Print the per-frame report and the summary as JSON lines.")
    var json = false

    @Flag(help: "Print only the summary (no per-frame lines).")
    var quiet = false

    func validate() throws {
        if analysisSize < 64 { throw ValidationError("--analysis-size must be at least 64") }
        _ = try parsedBox()
        do { try options().session.validate() } catch { throw ValidationError(Self.inFlags("\(error)")) }
    }

    /// The session's option names in a message, as this command's flags.
    static func inFlags(_ message: String) -> String {
        let flags = [("maximumShots", "--max-shots"), ("coverageBinCount", "--coverage-bins"), ("minimumMeanLuminance", "--min-luminance"),
                     ("minimumSharpness", "--min-sharpness"), ("minimumRelativeSharpness", "--min-relative-sharpness"), ("maximumSpeedMetresPerSecond", "--max-speed"),
                     ("maximumTurnRateDegreesPerSecond", "--max-turn-rate"), ("minimumDistanceInBoxDiagonals", "--min-distance"),
                     ("maximumDistanceInBoxDiagonals", "--max-distance"), ("minimumBoxFractionInView", "--min-box-fraction"),
                     ("minimumDegreesBetweenShots", "--min-degrees-between-shots"),
                     ("minimumSecondsBetweenShots", "--min-seconds-between-shots")]
        return flags.reduce(message) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    func parsedBox() throws -> BoundingBox? {
        guard let box else { return nil }
        let fields = box.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = fields.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard fields.count == 6, numbers.count == 6, numbers.allSatisfy(\.isFinite),
              numbers[3] >= 0, numbers[4] >= 0, numbers[5] >= 0, numbers[3] + numbers[4] + numbers[5] > 0 else {
            throw ValidationError("--box takes cx,cy,cz,hx,hy,hz (metres; half extents ≥ 0, not all 0), got \"\(box)\"")
        }
        return BoundingBox(centre: Vector3(numbers[0], numbers[1], numbers[2]), halfExtents: Vector3(numbers[3], numbers[4], numbers[5]))
    }

    func options() throws -> CaptureReplay.Options {
        var options = CaptureReplay.Options()
        options.session.maximumShots = maxShots
        options.session.isOverCaptureEnabled = overCapture
        options.session.coverageBinCount = coverageBins
        options.session.minimumMeanLuminance = minLuminance
        options.session.minimumSharpness = minSharpness
        options.session.minimumRelativeSharpness = minRelativeSharpness
        options.session.maximumSpeedMetresPerSecond = maxSpeed
        options.session.maximumTurnRateDegreesPerSecond = maxTurnRate
        options.session.minimumDistanceInBoxDiagonals = minDistance
        options.session.maximumDistanceInBoxDiagonals = maxDistance
        options.session.minimumBoxFractionInView = minBoxFraction
        options.session.minimumDegreesBetweenShots = minDegreesBetweenShots
        options.session.minimumSecondsBetweenShots = minSecondsBetweenShots
        options.analysis.maximumDimension = analysisSize
        options.objectBox = try parsedBox()
        return options
    }

    func run() throws {
        let started = Date()
        let stream = try FrameStream.load(directory: URL(fileURLWithPath: framesDir, isDirectory: true))
        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        let printer = ReplayPrinter(json: json, quiet: quiet)
        let existed = FileManager.default.fileExists(atPath: outputURL.path)
        let summary = try CaptureReplay(options: options()).run(stream, to: outputURL) { printer.frame($0) }
        printer.summary(summary, output: outputURL, seconds: Date().timeIntervalSince(started))
        if summary.savedShots == 0 {
            // Nothing to reconstruct from: a failure, without an empty folder left behind.
            if !existed, (try? FileManager.default.contentsOfDirectory(atPath: outputURL.path))?.isEmpty == true {
                try? FileManager.default.removeItem(at: outputURL)
            }
            let failure = CommandFailure("no shot was saved from \(framesDir): " + Self.whyNothingWasSaved(summary))
            if json { print(#"{"event":"error","message":"\#(ProgressReporter.escaped(failure.description))"}"#) }
            throw failure
        }
    }

    /// Why a replay saved no shot, from its summary.
    static func whyNothingWasSaved(_ summary: ReplaySummary) -> String {
        if summary.frames == summary.invalidFrames { return "every frame was invalid (see the reasons above)" }
        if summary.capturingFrames == 0 {
            let reasons = summary.detectionBlockedBy.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key) on \($0.value) of \(summary.detectingFrames) frames" }
            return "the session never left detection (no frame confirmed the object's box"
                + (reasons.isEmpty ? ")" : ": \(reasons.joined(separator: ", ")))")
        }
        let rejected = summary.rejectedByFeedback.values.reduce(0, +) + summary.rejectedWithoutNewViewpoint + summary.rejectedAtShotLimit
        return "all \(rejected) frames taken while capturing were rejected (see the reasons above)"
    }
}
