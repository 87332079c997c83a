import Foundation
import Reconstruction

/// Prints pipeline progress: a one-line bar on a terminal, JSON lines with `--json`, and
/// occasional plain lines otherwise (logs, CI).
final class ProgressReporter: @unchecked Sendable {
    private let json: Bool
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var lastStage: PoseEstimation.Stage?
    private var lastDecile = -1

    init(json: Bool) { self.json = json }

    func progress(_ p: PoseEstimation.Progress) {
        lock.lock()
        defer { lock.unlock() }
        if json {
            print(#"{"event":"progress","stage":"\#(p.stage.rawValue)","fraction":\#(String(format: "%.4f", p.fraction))}"#)
            return
        }
        let decile = Int(p.fraction * 10)
        if isTerminal {
            let width = 30, filled = Int(p.fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write("\r\(p.stage.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) [\(bar)] \(Int(p.fraction * 100))%".data(using: .utf8)!)
        } else if p.stage != lastStage || decile != lastDecile {
            if decile % 5 == 0 || p.stage != lastStage {
                FileHandle.standardError.write("\(p.stage.rawValue): \(Int(p.fraction * 100))%\n".data(using: .utf8)!)
            }
        }
        lastStage = p.stage
        lastDecile = decile
    }

    func finish() {
        if isTerminal && !json { FileHandle.standardError.write("\n".data(using: .utf8)!) }
    }

    func warning(_ text: String) {
        if json {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            print(#"{"event":"warning","message":"\#(escaped)"}"#)
        } else {
            FileHandle.standardError.write("warning: \(text)\n".data(using: .utf8)!)
        }
    }

    func summary(report: PoseEstimation.Report, seconds: Double, output: URL) {
        let scene = report.scene
        let stages = PoseEstimation.Stage.allCases.map { "\($0.rawValue) \(String(format: "%.1f", report.stageSeconds[$0] ?? 0)) s" }
        if json {
            print(#"{"event":"complete","registered":\#(scene.registeredCount),"images":\#(scene.images.count),"points":\#(scene.points.count),"seconds":\#(String(format: "%.2f", seconds)),"output":"\#(output.path)"}"#)
            return
        }
        print("registered \(scene.registeredCount)/\(scene.images.count) images, \(scene.points.count) points, \(report.verifiedPairCount) verified pairs in \(String(format: "%.1f", seconds)) s (\(stages.joined(separator: ", ")))")
        for image in scene.images where !image.isRegistered {
            print("  not registered: \(image.name): \(image.unregisteredReason ?? "unknown")")
        }
        print("wrote \(output.path)/poses.json, colmap/, transforms.json")
    }
}
