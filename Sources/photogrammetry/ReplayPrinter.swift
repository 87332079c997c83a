import CaptureReplay
import Foundation

/// Prints a capture replay's per-frame report and summary, as text or JSON lines.
struct ReplayPrinter {
    let json: Bool
    let quiet: Bool

    func frame(_ report: FrameReport) {
        guard !quiet else { return }
        if json {
            line(encoded(Event(event: "frame", payload: report)))
            return
        }
        let time = report.timestamp.map { String(format: "t=%7.2f s", $0) } ?? String(repeating: " ", count: 11)
        var text = "#\(String(report.index).padding(toLength: 4, withPad: " ", startingAt: 0)) \(report.image)  \(time)  "
        switch report.outcome {
        case .invalid: text += "invalid: \(report.reason ?? "")"
        case .detecting: text += "detecting" + (report.reason.map { ", waiting: \($0)" } ?? "")
        case .boxConfirmed: text += "detecting: box confirmed, capturing from the next frame"
        case .saved: text += "saved as \(report.shot ?? "?")  dial \(report.dialFilledBins)/\(report.dialTotalBins)"
            + (report.note.map { " (\($0))" } ?? "")
        case .rejected: text += "rejected: \(report.reason ?? "")"
        }
        if let pass = report.completedPass { text += "  (scan pass \(pass) completed)" }
        if let a = report.analysis {
            let fraction = a.boxFractionInView.map { String(format: "%.0f%%", 100 * $0) } ?? "-"
            text += String(format: "   [luminance %.2f, sharpness %.0f, texture %.2f, box in view %@]",
                           a.meanLuminance, a.sharpness, a.textureScore, fraction)
        }
        print(text)
    }

    func summary(_ summary: ReplaySummary, output: URL, seconds: Double) {
        if json {
            line(encoded(Event(event: "summary", payload: summary)))
            return
        }
        print("\(summary.frames) frames: \(summary.invalidFrames) invalid, \(summary.detectingFrames) detecting, \(summary.capturingFrames) capturing; \(summary.savedShots) shots saved"
              + (summary.shotsWithoutDepth > 0 ? " (\(summary.shotsWithoutDepth) with depth that could not be used left out)" : ""))
        let rejections = summary.rejectedByFeedback.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print("rejected: \(rejections.isEmpty ? "none by feedback" : rejections.joined(separator: ", ")); \(summary.rejectedWithoutNewViewpoint) without a new viewpoint; \(summary.rejectedAtShotLimit) at the shot limit")
        let passNumbers = summary.completedPasses.map(String.init)
        let passes = passNumbers.isEmpty ? "no scan pass completed"
            : passNumbers.count == 1 ? "scan pass \(passNumbers[0]) completed"
            : "scan passes \(passNumbers.dropLast().joined(separator: ", ")) and \(passNumbers.last!) completed"
        let flip = summary.flipRecommended.map { $0 ? "flip recommended" : "not flippable: do another pass at a different height" } ?? "no flip advice"
        print("coverage dial \(summary.dialFilledBins)/\(summary.dialTotalBins); \(passes); \(flip); session \(summary.finalState)")
        // With no shot the command fails (and removes the folder if it made it): nothing was written.
        guard summary.savedShots > 0 else { return }
        print(String(format: "wrote %d shots%@%@ to %@ in %.1f s", summary.savedShots, summary.wroteIntrinsics ? ", K.txt" : "",
                     summary.wroteTrackedPoses ? ", tracked_poses.json" : "", output.path, seconds))
    }

    /// A report with an "event" key in front of its own keys.
    private struct Event<Payload: Encodable>: Encodable {
        var event: String
        var payload: Payload

        enum Key: String, CodingKey { case event }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(event, forKey: .event)
            try payload.encode(to: encoder)
        }
    }

    private func encoded<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? #"{"event":"error"}"#
    }

    /// One line to standard output, unbuffered, so a reader on a pipe sees it as it happens.
    private func line(_ text: String) {
        FileHandle.standardOutput.write((text + "\n").data(using: .utf8)!)
    }
}
