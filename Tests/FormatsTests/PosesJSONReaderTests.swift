import Foundation
import ModelExport
import ReconstructionCore
import XCTest

final class PosesJSONReaderTests: XCTestCase {
    private func write(_ text: String, named name: String) throws -> URL {
        let url = try makeTemporaryDirectory(self).appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func testBuildsCameraToWorldFromQuaternionAndCentre() throws {
        let url = try write("""
            {"convention": "camera_to_world", "quaternion_order": "wxyz", "images": [
              {"file": "x.jpg", "registered": true, "rotation": [0.7071067811865476, 0, 0, 0.7071067811865476],
               "translation": [1, 2, 3]},
              {"file": "y.jpg", "registered": false, "reason": "no matches"}]}
            """, named: "poses.json")
        let poses = try PosesJSONReader.load(url)
        XCTAssertEqual(poses.map(\.name), ["x.jpg", "y.jpg"])
        let pose = try XCTUnwrap(poses[0].worldFromCamera)
        // 90° about z: camera x axis maps to world y.
        XCTAssertLessThan(pose.apply(Vector3(1, 0, 0)).distance(to: Vector3(1, 3, 3)), 1e-12)
        XCTAssertNil(poses[1].worldFromCamera)
        XCTAssertNil(try PosesJSONReader.isMetric(url), "a file that does not say")
    }

    func testMalformedFilesThrowErrorsNamingTheFile() throws {
        let cases: [(String, String)] = [
            ("not json", "invalid JSON"),
            (#"{"images": [{"file": "x.jpg"}]}"#, "registered"),
            (#"{"images": [{"file": "x.jpg", "registered": true, "rotation": [1, 0, 0], "translation": [0, 0, 0]}]}"#,
             "rotation"),
            (#"{"images": [{"file": "x.jpg", "registered": true, "rotation": [2, 0, 0, 0], "translation": [0, 0, 0]}]}"#,
             "norm"),
            (#"{"images": [{"file": "x.jpg", "registered": true, "rotation": [1, 0, 0, 0]}]}"#, "translation"),
            (#"{"convention": "world_to_camera", "images": []}"#, "convention"),
            (#"{"images": [{"file": "x.jpg", "registered": false}, {"file": "x.jpg", "registered": false}]}"#,
             "images 0 and 1 are both \"x.jpg\""),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let url = try write(text, named: "case\(index).json")
            XCTAssertThrowsError(try PosesJSONReader.load(url), text) { error in
                let message = String(describing: error)
                XCTAssertTrue(message.contains("case\(index).json"), message)
                XCTAssertTrue(message.contains(expected), "expected \"\(expected)\" in: \(message)")
            }
        }
    }

    func testMissingFileThrows() throws {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("absent.json")
        XCTAssertThrowsError(try PosesJSONReader.load(url)) { error in
            XCTAssertTrue(String(describing: error).contains("absent.json"), "\(error)")
        }
    }
}
