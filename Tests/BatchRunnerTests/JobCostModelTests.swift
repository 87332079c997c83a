import BatchRunner
import Foundation
import ReconstructionCore
import XCTest

/// The memory estimate reproduces the measured peaks it was fitted to.
final class JobCostModelTests: XCTestCase {
    func testPoseEstimatesMatchMeasuredPeaksWithinTenPercent() {
        // Peak resident memory of `photogrammetry poses` (two threads) on synthetic vases.
        let measured: [(images: Int, width: Int, height: Int, megabytes: Double)] = [
            (30, 320, 240, 135), (30, 640, 480, 266), (60, 640, 480, 293), (30, 1024, 768, 539), (30, 1600, 1200, 1183),
        ]
        let model = JobCostModel()
        for m in measured {
            let facts = JobFacts(imageCount: m.images, largestImagePixels: m.width * m.height)
            let estimate = Double(model.estimateBytes(facts: facts, spec: nil, threads: 2)) / 1e6
            XCTAssertEqual(estimate, m.megabytes, accuracy: m.megabytes * 0.1, "\(m.images) × \(m.width)×\(m.height)")
        }
    }

    func testModelRequestsNeedTheLargerOfThePoseAndModelStagesWorkingMemory() {
        let facts = JobFacts(imageCount: 30, largestImagePixels: 320 * 240)
        let poses = JobSpec(id: "p", input: "/x", requests: [.poses])
        let model = JobSpec(id: "m", input: "/x", requests: [.poses, .model(.init(detail: .preview, format: .glb))])
        let cost = JobCostModel()
        XCTAssertEqual(cost.estimateBytes(facts: facts, spec: model, threads: 1),
                       cost.baseBytes + 30 * 320 * 240 * cost.modelBytesPerStereoPixel + 1024 * 1024 * cost.modelBytesPerTexel)
        XCTAssertLessThan(cost.estimateBytes(facts: facts, spec: poses, threads: 1), cost.estimateBytes(facts: facts, spec: model, threads: 1))
        // Measured: the whole preview job (poses and model) peaked at 252 MB.
        XCTAssertEqual(Double(cost.estimateBytes(facts: facts, spec: model, threads: 2)) / 1e6, 252, accuracy: 252 * 0.15)
    }

    func testTheModelTermFollowsTheStereoSizeOfTheLargestRequestedLevel() {
        // Twelve-megapixel photos: stereo at 768 px for preview, 1536 px for full.
        let facts = JobFacts(imageCount: 40, largestImagePixels: 4000 * 3000)
        func spec(_ levels: [DetailLevel]) -> JobSpec {
            JobSpec(id: "m", input: "/x", requests: levels.map { .model(.init(detail: $0, format: .usdz, path: "\($0.rawValue).usdz")) })
        }
        var cost = JobCostModel()
        cost.extractionBytesPerMegapixel = 0 // isolate the model term
        cost.bytesPerFeature = 0
        func modelBytes(_ levels: [DetailLevel]) -> Int { cost.estimateBytes(facts: facts, spec: spec(levels), threads: 1) - cost.baseBytes }
        XCTAssertEqual(modelBytes([.preview]), 40 * 768 * 576 * cost.modelBytesPerStereoPixel + 1024 * 1024 * cost.modelBytesPerTexel)
        XCTAssertEqual(modelBytes([.preview, .full]), 40 * 1536 * 1152 * cost.modelBytesPerStereoPixel + 8192 * 8192 * cost.modelBytesPerTexel)
        XCTAssertEqual(modelBytes([.medium]), 40 * 1024 * 768 * cost.modelBytesPerStereoPixel + 4096 * 4096 * cost.modelBytesPerTexel)
        // Photos smaller than the stereo size are not scaled up.
        let small = JobFacts(imageCount: 40, largestImagePixels: 640 * 480)
        XCTAssertEqual(cost.estimateBytes(facts: small, spec: spec([.full]), threads: 1) - cost.baseBytes,
                       40 * 640 * 480 * cost.modelBytesPerStereoPixel + 8192 * 8192 * cost.modelBytesPerTexel)
    }
}
