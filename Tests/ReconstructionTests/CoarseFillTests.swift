import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Filling the pixels dense stereo leaves empty at the working resolution with the coarse pass's
/// confirmed depths.
final class CoarseFillTests: XCTestCase {
    /// Depth along z of the plane `normal · X = offset` (camera frame) through pixel (x, y).
    static func planeDepth(_ k: CameraIntrinsics, x: Double, y: Double, normal: SIMD3<Double>, offset: Double) -> Float {
        let ray = SIMD3<Double>((x - k.cx) / k.fx, (y - k.cy) / k.fy, 1)
        return Float(offset / (normal * ray).sum())
    }

    /// A slanted plane seen by a camera at two resolutions: the coarse map is exact where it has
    /// depth; the fine map has a hole, a masked-out strip and a column the coarse map lacks.
    func testEmptyPixelsTakeTheCoarsePlaneWhereAllowedAndKeptPixelsStay() {
        let tilt = 30.0 * Double.pi / 180
        let normal = SIMD3<Double>(sin(tilt), 0, -cos(tilt))  // faces the camera
        let offset = normal.z * 5  // through (0, 0, 5)
        let fine = CameraIntrinsics(width: 80, height: 60, fx: 80, fy: 80, cx: 40, cy: 30)
        let coarse = CameraIntrinsics(width: 40, height: 30, fx: 40, fy: 40, cx: 20, cy: 15)

        var coarseDepth = DepthMap(width: 40, height: 30)
        var coarseConfidence = [Float](repeating: 0, count: 40 * 30)
        var coarseNormals = [SIMD3<Float>](repeating: .zero, count: 40 * 30)
        for y in 0..<30 {
            for x in 0..<40 where x != 5 {  // coarse column 5 has no depth
                let i = y * 40 + x
                coarseDepth.metres[i] = Self.planeDepth(coarse, x: Double(x) + 0.5, y: Double(y) + 0.5, normal: normal, offset: offset)
                coarseConfidence[i] = 0.8
                coarseNormals[i] = SIMD3<Float>(normal)
            }
        }
        let coarseView = ViewDepth(name: "v", intrinsics: coarse, worldFromCamera: .identity, depth: coarseDepth,
                                   normalsInCamera: coarseNormals, confidence: coarseConfidence)

        // Fine: a sentinel depth everywhere except a hole (rows 10..<40, columns 0..<60).
        var fineDepth = DepthMap(width: 80, height: 60)
        var fineConfidence = [Float](repeating: 0, count: 80 * 60)
        var fineNormals = [SIMD3<Float>](repeating: .zero, count: 80 * 60)
        func inHole(_ x: Int, _ y: Int) -> Bool { (10..<40).contains(y) && x < 60 }
        for y in 0..<60 {
            for x in 0..<80 where !inHole(x, y) {
                fineDepth.metres[y * 80 + x] = 3
                fineConfidence[y * 80 + x] = 0.9
                fineNormals[y * 80 + x] = SIMD3(0, 0, -1)
            }
        }
        let fineView = ViewDepth(name: "v", intrinsics: fine, worldFromCamera: .identity, depth: fineDepth,
                                 normalsInCamera: fineNormals, confidence: fineConfidence)
        // The mask forbids columns 50..<60.
        var mask = GrayImage(width: 80, height: 60, fill: 255)
        for y in 0..<60 { for x in 50..<60 { mask.pixels[y * 80 + x] = 0 } }

        let (result, filled) = fineView.fillingEmptyPixels(from: coarseView, mask: mask, confidenceScale: 0.5)
        // Hole: 30 rows × 60 columns, minus masked columns 50..<60 and fine columns 10, 11 (coarse column 5).
        XCTAssertEqual(filled, 30 * (60 - 10 - 2))
        for y in 0..<60 {
            for x in 0..<80 {
                let i = y * 80 + x
                if !inHole(x, y) {
                    XCTAssertEqual(result.depth.metres[i], 3, "kept depth at (\(x), \(y)) is untouched")
                    XCTAssertEqual(result.confidence[i], 0.9)
                } else if (50..<60).contains(x) || x == 10 || x == 11 {
                    XCTAssertEqual(result.depth.metres[i], 0, "(\(x), \(y)) stays empty")
                    XCTAssertEqual(result.confidence[i], 0)
                } else {
                    let truth = Self.planeDepth(fine, x: Double(x) + 0.5, y: Double(y) + 0.5, normal: normal, offset: offset)
                    XCTAssertEqual(result.depth.metres[i], truth, accuracy: 1e-4 * truth, "the plane through (\(x), \(y))")
                    XCTAssertEqual(result.confidence[i], 0.4, accuracy: 1e-6)
                    XCTAssertEqual(result.normalsInCamera[i], SIMD3<Float>(normal))
                }
            }
        }
    }

    /// When the working resolution's passes give no depth at all (their texture threshold is set
    /// out of reach), the coarse depths the neighbours confirm fill the maps, accurately; without
    /// the fill they stay empty.
    func testDenseStereoFillsWhatTheWorkingResolutionLeavesEmpty() throws {
        let scene = StereoTestScene.boxCorner()
        var options = DenseStereoTests.options()
        options.photometric.iterations = 0  // the coarse result stands in for the photometric pass
        options.geometric.minTexture = 1e6  // no window is textured enough at the working resolution
        let input = DenseStereoTests.input(scene)

        var without = options
        without.fillsFromCoarse = false
        let empty = try DenseStereo(options: without).run(input)
        XCTAssertEqual(empty.views[0].depth.metres.filter { $0 > 0 }.count, 0, "the working resolution gives no depth")

        let result = try DenseStereo(options: options).run(input)
        let view = result.views[0]
        let truth = scene.trueDepth(camera: 0)
        let valid = view.depth.metres.indices.filter { view.depth.metres[$0] > 0 }
        let within = valid.filter { abs(view.depth.metres[$0] - truth.metres[$0]) <= 0.01 * truth.metres[$0] }
        print("coarse fill, view 0: \(valid.count) of \(truth.metres.count) pixels, \(within.count) within 1 %")
        XCTAssertGreaterThan(Double(valid.count), 0.6 * Double(truth.metres.count))
        XCTAssertGreaterThanOrEqual(Double(within.count), 0.97 * Double(valid.count))
        XCTAssertTrue(valid.allSatisfy { view.confidence[$0] > 0 && view.confidence[$0] <= options.coarseFillConfidence })
        XCTAssertGreaterThan(result.pointCloud.count, 1000, "filled depths reach the fused points")
    }
}
