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
        XCTAssertTrue(ModelRun.unknownScaleWarning("out/vase.GLB").contains("reads as metres"))
        for output in ["out/vase/", "out/vase.obj", "out/mesh.ply"] {
            XCTAssertTrue(ModelRun.unknownScaleWarning(output).hasSuffix("own units (its format carries none), not metres"), output)
        }
    }
}
