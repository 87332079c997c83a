import Foundation
import Reconstruction
import XCTest

final class FeatureExtractorTests: XCTestCase {
    /// A textured image: many Gaussian blobs of several sizes at deterministic places.
    func texturedImage(width: Int, height: Int, shiftX: Int = 0, shiftY: Int = 0) -> Data {
        var rng = SplitMix64(seed: 42)
        let blobs = (0..<400).map { _ in (rng.uniform(0, 800), rng.uniform(0, 600), rng.uniform(2, 9), rng.uniform(-120, 120)) }
        var image = [Double](repeating: 128, count: width * height)
        for (bx, by, sigma, amplitude) in blobs {
            let r = Int(3 * sigma)
            let ys = max(0, Int(by) - r - shiftY), ye = min(height - 1, Int(by) + r - shiftY)
            let xs = max(0, Int(bx) - r - shiftX), xe = min(width - 1, Int(bx) + r - shiftX)
            guard ys <= ye, xs <= xe else { continue }
            for y in ys...ye {
                for x in xs...xe {
                    let dx = Double(x + shiftX) - bx, dy = Double(y + shiftY) - by
                    image[y * width + x] += amplitude * exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
                }
            }
        }
        return pgm(width: width, height: height) { x, y in UInt8(max(0, min(255, image[y * width + x].rounded()))) }
    }

    func testFindsFeaturesInsideTheImage() throws {
        let features = try FeatureExtractor().extract(encoded: texturedImage(width: 640, height: 480))
        XCTAssertEqual(features.imageWidth, 640)
        XCTAssertEqual(features.imageHeight, 480)
        XCTAssertGreaterThan(features.count, 200)
        XCTAssertEqual(features.descriptors.count, 128 * features.count)
        for i in 0..<features.count {
            let p = features.position(i)
            XCTAssertTrue(p.x >= 0 && p.x <= 640 && p.y >= 0 && p.y <= 480)
        }
    }

    func testMaxFeaturesCapsTheCount() throws {
        var options = FeatureExtractor.Options()
        options.maxFeatures = 100
        XCTAssertEqual(try FeatureExtractor(options: options).extract(encoded: texturedImage(width: 640, height: 480)).count, 100)
    }

    /// A shifted copy of an image: matched keypoints must differ by exactly the shift.
    func testMatchedKeypointsFollowAnImageShiftToSubpixelPrecision() throws {
        let a = try FeatureExtractor().extract(encoded: texturedImage(width: 640, height: 480))
        let b = try FeatureExtractor().extract(encoded: texturedImage(width: 640, height: 480, shiftX: 12, shiftY: 7))
        let matches = try DescriptorMatcher().match(a.descriptors, b.descriptors)
        XCTAssertGreaterThan(matches.count, 100)
        var errors: [Double] = []
        for (i, j) in matches {
            let p = a.position(Int(i)), q = b.position(Int(j))
            errors.append(hypot(p.x - 12 - q.x, p.y - 7 - q.y))
        }
        errors.sort()
        XCTAssertLessThan(errors[errors.count / 2], 0.1, "median keypoint displacement error, pixels")
    }

    /// A single blob centred on a known pixel: the keypoint lands on it (pixel centres at +0.5).
    func testKeypointOfABlobIsAtItsCentreInThePixelConvention() throws {
        let data = pgm(width: 200, height: 160) { x, y in
            let dx = Double(x) - 100, dy = Double(y) - 80  // centre of pixel (100, 80) is (100.5, 80.5)
            return UInt8(40 + 180 * exp(-(dx * dx + dy * dy) / (2 * 36)))
        }
        let features = try FeatureExtractor().extract(encoded: data)
        XCTAssertGreaterThan(features.count, 0)
        let p = features.position(0)
        XCTAssertEqual(p.x, 100.5, accuracy: 0.1)
        XCTAssertEqual(p.y, 80.5, accuracy: 0.1)
    }
}
