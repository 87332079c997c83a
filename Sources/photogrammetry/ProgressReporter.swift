import Foundation
import ModelExport
import Reconstruction

/// Prints a session's messages: a one-line bar (stage, percentage, time left) on a terminal,
/// JSON lines with `--json`, and occasional plain lines otherwise (logs, CI).
final class ProgressReporter: @unchecked Sendable {
    private let json: Bool
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var barShown = false
    private var lastStage: ProcessingStage?
    private var lastDecile = -1
    private var lastFraction = 0.0
    private var lastPrintedFraction = ""
    private var lastPrintedTime = 0.0
    private var stageSeconds: [ProcessingStage: Double] = [:]
    private var restored: [PhotogrammetrySession.StageReport] = []
    /// Held by every method that reads or changes the state above or writes (the session's
    /// outputs, stereo's worker threads and the Ctrl-C handler all report), which makes the
    /// reporter `Sendable`; recursive, as the methods call one another. After `close(cancelled:)`
    /// nothing more is written.
    private let lock = NSRecursiveLock()
    private var isClosed = false
    private var warned: [String] = []
    /// Per problem of a skipped photo (its reason without the name), the first photo it was
    /// printed for: a K that fits no photo skipped each with the same long sentence.
    private var skippedProblems: [String: String] = [:]
    /// The session's photo names by sample id, set by the command that runs it.
    var sampleNames: [Int: String] {
        get { lock.lock(); defer { lock.unlock() }; return names }
        set { lock.lock(); defer { lock.unlock() }; names = newValue }
    }
    private var names: [Int: String] = [:]

    /// Every warning given so far, in order (unindented), for the output files that keep them.
    var warnings: [String] {
        lock.lock()
        defer { lock.unlock() }
        return warned
    }

    /// Whether messages go out as JSON lines.
    var isJSON: Bool { json }

    init(json: Bool) {
        self.json = json
    }

    func handle(_ output: PhotogrammetrySession.Output) {
        lock.lock()
        defer { lock.unlock() }
        switch output {
        case .requestProgressInfo(_, let info):
            progress(stage: info.stage, fraction: info.stageFraction, remaining: info.estimatedRemainingTime)
        case .invalidSample(let id, let reason):
            skipped(reason, name: sampleNames[id])
        case .inputWarning(let text):
            warning(text)
        case .automaticDownsampling:
            note("some photos are larger than --max-image-size and were downsampled for features")
        case .stageComplete(let report):
            stageSeconds[report.stage] = report.seconds
            if report.restoredItems > 0 {
                restored.append(report)
                // Images are counted (`features: 32/40 …`); a stage that is one item is loaded or not.
                let items = report.totalItems > 1 ? " \(report.restoredItems)/\(report.totalItems)" : ""
                note("\(report.stage.rawValue):\(items) loaded from the checkpoint (saved about \(String(format: "%.1f", report.savedSeconds)) s)")
            }
            if let setAside = report.setAsideNote { note(setAside) }
        default:
            break
        }
    }

    func progress(stage: ProcessingStage, fraction reported: Double, remaining: Double?) {
        lock.lock()
        defer { lock.unlock() }
        // Workers report as they finish, which is not always in order: a stage never goes back.
        let fraction = stage == lastStage ? max(reported, lastFraction) : reported
        lastFraction = fraction
        if json {
            // The same stage at the same (printed) fraction says nothing new, and within a stage at
            // most 20 events a second are printed (matching reported each of 760 pairs in a second).
            let printed = String(format: "%.4f", fraction)
            let now = ProcessClock.wallSeconds
            guard stage != lastStage || (printed != lastPrintedFraction && (fraction >= 1 || now - lastPrintedTime >= 0.05)) else { return }
            lastPrintedFraction = printed
            lastPrintedTime = now
            let eta = remaining.map { #","eta_seconds":\#(String(format: "%.1f", $0))"# } ?? ""
            line(#"{"event":"progress","stage":"\#(stage.rawValue)","fraction":\#(printed)\#(eta)}"#)
            lastStage = stage
            return
        }
        let decile = Int(fraction * 10)
        if isTerminal {
            let width = 30, filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let left = remaining.map { String(format: "  %.0f s left", $0) } ?? ""
            let line = "\r\(stage.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) [\(bar)] \(Int(fraction * 100))%\(left)   "
            write(line, to: .standardError)
            barShown = true
        } else if stage != lastStage || decile != lastDecile {
            if decile % 5 == 0 || stage != lastStage {
                let left = remaining.map { String(format: " (%.0f s left)", $0) } ?? ""
                write("\(stage.rawValue): \(Int(fraction * 100))%\(left)\n", to: .standardError)
            }
        }
        lastStage = stage
        lastDecile = decile
    }

    /// Ends the progress bar line, if one is shown.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if barShown {
            write("\n", to: .standardError)
            barShown = false
        }
    }

    /// The photo `name` skipped for `reason`, which starts with the name. As text, a problem
    /// already printed for another photo is not repeated; JSON lines carry every reason whole.
    func skipped(_ reason: String, name: String?) {
        lock.lock()
        defer { lock.unlock() }
        guard !json, let name, reason.hasPrefix(name + ": ") else { return warning("skipped \(reason)") }
        let problem = String(reason.dropFirst(name.count + 2))
        guard let first = skippedProblems[problem] else {
            skippedProblems[problem] = name
            return warning("skipped \(reason)")
        }
        finish()
        warned.append("skipped \(reason)")
        write("warning: skipped \(name): the same problem as \(first)\n", to: .standardError)
    }

    /// A warning, unless the same was given before (a repeat says nothing new, and poses.json
    /// keeps every warning once).
    func warning(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !warned.contains(Self.unindented(text)) else { return }
        if !json { finish() }
        warned.append(Self.unindented(text))
        let (message, handle) = warningLine(text)
        write(message, to: handle)
    }

    /// Says the run was cancelled (Ctrl-C) as its last message: with --json the event
    /// `{"event":"cancelled","message":text}`, so a reader's last event is always complete, error
    /// or cancelled; else the warning `text`. Worker threads may still report, but nothing is
    /// printed after it.
    func close(cancelled text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        if json {
            line(#"{"event":"cancelled","message":"\#(escaped(Self.unindented(text)))"}"#)
        } else {
            finish()
            let (message, handle) = warningLine(text)
            write(message, to: handle)
        }
        isClosed = true
    }

    private func warningLine(_ text: String) -> (String, FileHandle) {
        json ? (#"{"event":"warning","message":"\#(escaped(Self.unindented(text)))"}"# + "\n", .standardOutput)
            : ("warning: \(text)\n", .standardError)
    }

    func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        if json {
            line(#"{"event":"note","message":"\#(escaped(Self.unindented(text)))"}"#)
        } else {
            finish()
            write("\(text)\n", to: .standardError)
        }
    }

    /// Writes one line to standard output unbuffered, so programs reading the JSON lines through a
    /// pipe see each as it happens.
    private func line(_ text: String) {
        write(text + "\n", to: .standardOutput)
    }

    /// Writes `text` to `handle` unless the run was closed; one writer at a time.
    private func write(_ text: String, to handle: FileHandle) {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        handle.write(Data(text.utf8))
    }

    /// Reports a failure that ends the run: an `error` event with `--json` (the caller still exits
    /// non-zero and ArgumentParser prints the error on standard error), nothing otherwise.
    func failure(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        guard json else { return }
        finish()
        line(#"{"event":"error","message":"\#(escaped("\(error)"))"}"#)
    }

    /// The `complete` event ending a run, with `fields` (JSON values; keys sorted).
    func complete(_ fields: [String: Any]) {
        lock.lock()
        defer { lock.unlock() }
        var event = fields
        event["event"] = "complete"
        guard let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]) else {
            line(#"{"event":"error","message":"the result could not be written as JSON"}"#)
            return
        }
        line(String(decoding: data, as: UTF8.self))
    }

    /// `text` without the indentation that sets it off in the text output.
    static func unindented(_ text: String) -> String { String(text.drop { $0 == " " }) }

    /// `text` as the inside of a JSON string: quotes, backslashes and control characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private func escaped(_ text: String) -> String { Self.escaped(text) }

    func summary(poses: PhotogrammetrySession.Poses, seconds: Double, output: URL) {
        lock.lock()
        defer { lock.unlock() }
        let scene = poses.scene
        let stages = [ProcessingStage.features, .matching, .mapping].map {
            "\($0.rawValue) \(String(format: "%.1f", stageSeconds[$0] ?? 0)) s"
        }
        let meanError = scene.fit().meanReprojectionErrorPixels
        if json {
            let separate = poses.separateModels.enumerated().map { k, model in
                #"{"folder":"\#(PoseExport.separateModelsFolderName)/\#(k + 1)","registered":\#(model.registeredCount),"images":\#(model.images.count),"points":\#(model.points.count)}"#
            }.joined(separator: ",")
            let unregistered = (try? JSONSerialization.data(withJSONObject: scene.unregisteredJSON, options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
            line(#"{"event":"complete","registered":\#(scene.registeredCount),"images":\#(scene.images.count),"unregistered":\#(unregistered),"points":\#(scene.points.count),"mean_reprojection_error_px":\#(meanError.map { String(format: "%.4f", $0) } ?? "null"),"separate_models":[\#(separate)],"seconds":\#(String(format: "%.2f", seconds)),"output":"\#(escaped(output.path))"}"#)
            return
        }
        let error = meanError.map { String(format: " (mean reprojection error %.3f px)", $0) } ?? ""
        // Files skipped before matching (not decodable, not photos, refused) count among the images: say how many.
        let skipped = scene.images.filter { ($0.unregisteredReason ?? "").hasPrefix("skipped: ") }.count
        let skippedNote = skipped > 0 ? " (\(skipped) skipped before matching, listed below)" : ""
        print("registered \(scene.registeredCount)/\(scene.images.count) images\(skippedNote), \(scene.points.count) points\(error), \(poses.verifiedPairCount) of \(poses.matchedPairCount) matched pairs verified, in \(String(format: "%.1f", seconds)) s (\(stages.joined(separator: ", ")))")
        for line in scene.unregisteredLines { print(line) }
        print("wrote \(output.path)/poses.json, colmap/, sparse_pc.ply, transforms.json")
        for (k, model) in poses.separateModels.enumerated() {
            let folder = "\(PoseExport.separateModelsFolderName)/\(k + 1)"
            print("separate model \(k + 1): registered \(model.registeredCount)/\(model.images.count) images, \(model.points.count) points, "
                + "in its own frame; wrote \(output.path)/\(folder)/ (the same files)")
        }
    }
}
