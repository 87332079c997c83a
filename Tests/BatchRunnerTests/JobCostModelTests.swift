import BatchRunner
import Foundation
import ReconstructionCore
import XCTest

/// The memory estimate reproduces the measured peaks it was fitted to.
final class JobCostModelTests: XCTestCase {
    func testPoseEstimatesMatchMeasuredPeaksWithinTenPercent() {
        // Peak resident memory of `photogrammetry poses` (two threads): synthetic vases, then
        // fountain-P11 and Herz-Jesus-P8 (above 1600 px SIFT starts at the photo's own size), then
        // 40 phone-sized vase photos (scaled to 3200 px for SIFT).
        let measured: [(images: Int, width: Int, height: Int, megabytes: Double)] = [
            (30, 320, 240, 153), (30, 640, 480, 280), (60, 640, 480, 281), (30, 1024, 768, 558), (30, 1600, 1200, 1187),
            (11, 3072, 2048, 1003), (8, 3072, 2048, 967), (40, 4032, 3024, 1699),
        ]
        let model = JobCostModel()
        for m in measured {
            let facts = JobFacts(imageCount: m.images, largestImagePixels: m.width * m.height)
            let estimate = Double(model.estimateBytes(facts: facts, spec: nil, threads: 2)) / 1e6
            XCTAssertEqual(estimate, m.megabytes, accuracy: m.megabytes * 0.1, "\(m.images) × \(m.width)×\(m.height)")
        }
    }

    func testModelEstimatesMatchMeasuredPeaksWithinFifteenPercent() {
        // Peak resident memory of `photogrammetry reconstruct … --detail LEVEL` (two threads, stereo
        // at the level's size), Benchmarks/batch.md ("Memory estimate"); megabytes of 10⁶ bytes.
        let measured: [(images: Int, width: Int, height: Int, level: DetailLevel, megabytes: Double)] = [
            (11, 3072, 2048, .medium, 1613), (11, 3072, 2048, .full, 3995), (8, 3072, 2048, .medium, 1441), (8, 3072, 2048, .full, 3741),
            (40, 1024, 768, .preview, 1267), (40, 1024, 768, .medium, 2608), (40, 1024, 768, .full, 4281), (30, 320, 240, .preview, 252),
            (40, 4032, 3024, .preview, 2394), (40, 4032, 3024, .reduced, 3162), (40, 4032, 3024, .medium, 4333),
        ]
        for m in measured {
            let facts = JobFacts(imageCount: m.images, largestImagePixels: m.width * m.height)
            let spec = JobSpec(id: "m", input: "/x", requests: [.poses, .model(.init(detail: m.level, format: .usdz))])
            let estimate = Double(JobCostModel().estimateBytes(facts: facts, spec: spec, threads: 2)) / 1e6
            let label = "\(m.images) × \(m.width)×\(m.height) \(m.level.rawValue)"
            XCTAssertGreaterThan(estimate, m.megabytes * 0.85, label)
            XCTAssertLessThan(estimate, m.megabytes * 1.15, label)
        }
    }

    func testModelRequestsNeedTheLargerOfThePoseAndModelStagesWorkingMemory() {
        let facts = JobFacts(imageCount: 30, largestImagePixels: 320 * 240)
        let poses = JobSpec(id: "p", input: "/x", requests: [.poses])
        let model = JobSpec(id: "m", input: "/x", requests: [.poses, .model(.init(detail: .preview, format: .glb))])
        let cost = JobCostModel()
        let perPhoto = 320.0 * 240 * (cost.modelBytesPerStereoPixel + cost.modelBytesPerBakingPixel + cost.modelBytesPerPhotoPixel)
        XCTAssertEqual(Double(cost.estimateBytes(facts: facts, spec: model, threads: 1)),
                       cost.baseBytes + 30 * perPhoto + 1024 * 1024 * cost.modelBytesPerTexel, accuracy: 1)
        XCTAssertLessThan(cost.estimateBytes(facts: facts, spec: poses, threads: 1), cost.estimateBytes(facts: facts, spec: model, threads: 1))
    }

    func testTheModelTermFollowsTheStereoSizeAndTextureOfTheLargestRequestedLevel() {
        // Twelve-megapixel photos: stereo at 768 px for preview, 1536 px for full.
        let facts = JobFacts(imageCount: 40, largestImagePixels: 4000 * 3000)
        func spec(_ levels: [DetailLevel]) -> JobSpec {
            JobSpec(id: "m", input: "/x", requests: levels.map { .model(.init(detail: $0, format: .usdz, path: "\($0.rawValue).usdz")) })
        }
        var cost = JobCostModel()
        cost.extractionBytesPerScaleSpacePixel = 0 // isolate the model term
        cost.decodingBytesPerPhotoPixel = 0
        cost.bytesPerFeature = 0
        cost.modelBytesPerPhotoPixel = 0
        func modelBytes(_ levels: [DetailLevel]) -> Double {
            Double(cost.estimateBytes(facts: facts, spec: spec(levels), threads: 1)) - cost.baseBytes
        }
        // Baking decodes 4000×3000 photos at 1/2 for a 1K texture, whole for 8K.
        XCTAssertEqual(modelBytes([.preview]), 40 * (768 * 576 * cost.modelBytesPerStereoPixel + 2000 * 1500 * cost.modelBytesPerBakingPixel)
                           + 1024 * 1024 * cost.modelBytesPerTexel, accuracy: 1)
        XCTAssertEqual(modelBytes([.preview, .full]), 40 * (1536 * 1152 * cost.modelBytesPerStereoPixel + 4000 * 3000 * cost.modelBytesPerBakingPixel)
                           + 8192 * 8192 * cost.modelBytesPerTexel, accuracy: 1)
        XCTAssertLessThan(modelBytes([.preview]), modelBytes([.medium]))
        XCTAssertLessThan(modelBytes([.medium]), modelBytes([.full]))
        // Photos smaller than the stereo size are not scaled up.
        let small = JobFacts(imageCount: 40, largestImagePixels: 640 * 480)
        XCTAssertEqual(Double(cost.estimateBytes(facts: small, spec: spec([.full]), threads: 1)) - cost.baseBytes,
                       40 * 640 * 480 * (cost.modelBytesPerStereoPixel + cost.modelBytesPerBakingPixel) + 8192 * 8192 * cost.modelBytesPerTexel,
                       accuracy: 1)
    }

    func testScaleSpaceAndBakingSizesFollowTheExtractorAndTheBaker() {
        XCTAssertEqual(JobCostModel.scaleSpacePixels(photoPixels: 1600 * 1200), 4 * 1600 * 1200, "doubled up to 1600 px")
        XCTAssertEqual(JobCostModel.scaleSpacePixels(photoPixels: 3072 * 2048), 3072 * 2048, "the photo's own size above")
        XCTAssertEqual(JobCostModel.scaleSpacePixels(photoPixels: 8000 * 6000), 3200 * 2400, "scaled to 3200 px first")
        XCTAssertEqual(JobCostModel.bakingPixels(photoPixels: 4000 * 3000, textureSide: 1024), 2000 * 1500)
        XCTAssertEqual(JobCostModel.bakingPixels(photoPixels: 12000 * 9000, textureSide: 1024), 1500 * 1125, "at most 1/8")
        XCTAssertEqual(JobCostModel.bakingPixels(photoPixels: 3072 * 2048, textureSide: 4096), 3072 * 2048)
    }
}
