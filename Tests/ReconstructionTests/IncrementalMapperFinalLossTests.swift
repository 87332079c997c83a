import Reconstruction
import ReconstructionCore
import XCTest

extension IncrementalMapperTests {
    /// Keypoint errors on real and rendered photos are not Gaussian: a share of keypoints is off by
    /// far more than the rest, and those errors are not independent (Benchmarks/pose-loops.md,
    /// "a robust final adjustment"). Here 10 % of each photo's keypoints are displaced by 1.8 px in
    /// one direction per photo, on top of 0.05 px Gaussian noise: still within the 2 px outlier
    /// filter, so only the loss can discount them. Least squares lets them bend the cameras; the
    /// default Cauchy loss at 10 σ of the measured noise must not.
    func testTheFinalAdjustmentDiscountsAShareOfDisplacedKeypoints() throws {
        XCTAssertNotNil(IncrementalMapper.Options().finalLossNoiseMultiple, "the default finish is robust")
        var ratios: [Double] = []
        for seed in UInt64(1)...6 {
            let scene = SyntheticScene(pointCount: 600, cameraCount: 8, seed: 100 + seed)
            var images = inputs(scene: scene, noisePixels: 0.05, seed: 200 + seed)
            var rng = SplitMix64(seed: 300 + seed)
            for c in images.indices {
                let angle = rng.uniform(0, 2 * .pi)
                for k in 0..<scene.points.count where rng.uniform(0, 1) < 0.1 {
                    images[c].features.positions[2 * k] += Float(1.8 * cos(angle))
                    images[c].features.positions[2 * k + 1] += Float(1.8 * sin(angle))
                }
            }
            let verified = geometries(scene: scene, images: scene.cameraFromWorld.count)
            let tracks = FeatureTracks(keypointCounts: images.map(\.features.count), geometries: verified)
            let truth = scene.cameraFromWorld.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.inverse) }
            func medianPositionError(lossNoiseMultiple: Double?) throws -> Double {
                var options = IncrementalMapper.Options()
                options.finalLossNoiseMultiple = lossNoiseMultiple
                var mapper = IncrementalMapper(images: images, tracks: tracks, geometries: verified, options: options)
                let result = try mapper.run()
                XCTAssertEqual(result.registeredCount, scene.cameraFromWorld.count)
                let estimated = result.images.enumerated().map { NamedPose(name: "\($0.offset)", worldFromCamera: $0.element.cameraFromWorld?.inverse) }
                return try PoseAccuracyReport.evaluate(estimated: estimated, groundTruth: truth).medianPositionError
            }
            let robust = try medianPositionError(lossNoiseMultiple: IncrementalMapper.Options().finalLossNoiseMultiple)
            let leastSquares = try medianPositionError(lossNoiseMultiple: nil)
            ratios.append(robust / leastSquares)
        }
        // Measured: 0.66–0.74 of least squares' error on these six seeds.
        for (seed, ratio) in zip(1..., ratios) { XCTAssertLessThan(ratio, 0.9, "seed \(seed)") }
        XCTAssertLessThan(ratios.reduce(0, +) / Double(ratios.count), 0.8)
    }
}
