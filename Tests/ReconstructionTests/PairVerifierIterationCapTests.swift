import Foundation
import Reconstruction
import XCTest

/// How many five-point samples the verifier lets RANSAC draw for a pair.
final class PairVerifierIterationCapTests: XCTestCase {
    func draws(ratio: Double, confidence: Double = 0.9999) -> Int {
        Int((log(1 - confidence) / log(1 - pow(ratio, 5))).rounded(.up))
    }

    func testFewMatchesNeedOnlyTheDrawsForTheirSmallestPassingInlierRatio() {
        let verifier = PairVerifier()
        // 59 matches, 20 needed to pass: a passing pair has at least 20/59 inliers.
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 59), draws(ratio: 20.0 / 59))
        XCTAssertLessThan(verifier.essentialIterationCap(matchCount: 59), 2_100)
        // No more matches than needed: any sample is all inliers if the pair passes.
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 20), 1)
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 0), 1)
    }

    func testManyMatchesDrawForTheLowestInlierRatioWithinTheCap() {
        var verifier = PairVerifier()
        // 2000 matches: 20 of them is 1 %, so the floor of 25 % decides (9 430 draws at 0.9999).
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 2_000), draws(ratio: 0.25))
        XCTAssertLessThanOrEqual(verifier.essentialIterationCap(matchCount: 2_000), verifier.options.maxIterations)
        verifier.options.maxIterations = 500
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 2_000), 500)
        verifier.options.minInlierRatio = 0.9
        XCTAssertEqual(verifier.essentialIterationCap(matchCount: 2_000), draws(ratio: 0.9))
    }
}
