import CaptureReplay
import ReconstructionCore
import XCTest

final class FrameAnalyzerTests: XCTestCase {
    /// A 256×192 frame: grey noise in the middle quarter, flat grey elsewhere.
    static func texturedFrame(scale: Double = 1, seed: UInt64 = 7) -> RGBImage {
        var generator = SeededGenerator(seed: seed)
        var image = RGBImage(width: 256, height: 192, fill: (128, 128, 128))
        for y in 48..<144 {
            for x in 64..<192 {
                let value = UInt8(Double(UInt8.random(in: 40...215, using: &generator)) * scale)
                for c in 0..<3 { image.pixels[(y * 256 + x) * 3 + c] = value }
            }
        }
        if scale != 1 { image.pixels = image.pixels.map { $0 == 128 ? UInt8(128 * scale) : $0 } }
        return image
    }

    static func boxBlurred(_ image: RGBImage, radius: Int) -> RGBImage {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<3 {
                    var sum = 0, count = 0
                    for dy in -radius...radius {
                        for dx in -radius...radius {
                            let sx = min(max(x + dx, 0), image.width - 1), sy = min(max(y + dy, 0), image.height - 1)
                            sum += Int(image.pixels[(sy * image.width + sx) * 3 + c])
                            count += 1
                        }
                    }
                    out.pixels[(y * image.width + x) * 3 + c] = UInt8(sum / count)
                }
            }
        }
        return out
    }

    /// A camera 1 m in front of the unit-ish box, looking at it along world +y.
    static let intrinsics = CameraIntrinsics(width: 256, height: 192, fx: 200, fy: 200, cx: 128, cy: 96)
    static let box = BoundingBox(centre: Vector3(0, 0, 0), halfExtents: Vector3(0.1, 0.1, 0.1))
    static func camera(yawDegrees: Double = 0) -> RigidTransform {
        // Camera axes in world: x right = +x, y down = −z, z forward = +y; then turned about world z.
        let facing = Matrix3(rowMajor: [1, 0, 0, 0, 0, 1, 0, -1, 0])
        let turn = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: yawDegrees * Double.pi / 180).matrix
        return RigidTransform(rotation: turn * facing, translation: Vector3(0, -1, 0))
    }

    func testLuminanceIsTheMeanLumaOfTheEncodedValues() {
        let frame = RGBImage(width: 8, height: 8, fill: (255, 0, 0))
        let analysis = FrameAnalyzer().analyze(frame, intrinsics: Self.intrinsics, worldFromCamera: Self.camera(), box: nil)
        XCTAssertEqual(analysis.meanLuminance, 0.2126, accuracy: 1e-9)
        XCTAssertNil(analysis.boxFractionInView)
    }

    func testBlurLowersSharpnessFarBelowTheSessionsDefaultThresholds() {
        let analyzer = FrameAnalyzer()
        let sharp = analyzer.analyze(Self.texturedFrame(), intrinsics: Self.intrinsics, worldFromCamera: Self.camera(), box: nil)
        let blurred = analyzer.analyze(Self.boxBlurred(Self.texturedFrame(), radius: 3), intrinsics: Self.intrinsics,
                                       worldFromCamera: Self.camera(), box: nil)
        let defaults = CaptureSession.Configuration()
        XCTAssertGreaterThan(sharp.sharpness, 10 * defaults.minimumSharpness)
        XCTAssertLessThan(blurred.sharpness, defaults.minimumRelativeSharpness * sharp.sharpness / 3,
                          "blurred among sharp frames, by a wide margin (\(blurred.sharpness) against \(sharp.sharpness))")
    }

    func testADarkButSharpFrameKeepsItsSharpnessThroughExposureNormalisation() {
        let analyzer = FrameAnalyzer()
        let normal = analyzer.analyze(Self.texturedFrame(), intrinsics: Self.intrinsics, worldFromCamera: Self.camera(), box: nil)
        let dark = analyzer.analyze(Self.texturedFrame(scale: 0.15), intrinsics: Self.intrinsics, worldFromCamera: Self.camera(), box: nil)
        XCTAssertLessThan(dark.meanLuminance, 0.1)
        XCTAssertEqual(dark.sharpness / normal.sharpness, 1, accuracy: 0.25)
    }

    func testTheBoxFractionInViewCountsTheBoxVolumeInsideTheImage() {
        let analyzer = FrameAnalyzer()
        let k = Self.intrinsics, box = Self.box
        XCTAssertEqual(analyzer.boxFractionInView(box, cameraFromWorld: Self.camera().inverse, intrinsics: k), 1)
        // Turned so the box centre sits on the image's left edge: about half the box is in view.
        let edge = atan(128.0 / 200) * 180 / Double.pi
        let half = analyzer.boxFractionInView(box, cameraFromWorld: Self.camera(yawDegrees: edge).inverse, intrinsics: k)
        XCTAssertEqual(half, 0.5, accuracy: 0.1)
        XCTAssertEqual(analyzer.boxFractionInView(box, cameraFromWorld: Self.camera(yawDegrees: 180).inverse, intrinsics: k), 0)
    }

    func testTextureIsTheShareOfTexturedCellsInsideTheBoxOutline() {
        let analyzer = FrameAnalyzer()
        // The box (±0.1 m at 1 m, f = 200 px) covers 88…168 × 56…136: all noise.
        let textured = analyzer.analyze(Self.texturedFrame(), intrinsics: Self.intrinsics, worldFromCamera: Self.camera(), box: Self.box)
        XCTAssertEqual(textured.textureScore, 1, accuracy: 1e-9)
        let plain = analyzer.analyze(RGBImage(width: 256, height: 192, fill: (90, 90, 90)), intrinsics: Self.intrinsics,
                                     worldFromCamera: Self.camera(), box: Self.box)
        XCTAssertEqual(plain.textureScore, 0)
    }

    func testReductionKeepsTheLongerSideWithinTheAnalysisSize() {
        let analyzer = FrameAnalyzer()
        XCTAssertEqual(analyzer.reduction(width: 480, height: 360), 1)
        XCTAssertEqual(analyzer.reduction(width: 1920, height: 1440), 4)
        XCTAssertEqual(analyzer.reduction(width: 8000, height: 6000), 8)
    }
}
