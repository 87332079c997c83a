import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class PosesJSONWriterTests: XCTestCase {
    private func writeAndParse(_ scene: SparseScene) throws -> (url: URL, json: [String: Any]) {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("nested/out/poses.json")
        try PosesJSONWriter.write(scene: scene, to: url)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return (url, try XCTUnwrap(object as? [String: Any]))
    }

    func testRoundTripsThroughTheReaderToWithin1e12() throws {
        let scene = SyntheticScene.make()
        let (url, _) = try writeAndParse(scene)
        let poses = try PosesJSONReader.load(url)
        XCTAssertEqual(poses.map(\.name), ["a.jpg", "b.jpg", "c.jpg"])
        XCTAssertNil(poses[1].worldFromCamera)
        for (index, expected) in [(0, SyntheticScene.worldFromA), (2, SyntheticScene.worldFromC)] {
            let pose = try XCTUnwrap(poses[index].worldFromCamera)
            XCTAssertLessThan(maxDifference(pose.rotation, expected.rotation), 1e-12)
            XCTAssertLessThan(pose.translation.distance(to: expected.translation), 1e-12)
        }
    }

    func testDocumentStatesConventionsAndCounts() throws {
        let (_, json) = try writeAndParse(SyntheticScene.make())
        XCTAssertEqual(json["convention"] as? String, "camera_to_world")
        XCTAssertEqual(json["quaternion_order"] as? String, "wxyz")
        XCTAssertEqual(json["pixel_origin"] as? String, "top-left corner; first pixel centre at (0.5, 0.5)")
        let axes = try XCTUnwrap(json["axes"] as? [String: String])
        XCTAssertEqual(axes["camera"], "x right, y down, z forward (OpenCV/COLMAP)")
        XCTAssertFalse(axes["world"]?.isEmpty ?? true)
        XCTAssertEqual(json["registered_count"] as? Int, 2)
        XCTAssertEqual(json["image_count"] as? Int, 3)
        XCTAssertEqual(json["metric"] as? Bool, false, "structure from motion's own units by default")
    }

    /// Whether the units are metres is stated for programs too, and read back.
    func testStatesWhetherItsUnitsAreMetres() throws {
        let folder = try makeTemporaryDirectory(self)
        let metric = folder.appendingPathComponent("metric.json"), own = folder.appendingPathComponent("own.json")
        try PosesJSONWriter.write(scene: SyntheticScene.make(), to: metric, world: PosesWorld(description: "tracked, metres", isMetric: true))
        try PosesJSONWriter.write(scene: SyntheticScene.make(), to: own)
        XCTAssertEqual(try PosesJSONReader.isMetric(metric), true)
        XCTAssertEqual(try PosesJSONReader.isMetric(own), false)
    }

    func testRegisteredImageHasCameraToWorldQuaternionCentreAndIntrinsics() throws {
        let (_, json) = try writeAndParse(SyntheticScene.make(distinctIntrinsics: true))
        let images = try XCTUnwrap(json["images"] as? [[String: Any]])
        XCTAssertEqual(images.map { $0["file"] as? String }, ["a.jpg", "b.jpg", "c.jpg"])
        let a = images[0]
        XCTAssertEqual(a["registered"] as? Bool, true)
        let q = try XCTUnwrap(a["rotation"] as? [Double])
        XCTAssertEqual(q.count, 4)
        XCTAssertGreaterThanOrEqual(q[0], 0)
        let expected = UnitQuaternion(SyntheticScene.worldFromA.rotation)
        for (value, reference) in zip(q, expected.array) { XCTAssertEqual(value, reference, accuracy: 1e-15) }
        XCTAssertEqual(a["translation"] as? [Double], SyntheticScene.worldFromA.translation.array)
        let intrinsics = try XCTUnwrap(a["intrinsics"] as? [String: Any])
        XCTAssertEqual(intrinsics["model"] as? String, "PINHOLE")
        XCTAssertEqual(intrinsics["width"] as? Int, 640)
        XCTAssertEqual(intrinsics["height"] as? Int, 480)
        XCTAssertEqual(intrinsics["fx"] as? Double, 500)
        XCTAssertEqual(intrinsics["fy"] as? Double, 502)
        XCTAssertEqual(intrinsics["cx"] as? Double, 320.5)
        XCTAssertEqual(intrinsics["cy"] as? Double, 240.25)
        XCTAssertEqual(intrinsics["source"] as? String, "given")
        let c = try XCTUnwrap(images[2]["intrinsics"] as? [String: Any])
        XCTAssertEqual(c["model"] as? String, "OPENCV", "as cameras.txt and transforms.json name it")
        XCTAssertEqual(c["k1"] as? Double, -0.05)
        XCTAssertEqual(c["k2"] as? Double, 0.01)
        XCTAssertEqual(c["source"] as? String, "default")
    }

    func testStatesHowWellTheModelFitsItsPhotos() throws {
        var scene = SyntheticScene.make()
        scene.images[2].keypoints[0].x += 2  // c.jpg sees point 2 two pixels to the right
        let (_, json) = try writeAndParse(scene)
        let model = try XCTUnwrap(json["sparse_model"] as? [String: Any])
        XCTAssertEqual(model["points"] as? Int, 3)
        XCTAssertEqual(model["observations"] as? Int, 6)  // b.jpg's observation is not in the model
        XCTAssertEqual(model["mean_track_length"] as? Double, 2)
        XCTAssertEqual(try XCTUnwrap(model["mean_reprojection_error_px"] as? Double), 2.0 / 6, accuracy: 1e-4)
        let images = try XCTUnwrap(json["images"] as? [[String: Any]])
        XCTAssertEqual(images.map { $0["observations"] as? Int }, [3, nil, 3])
        XCTAssertEqual(try XCTUnwrap(images[0]["reprojection_error_px"] as? Double), 0, accuracy: 1e-4)
        XCTAssertNil(images[1]["reprojection_error_px"])
        XCTAssertEqual(try XCTUnwrap(images[2]["reprojection_error_px"] as? Double), 2.0 / 3, accuracy: 1e-4)
    }

    func testUnregisteredImageHasReasonAndNoPose() throws {
        let (_, json) = try writeAndParse(SyntheticScene.make())
        let b = try XCTUnwrap((json["images"] as? [[String: Any]])?[1])
        XCTAssertEqual(b["registered"] as? Bool, false)
        XCTAssertEqual(b["reason"] as? String, SyntheticScene.unregisteredReason)
        XCTAssertNil(b["rotation"])
        XCTAssertNil(b["translation"])
    }

    func testFullDoublePrecisionIsKept() throws {
        var scene = SyntheticScene.make()
        let centre = Vector3(0.1 + 0.2, 1.0 / 3.0, -2.0e-17)
        scene.images[0].cameraFromWorld = RigidTransform(rotation: .identity, translation: centre).inverse
        let (url, _) = try writeAndParse(scene)
        let pose = try XCTUnwrap(PosesJSONReader.load(url)[0].worldFromCamera)
        XCTAssertEqual(pose.translation, centre)
    }

    func testOverwritesAnExistingFile() throws {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("poses.json")
        try Data("old".utf8).write(to: url)
        try PosesJSONWriter.write(scene: SyntheticScene.make(), to: url)
        XCTAssertEqual(try PosesJSONReader.load(url).count, 3)
    }
}
