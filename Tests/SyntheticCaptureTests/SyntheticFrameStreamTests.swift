import ReconstructionCore
import Rendering
import SyntheticCapture
import XCTest

final class SyntheticFrameStreamTests: XCTestCase {
    static func settings() -> SyntheticFrameStream.Settings {
        var settings = SyntheticFrameStream.Settings(scene: .texturedVase, frames: 24, seed: 2, imageWidth: 160, imageHeight: 120)
        settings.injectDefaultFrames()
        return settings
    }

    func testDefaultInjectionSpreadsTwoFramesOfEachKindNeverNeighbours() {
        let settings = Self.settings()
        XCTAssertEqual(settings.darkFrames, [2, 6])
        XCTAssertEqual(settings.blurredFrames, [11, 14])
        XCTAssertEqual(settings.offFrameFrames, [18, 23])
        XCTAssertNil(settings.problem)
        var twice = settings
        twice.blurredFrames = [2]
        XCTAssertNotNil(twice.problem)
        var outside = settings
        outside.offFrameFrames = [24]
        XCTAssertEqual(outside.problem, "injected frame 24 is outside the stream (0…23)")
    }

    func testFramesCircleTheObjectOnceInTimeOrderLookingAtItUnlessTurnedAway() {
        let stream = SyntheticFrameStream(settings: Self.settings())
        XCTAssertEqual(stream.frames.map(\.timestamp), (0..<24).map(Double.init))
        XCTAssertEqual(stream.frames[0].name, "frame_0001")
        XCTAssertEqual(stream.frames[2].kind, .dark)
        XCTAssertEqual(stream.frames[18].kind, .offFrame)
        let target = stream.objectBounds.centre
        var previousAzimuth = -Double.infinity
        for frame in stream.frames {
            let pose = frame.shot.worldFromCamera
            let offset = pose.translation - target
            var azimuth = atan2(offset.y, offset.x) * 180 / Double.pi
            if azimuth < 0 { azimuth += 360 }
            XCTAssertGreaterThan(azimuth, previousAzimuth, "counter-clockwise, one orbit")
            previousAzimuth = azimuth
            let forward = pose.rotation.column(2), towardsObject = (target - pose.translation).normalized
            let degrees = acos(min(1, forward.dot(towardsObject))) * 180 / Double.pi
            if frame.kind == .offFrame {
                XCTAssertGreaterThan(degrees, 20, "turned away by about half the horizontal field of view")
            } else {
                XCTAssertLessThan(degrees, 0.01)
            }
            XCTAssertEqual(frame.shot.gravity.dot(pose.rotation.transposed * Vector3(0, 0, -1)), 1, accuracy: 1e-9)
        }
    }

    func testDarkAndBlurredFramesSpoilTheOrbitsViewAndKeepItsMask() {
        var clean = Self.settings()
        clean.darkFrames = []
        clean.blurredFrames = []
        let spoiled = SyntheticFrameStream(settings: Self.settings()), reference = SyntheticFrameStream(settings: clean)
        let dark = spoiled.view(at: 2), normal = reference.view(at: 2)
        XCTAssertEqual(dark.mask, normal.mask)
        XCTAssertEqual(dark.worldFromCamera, normal.worldFromCamera)
        let mean = { (image: RGBImage) in Double(image.pixels.reduce(0) { $0 + Int($1) }) / Double(image.pixels.count) }
        XCTAssertLessThan(mean(dark.image), mean(normal.image) / 3)
        let blurred = spoiled.view(at: 11), sharp = reference.view(at: 11)
        XCTAssertEqual(mean(blurred.image), mean(sharp.image), accuracy: 1)
        XCTAssertNotEqual(blurred.image, sharp.image)
        XCTAssertEqual(spoiled.view(at: 11), spoiled.view(at: 11), "deterministic")
    }
}
