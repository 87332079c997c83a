import Foundation
import Reconstruction
import ReconstructionCore
import SyntheticCapture
import XCTest

/// A turntable capture: the object turns in front of a textured backdrop, so the backdrop keeps
/// its place in every photo while the object moves. Rendered from the synthetic vase capture by
/// painting one fixed backdrop, pixel for pixel the same in every photo, wherever the object's
/// mask is empty. No masks go with the photos, as from a phone.
final class TurntableCaptureTests: XCTestCase {
    func testPosesOfAnObjectTurningInFrontOfAStillBackdrop() throws {
        let settings = SyntheticCapture.Settings(scene: .texturedVase, views: 20, seed: 5, imageWidth: 640, imageHeight: 480)
        let capture = SyntheticCapture(settings: settings)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("turntable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let backdrop = Self.backdrop(width: settings.imageWidth, height: settings.imageHeight, seed: 11)
        let k = capture.intrinsics
        var sources: [ImageSource] = [], truth: [NamedPose] = []
        for index in 0..<capture.viewCount {
            let view = capture.view(at: index)
            let url = folder.appendingPathComponent("\(view.name).png")
            try ImageCodec.encode(Self.composite(view.image, over: backdrop, mask: view.mask), as: .png).write(to: url)
            sources.append(ImageSource(name: url.lastPathComponent, url: url, prior: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)))
            truth.append(NamedPose(name: url.lastPathComponent, worldFromCamera: view.worldFromCamera))
        }

        let report = try PoseEstimation().run(sources)
        XCTAssertEqual(report.scene.registeredCount, capture.viewCount)
        let accuracy = try PoseAccuracyReport.evaluate(estimated: report.scene.namedPoses, groundTruth: truth)
        print(String(format: "turntable: %d/%d registered, %d of %d pairs verified, position median %.2f mm max %.2f mm, rotation median %.3f° max %.3f°",
                     accuracy.registeredCount, accuracy.cameraCount, report.verifiedPairCount, report.matchedPairCount,
                     accuracy.medianPositionError * 1000, accuracy.maxPositionError * 1000, accuracy.medianRotationErrorDegrees, accuracy.maxRotationErrorDegrees))
        // Measured: 20/20, 85 of 190 pairs verified, 1.11 mm median, 4.96 mm max. The same photos
        // without the backdrop (the plain studio): 1.32 and 3.97 mm. With the still matches kept
        // (`PairVerifier.Options.minStillMatches` out of reach), 2 of 20 registered: the
        // backdrop's matches outvote the vase's in every pair.
        XCTAssertLessThan(accuracy.medianPositionError, 0.0025, "median camera centre within 2.5 mm")
        XCTAssertLessThan(accuracy.maxPositionError, 0.01, "every camera centre within 1 cm")
        XCTAssertLessThan(accuracy.maxRotationErrorDegrees, 0.5, "every rotation within 0.5°")
    }

    /// `photo` where `mask` is set, `backdrop` elsewhere.
    static func composite(_ photo: RGBImage, over backdrop: RGBImage, mask: GrayImage) -> RGBImage {
        var out = backdrop
        for i in 0..<(photo.width * photo.height) where mask.pixels[i] != 0 {
            for c in 0..<3 { out.pixels[3 * i + c] = photo.pixels[3 * i + c] }
        }
        return out
    }

    /// Coloured value noise at three scales (48, 16 and 6 px cells): texture SIFT finds features in.
    static func backdrop(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var rng = SeededGenerator(seed: seed)
        var sum = [Float](repeating: 0, count: width * height * 3)
        for cell in [48, 16, 6] {
            let gw = width / cell + 2, gh = height / cell + 2
            let grid = (0..<(gw * gh * 3)).map { _ in Float.random(in: 0..<1, using: &rng) }
            for y in 0..<height {
                let fy = Float(y) / Float(cell), y0 = Int(fy), ty = fy - Float(y0)
                for x in 0..<width {
                    let fx = Float(x) / Float(cell), x0 = Int(fx), tx = fx - Float(x0)
                    for c in 0..<3 {
                        func g(_ i: Int, _ j: Int) -> Float { grid[(j * gw + i) * 3 + c] }
                        let top = g(x0, y0) * (1 - tx) + g(x0 + 1, y0) * tx
                        let bottom = g(x0, y0 + 1) * (1 - tx) + g(x0 + 1, y0 + 1) * tx
                        sum[(y * width + x) * 3 + c] += 85 * (top * (1 - ty) + bottom * ty)
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: sum.map { UInt8(min(255, $0)) })
    }
}
