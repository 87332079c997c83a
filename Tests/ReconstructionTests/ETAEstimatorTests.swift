import Reconstruction
import ReconstructionCore
import XCTest

final class ETAEstimatorTests: XCTestCase {
    func testStagesRunningAtTheirExpectedRatesGiveTheExactRemainder() throws {
        // Weights 1 : 3, durations 10 s and 30 s.
        var eta = ETAEstimator(stages: [(.features, 1), (.matching, 3)])
        eta.begin(.features, at: 0)
        XCTAssertNil(eta.update(.features, fraction: 0, at: 0), "nothing measured yet")
        for t in stride(from: 1.0, through: 10, by: 1) {
            let estimate = try XCTUnwrap(eta.update(.features, fraction: t / 10, at: t))
            XCTAssertEqual(estimate, 40 - t, accuracy: 1e-9)
        }
        eta.finish(.features, at: 10)
        eta.begin(.matching, at: 10)
        XCTAssertEqual(try XCTUnwrap(eta.update(.matching, fraction: 0, at: 10)), 30, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(eta.update(.matching, fraction: 0.5, at: 25)), 15, accuracy: 1e-9)
        XCTAssertEqual(eta.overallFraction, 0.25 + 0.75 * 0.5, accuracy: 1e-12)
    }

    func testASlowerMachineIsLearnedFromTheFinishedStages() throws {
        var eta = ETAEstimator(stages: [(.features, 1), (.matching, 3)])
        eta.begin(.features, at: 0)
        _ = eta.update(.features, fraction: 0.5, at: 10)
        eta.finish(.features, at: 20)  // twice the time of the first example
        XCTAssertEqual(try XCTUnwrap(eta.update(.matching, fraction: 0, at: 20)), 60, accuracy: 1e-9)
    }

    func testTheRunningStagesOwnRateWinsOnceItHasProgressAndJumpsAreSmoothed() throws {
        var eta = ETAEstimator(stages: [(.features, 1), (.matching, 1)], smoothing: 0.5)
        eta.begin(.features, at: 0)
        eta.finish(.features, at: 10)
        // Matching turns out 3× slower than features: 30 s.
        let first = try XCTUnwrap(eta.update(.matching, fraction: 0.1, at: 13))
        XCTAssertEqual(first, 27, accuracy: 1e-9, "3 s for 10 %: 27 s left")
        // A burst (the next 10 % in 1 s) moves the estimate only halfway to the raw 14 s.
        let second = try XCTUnwrap(eta.update(.matching, fraction: 0.2, at: 14))
        let raw = 4.0 * 0.8 / 0.2
        XCTAssertEqual(second, 0.5 * raw + 0.5 * (27 - 1), accuracy: 1e-9)
    }

    func testRestoredStagesCountAsDoneAndTeachNothing() throws {
        var eta = ETAEstimator(stages: [(.features, 1), (.matching, 3)])
        eta.begin(.features, at: 0)
        eta.finish(.features, at: 0.01, restored: true)
        XCTAssertEqual(eta.overallFraction, 0.25, accuracy: 1e-12)
        XCTAssertNil(eta.update(.matching, fraction: 0, at: 0.01), "a restored stage says nothing about speed")
        XCTAssertNil(eta.update(.matching, fraction: 0.001, at: 0.012),
                     "nor do the first moments of the next: 2 ms for 0.1 % would say 2 s for 30 s of work")
        XCTAssertEqual(try XCTUnwrap(eta.update(.matching, fraction: 0.5, at: 15.01)), 15, accuracy: 1e-9)
    }

    func testPoseStageWeightsFollowImageAndPairCounts() {
        let weights = Dictionary(uniqueKeysWithValues: ETAEstimator.poseStageWeights(imageCount: 11, pairCount: 55, workers: 2)
            .map { ($0.0, $0.weight) })
        let doubled = Dictionary(uniqueKeysWithValues: ETAEstimator.poseStageWeights(imageCount: 22, pairCount: 231, workers: 2)
            .map { ($0.0, $0.weight) })
        XCTAssertEqual(doubled[.features]! / weights[.features]!, 2, accuracy: 1e-12)
        XCTAssertEqual(doubled[.matching]! / weights[.matching]!, 231.0 / 55, accuracy: 1e-12)
        XCTAssertEqual(doubled[.mapping]! / weights[.mapping]!, 2, accuracy: 1e-12)
    }

    func testTheDenseWeightGrowsWithTheStereoPixelCount() {
        func weights(_ size: Int) -> [ProcessingStage: Double] {
            Dictionary(uniqueKeysWithValues: ETAEstimator.modelStageWeights(imageCount: 11, models: [DetailLevel.medium.budget()],
                                                                            stereoImageDimension: size, workers: 2)
                .map { ($0.0, $0.weight) })
        }
        let base = weights(1024), full = weights(1536), preview = weights(768)
        XCTAssertEqual(full[.dense]! / base[.dense]!, 2.25, accuracy: 1e-12)
        XCTAssertEqual(preview[.dense]! / base[.dense]!, 0.5625, accuracy: 1e-12)
        XCTAssertEqual(full[.model]!, base[.model]!, "baking does not depend on the stereo size")
    }

    /// Baking and writing grow with the texels of the models' maps: a full model (five 8192² maps)
    /// took 102 s to bake and about 30 s to write where a preview takes a few seconds.
    func testTheModelAndExportWeightsGrowWithTheTextures() {
        func weights(_ levels: [DetailLevel]) -> [ProcessingStage: Double] {
            Dictionary(uniqueKeysWithValues: ETAEstimator.modelStageWeights(imageCount: 8, models: levels.map { $0.budget() }, workers: 2)
                .map { ($0.0, $0.weight) })
        }
        let preview = weights([.preview]), medium = weights([.medium]), full = weights([.full]), none = weights([])
        XCTAssertEqual(DetailLevel.full.budget().texelCount, 5 * 8192 * 8192)
        // On the same cores (the weights divide by them): a full model bakes 10 to 30 times longer than a preview.
        XCTAssertGreaterThan(full[.model]! / preview[.model]!, 10)
        XCTAssertLessThan(full[.model]! / preview[.model]!, 30)
        XCTAssertGreaterThan(full[.export]!, 20, "writing does not divide by the cores")
        XCTAssertGreaterThan(medium[.model]!, 3 * preview[.model]!)
        XCTAssertEqual(none[.model]!, 0)
        XCTAssertEqual(weights([.preview, .full])[.export]!, preview[.export]! + full[.export]!, accuracy: 1e-9)
    }
}
