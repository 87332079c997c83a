import CaptureIO
import Foundation
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import XCTest

/// The session's stereo size follows the largest requested detail level unless it is set.
final class FolderModelStagesTests: XCTestCase {
    func testStereoSizeFollowsTheLargestRequestedLevelUnlessSet() {
        let custom = CustomDetailSpecification()
        var stages = FolderModelStages()
        XCTAssertEqual(stages.denseOptions(for: [.preview, .reduced], custom: custom).stereo.maxImageDimension, 768)
        XCTAssertEqual(stages.denseOptions(for: [.preview, .medium], custom: custom).stereo.maxImageDimension, 1024)
        XCTAssertEqual(stages.denseOptions(for: [.full, .preview], custom: custom).stereo.maxImageDimension, 1536)
        XCTAssertEqual(stages.denseOptions(for: [], custom: custom).stereo.maxImageDimension,
                       DenseRun.Options().stereo.maxImageDimension, "no model request: the dense options as given")

        stages.stereoImageDimension = 640
        XCTAssertEqual(stages.denseOptions(for: [.full], custom: custom).stereo.maxImageDimension, 640, "an explicit size wins")
        XCTAssertEqual(stages.stereoImageDimension(for: [.full], samples: [], custom: custom), 640, "and the session's time estimate sees it")
        XCTAssertEqual(FolderModelStages().stereoImageDimension(for: [.medium], samples: [], custom: custom), 1024)
        // Only the stereo size changes; the checkpoint key (the options' description) differs with it.
        var expected = stages.dense
        expected.stereo.maxImageDimension = 640
        XCTAssertEqual("\(stages.denseOptions(for: [.full], custom: custom))", "\(expected)")
        XCTAssertNotEqual("\(FolderModelStages().denseOptions(for: [.full], custom: custom))",
                          "\(FolderModelStages().denseOptions(for: [.preview], custom: custom))")
    }

    func testTheStereoSizeIsNoLargerThanTheLargestPhotoWhenEveryHeaderReads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stereo-size-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func photo(_ name: String, _ width: Int, _ height: Int) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try ImageCodec.encode(RGBImage(width: width, height: height, fill: (90, 120, 150))).write(to: url)
            return url
        }
        let small = [try photo("a.png", 480, 360), try photo("b.png", 360, 640)]
        let samples = small.enumerated().map { PhotogrammetrySample(id: $0.offset, image: .file($0.element)) }
        let custom = CustomDetailSpecification()
        let stages = FolderModelStages()
        XCTAssertEqual(stages.stereoImageDimension(for: [.full], samples: samples, custom: custom), 640, "the larger photo's longer side")
        XCTAssertEqual(stages.stereoImageDimension(for: [.preview], samples: samples, custom: custom), 640)
        XCTAssertEqual("\(stages.denseOptions(for: [.full], custom: custom, largestPhotoSide: 640))",
                       "\(stages.denseOptions(for: [.preview], custom: custom, largestPhotoSide: 640))",
                       "a preview and a full model of small photos share the dense checkpoint")
        // A header that does not read leaves the level's size alone.
        let corrupt = folder.appendingPathComponent("c.jpg")
        try Data("not a photo".utf8).write(to: corrupt)
        let withCorrupt = samples + [PhotogrammetrySample(id: 9, image: .file(corrupt))]
        XCTAssertEqual(stages.stereoImageDimension(for: [.full], samples: withCorrupt, custom: custom), 1536)
    }

    /// glTF has no displacement map: a full level's is not baked for a GLB, and a custom level
    /// that asks for one is refused before any work (by the session's check of its requests).
    func testMapsAGLBCannotCarryAreNotBakedOrAreRefusedUpFront() throws {
        var notes: [String] = []
        let glb = ModelRun.budget(DetailLevel.full.budget(), writing: URL(fileURLWithPath: "/tmp/m.glb")) { notes.append($0) }
        XCTAssertEqual(glb.textureMaps, TextureMaps.all.subtracting(.displacement))
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes.first?.contains("glTF has no displacement map") == true, "\(notes)")
        XCTAssertEqual(ModelRun.budget(DetailLevel.full.budget(), writing: URL(fileURLWithPath: "/tmp/m.usdz")).textureMaps, .all)
        XCTAssertEqual(ModelRun.budget(DetailLevel.full.budget(), writing: URL(fileURLWithPath: "/tmp/m.obj")).textureMaps, .all)

        var custom = CustomDetailSpecification()
        custom.outputTextureMaps = [.diffuseColor, .displacement]
        let folder = FileManager.default.temporaryDirectory
        XCTAssertThrowsError(try FolderModelStages().validate(url: folder.appendingPathComponent("m.glb"), detail: .custom, custom: custom,
                                                              samples: [])) { error in
            XCTAssertTrue("\(error)".contains("glTF (.glb) has no displacement map"), "\(error)")
        }
    }

    /// USDZ and glTF declare metres, so a model of unknown scale shows at an arbitrary size; OBJ
    /// and PLY carry no units, and the warning says that instead.
    func testTheUnknownScaleWarningFitsTheFormat() {
        XCTAssertTrue(ModelRun.unknownScaleWarning("out/vase.usdz").hasSuffix("reads as metres, so viewers such as AR Quick Look show it at an arbitrary size"))
        XCTAssertTrue(ModelRun.unknownScaleWarning("out/vase.GLB").hasSuffix("reads as metres, so viewers such as three.js, <model-viewer> and Blender show it at an arbitrary size"))
        for output in ["out/vase/", "out/vase.obj", "out/mesh.ply"] {
            XCTAssertTrue(ModelRun.unknownScaleWarning(output).hasSuffix("own units (its format carries none), not metres"), output)
        }
    }

    /// A greyscale photo among colour ones is marked, named in a warning, and still loaded (it
    /// colours what no colour photo sees); photos all in grey levels are no cause for a warning.
    func testGreyscalePhotosAmongColourOnesAreMarkedAndNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("greyscale-views-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let width = 64, height = 48
        var colour = RGBImage(width: width, height: height)
        for k in 0..<(width * height) { colour.pixels[3 * k] = UInt8(k % 200); colour.pixels[3 * k + 1] = 90; colour.pixels[3 * k + 2] = UInt8(k % 50) }
        let grey = RGBImage(width: width, height: height, pixels: (0..<(width * height)).flatMap { k in Array(repeating: UInt8(k % 250), count: 3) })
        try ImageCodec.encode(colour).write(to: folder.appendingPathComponent("a.png"))
        try ImageCodec.encode(grey).write(to: folder.appendingPathComponent("b.png"))
        try ImageCodec.encode(grey).write(to: folder.appendingPathComponent("c.png"))
        let k = CameraIntrinsics(width: width, height: height, fx: 60, fy: 60, cx: 32, cy: 24)
        func scene(_ names: [String]) -> SparseScene {
            SparseScene(images: names.map { SparseScene.Image(name: $0, intrinsics: k, intrinsicsSource: .given, cameraFromWorld: .identity,
                                                             unregisteredReason: nil, keypoints: [], pointIndexOfKeypoint: []) }, points: [])
        }
        let (views, warnings) = try ModelRun.loadViews(scene: scene(["a.png", "b.png", "c.png"]), imagesDirectory: folder, longerSide: 64)
        XCTAssertEqual(views.map(\.isGreyscale), [false, true, true])
        XCTAssertEqual(warnings, ["2 of the 3 photos colouring the model are greyscale (b.png, c.png): they colour only the surface no colour photo sees"])
        let (greyViews, none) = try ModelRun.loadViews(scene: scene(["b.png", "c.png"]), imagesDirectory: folder, longerSide: 64)
        XCTAssertEqual(greyViews.count, 2)
        XCTAssertEqual(none, [])
    }
}
