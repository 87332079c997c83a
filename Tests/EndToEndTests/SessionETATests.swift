import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The session's time estimate on a real capture: at half the progress, the estimated time left
/// must be within 25 % of the time that actually remained. Skipped, saying so, without ../shared.
///
/// An estimate made at halfway can only assume the machine stays as fast as it has been; when
/// other processes take a different share of the CPU in the two halves (the CI and development
/// machines are shared), the true remainder moves for reasons no estimator can see. So each
/// attempt also measures the CPU that other processes used in each half (`/proc/stat` minus this
/// process): an attempt where that share differs by more than 10 % of the machine between the
/// halves, or exceeds 25 % in either, is reported and left out. A quiet machine measures 0–2 % in
/// both halves.
///
/// Not every slowdown shows there: on a virtual machine the host can slow this process's CPU
/// itself. A fresh-clone CI run measured 1 % and 0 % for others, yet its feature stage took 20 %
/// more CPU time than in every other run (8.9 s against 7.1–7.5 s) while matching and mapping
/// took the same, and the estimate made at the start of matching was off by +24.7 % (other runs:
/// −0.4 to +5.3 %). Such slowdowns can last longer than one attempt: in a full test run on
/// 2026-11-27 three attempts in a row measured 0 % for others, yet mapping took 7.2–8.8 s of CPU
/// where the same test alone, minutes later, took 3.5–4.4 s (features 10–13 s against 7–11 s),
/// and the estimates were 20–29 % short; alone they were −9 to +9 %. So five attempts are made,
/// and the median error of the undisturbed ones decides: two slowed attempts cannot fail the
/// test, and an estimator that is wrong is wrong in every attempt.
final class SessionETATests: XCTestCase {
    struct Attempt {
        var error: Double
        /// The estimate, the truth and the stages' times, for the failure message.
        var summary: String
        var othersShare: (first: Double, second: Double)
        /// Other processes took a different share of the CPU in the two halves, or a large one in
        /// either (their bursts then shift the stages' rates in ways the halves' averages hide).
        var disturbed: Bool {
            abs(othersShare.first - othersShare.second) > 0.10 || max(othersShare.first, othersShare.second) > 0.25
        }
    }

    func testETAAtHalfwayIsWithin25PercentOfTheTrueRemainderOnFountainP11() async throws {
        let scene = StrechaPosesTests.strecha.appendingPathComponent("fountain-P11")
        guard FileManager.default.fileExists(atPath: scene.path) else {
            throw XCTSkip("shared dataset absent: \(scene.path) (expected ../shared beside the repository)")
        }
        let images = scene.appendingPathComponent("images")
        let k = try PinholeIntrinsics.load(kFile: images.appendingPathComponent("K.txt"))
        let samples = try ImageFolder.listImages(in: images).enumerated().map { i, url in
            PhotogrammetrySample(id: i, image: .file(url), intrinsics: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        }
        var attempts: [Attempt] = []
        for _ in 0..<5 {
            let attempt = try await measure(samples)
            attempts.append(attempt)
            print(String(format: "other processes' CPU share: %.0f %% in the first half, %.0f %% in the second%@",
                         100 * attempt.othersShare.first, 100 * attempt.othersShare.second,
                         attempt.disturbed ? " (disturbed: left out)" : ""))
        }
        let undisturbed = attempts.filter { !$0.disturbed }.sorted { $0.error < $1.error }
        guard !undisturbed.isEmpty else {
            throw XCTSkip("every attempt was disturbed by other processes (ETA errors "
                + attempts.map { String(format: "%+.0f %%", 100 * $0.error) }.joined(separator: ", ") + ")")
        }
        let middle = undisturbed.count / 2
        let median = undisturbed.count % 2 == 1 ? undisturbed[middle].error
            : (undisturbed[middle - 1].error + undisturbed[middle].error) / 2
        XCTAssertLessThanOrEqual(abs(median), 0.25, String(
            format: "median ETA error at half the progress (%+.1f %%) within 25 %% of the true remainder; attempts: ", 100 * median)
            + undisturbed.map(\.summary).joined(separator: " | "))
    }

    private func measure(_ samples: [PhotogrammetrySample]) async throws -> Attempt {
        let session = try PhotogrammetrySession(input: samples)
        let start = ProcessInfo.processInfo.systemUptime
        let usageAtStart = CPUUsage.now()
        try session.process(requests: [.poses])

        var fraction = 0.0
        var halfway: (time: Double, fraction: Double, estimate: Double, stage: ProcessingStage, usage: CPUUsage)?
        var timeline: [(time: Double, fraction: Double, estimate: Double?)] = []
        var finished: Double?
        var stages: [PhotogrammetrySession.StageReport] = []
        for await output in session.outputs {
            let now = ProcessInfo.processInfo.systemUptime - start
            switch output {
            case .requestProgress(_, let f):
                fraction = f
            case .requestProgressInfo(_, let info):
                timeline.append((now, fraction, info.estimatedRemainingTime))
                if halfway == nil, fraction >= 0.5, let estimate = info.estimatedRemainingTime {
                    halfway = (now, fraction, estimate, info.stage, CPUUsage.now())
                }
            case .stageComplete(let report):
                stages.append(report)
            case .requestComplete(_, .poses(let poses)):
                finished = now
                XCTAssertEqual(poses.posesBySample.count, samples.count)
            case .requestError(_, let error):
                XCTFail("\(error)")
            default:
                break
            }
            if case .processingComplete = output { break }
        }
        let usageAtEnd = CPUUsage.now()
        let end = try XCTUnwrap(finished)
        let half = try XCTUnwrap(halfway)
        let remainder = end - half.time
        let error = (half.estimate - remainder) / remainder
        for t in timeline.enumerated() where t.offset % 6 == 0 {
            print(String(format: "  t %6.2f s  progress %5.1f %%  estimate %@  true %6.2f s", t.element.time, 100 * t.element.fraction,
                         t.element.estimate.map { String(format: "%6.2f s", $0) } ?? "   -    ", end - t.element.time))
        }
        let summary = String(format: "at %.1f %% (%@, t = %.2f s): %.2f s estimated, %.2f s true (error %+.1f %%); total %.2f s; ",
                             100 * half.fraction, half.stage.rawValue, half.time, half.estimate, remainder, 100 * error, end)
            + stages.map { String(format: "%@ %.2f s (cpu %.2f s)", $0.stage.rawValue, $0.seconds, $0.cpuSeconds) }
            .joined(separator: ", ")
        print("ETA " + summary)
        return Attempt(error: error, summary: summary, othersShare: (CPUUsage.othersShare(from: usageAtStart, to: half.usage),
                                                    CPUUsage.othersShare(from: half.usage, to: usageAtEnd)))
    }
}

/// The machine's busy CPU time and this process's, to tell how much other processes used.
struct CPUUsage {
    var wall: Double
    var machineBusy: Double
    var own: Double

    static func now() -> CPUUsage {
        CPUUsage(wall: ProcessClock.wallSeconds, machineBusy: machineBusySeconds(), own: ProcessClock.cpuSeconds)
    }

    /// Busy time of all CPUs from `/proc/stat` (user, nice, system, irq, softirq, steal), seconds.
    static func machineBusySeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return 0 }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return 0 }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) / ticks
    }

    /// The share of the machine's CPU capacity other processes used between `a` and `b` (0…1).
    static func othersShare(from a: CPUUsage, to b: CPUUsage) -> Double {
        let capacity = (b.wall - a.wall) * Double(ProcessInfo.processInfo.activeProcessorCount)
        guard capacity > 0 else { return 0 }
        return max(0, ((b.machineBusy - a.machineBusy) - (b.own - a.own)) / capacity)
    }
}
