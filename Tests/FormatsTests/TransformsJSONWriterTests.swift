import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class TransformsJSONWriterTests: XCTestCase {
    private func write(_ scene: SparseScene, imagesDirectory: URL? = nil) throws -> [String: Any] {
        let root = try makeTemporaryDirectory(self)
        let images = imagesDirectory ?? root.appendingPathComponent("capture/images")
        let url = root.appendingPathComponent("results/run1/transforms.json")
        try TransformsJSONWriter.write(scene: scene, imagesDirectory: images, to: url)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try XCTUnwrap(object as? [String: Any])
    }

    func testSharedIntrinsicsAreWrittenAtTheTopLevel() throws {
        let json = try write(SyntheticScene.make())
        XCTAssertEqual(json["camera_model"] as? String, "OPENCV")
        XCTAssertEqual(json["fl_x"] as? Double, 500)
        XCTAssertEqual(json["fl_y"] as? Double, 502)
        XCTAssertEqual(json["cx"] as? Double, 320.5)
        XCTAssertEqual(json["cy"] as? Double, 240.25)
        XCTAssertEqual(json["w"] as? Int, 640)
        XCTAssertEqual(json["h"] as? Int, 480)
        for key in ["k1", "k2", "p1", "p2"] { XCTAssertEqual(json[key] as? Double, 0, key) }
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertNil(frames[0]["fl_x"])
    }

    func testDifferingIntrinsicsAreWrittenPerFrame() throws {
        let json = try write(SyntheticScene.make(distinctIntrinsics: true))
        XCTAssertEqual(json["camera_model"] as? String, "OPENCV")
        XCTAssertNil(json["fl_x"])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames[0]["fl_x"] as? Double, 500)
        XCTAssertEqual(frames[1]["fl_x"] as? Double, 510)
        XCTAssertEqual(frames[1]["k1"] as? Double, -0.05)
        XCTAssertEqual(frames[1]["k2"] as? Double, 0.01)
        XCTAssertEqual(frames[1]["p1"] as? Double, 0)
        XCTAssertEqual(frames[1]["w"] as? Int, 640)
    }

    func testFramesListRegisteredImagesWithRelativePathsAndCOLMAPIDs() throws {
        let json = try write(SyntheticScene.make())
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["file_path"] as? String }, ["../../capture/images/a.jpg", "../../capture/images/c.jpg"])
        XCTAssertEqual(frames.map { $0["colmap_im_id"] as? Int }, [1, 2])
        XCTAssertEqual(json["applied_transform"] as? [[Double]], [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
    }

    func testTransformMatrixIsCameraToWorldWithYAndZColumnsNegated() throws {
        let json = try write(SyntheticScene.make())
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        for (frame, worldFromCamera) in zip(frames, [SyntheticScene.worldFromA, SyntheticScene.worldFromC]) {
            let m = try XCTUnwrap(frame["transform_matrix"] as? [[Double]])
            XCTAssertEqual(m.count, 4)
            XCTAssertEqual(m[3], [0, 0, 0, 1])
            let r = worldFromCamera.rotation
            let t = worldFromCamera.translation.array
            for i in 0..<3 {
                XCTAssertEqual(m[i][0], r[i, 0], accuracy: 1e-15)
                XCTAssertEqual(m[i][1], -r[i, 1], accuracy: 1e-15)
                XCTAssertEqual(m[i][2], -r[i, 2], accuracy: 1e-15)
                XCTAssertEqual(m[i][3], t[i], accuracy: 1e-15)
            }
            // OpenGL camera axes: the viewing direction is −z, i.e. the OpenCV +z axis.
            let lookAt = Vector3(-m[0][2], -m[1][2], -m[2][2])
            XCTAssertLessThan(lookAt.distance(to: r.column(2)), 1e-15)
        }
    }

    func testImagesInsideTheOutputDirectoryGetPlainRelativePaths() throws {
        let root = try makeTemporaryDirectory(self)
        let url = root.appendingPathComponent("transforms.json")
        try TransformsJSONWriter.write(scene: SyntheticScene.make(), imagesDirectory: root.appendingPathComponent("images"),
                                       to: url)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.first?["file_path"] as? String, "images/a.jpg")
    }

    func testAPhotoThatIsASymbolicLinkKeepsItsOwnName() throws {
        let root = try makeTemporaryDirectory(self)
        let images = root.appendingPathComponent("images"), elsewhere = root.appendingPathComponent("elsewhere")
        for folder in [images, elsewhere] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data([0xFF, 0xD8]).write(to: elsewhere.appendingPathComponent("original.jpg"))
        try FileManager.default.createSymbolicLink(at: images.appendingPathComponent("a.jpg"),
                                                   withDestinationURL: elsewhere.appendingPathComponent("original.jpg"))
        let url = root.appendingPathComponent("transforms.json")
        try TransformsJSONWriter.write(scene: SyntheticScene.make(), imagesDirectory: images, to: url)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.first?["file_path"] as? String, "images/a.jpg")
    }

    func testFallsBackToAbsolutePathWithoutACommonPrefix() throws {
        let images = URL(fileURLWithPath: "/no-such-root-for-formats-tests/images", isDirectory: true)
        let json = try write(SyntheticScene.make(), imagesDirectory: images)
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.first?["file_path"] as? String, "/no-such-root-for-formats-tests/images/a.jpg")
    }
}
