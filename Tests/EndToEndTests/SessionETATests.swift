import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The session's time estimate on a real capture: at half the progress, the estimated time left
/// must be within 25 % of the time that actually remained. Skipped, saying so, without ../shared.
final class SessionETATests: XCTestCase {
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
        let session = try PhotogrammetrySession(input: samples)
        let start = ProcessInfo.processInfo.systemUptime
        try session.process(requests: [.poses])

        var fraction = 0.0
        var halfway: (time: Double, fraction: Double, estimate: Double, stage: ProcessingStage)?
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
                    halfway = (now, fraction, estimate, info.processingStage)
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
        let end = try XCTUnwrap(finished)
        let half = try XCTUnwrap(halfway)
        let remainder = end - half.time
        let error = (half.estimate - remainder) / remainder
        for t in timeline.enumerated() where t.offset % 6 == 0 {
            print(String(format: "  t %6.2f s  progress %5.1f %%  estimate %@  true %6.2f s", t.element.time, 100 * t.element.fraction,
                         t.element.estimate.map { String(format: "%6.2f s", $0) } ?? "   -    ", end - t.element.time))
        }
        print("stages: " + stages.map { String(format: "%@ %.2f s (cpu %.2f s)", $0.stage.rawValue, $0.seconds, $0.cpuSeconds) }
            .joined(separator: ", "))
        print(String(format: "ETA at %.1f %% (%@, t = %.2f s): %.2f s estimated, %.2f s true (error %+.1f %%); total %.2f s",
                     100 * half.fraction, half.stage.rawValue, half.time, half.estimate, remainder, 100 * error, end))
        XCTAssertLessThanOrEqual(abs(error), 0.25, "ETA at half the progress within 25 % of the true remainder")
    }
}
