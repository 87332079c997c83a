import CaptureReplay
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

final class FrameStreamTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("frame-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    static let identity: [Double] = [1, 0, 0, 0]

    func write(_ index: FrameStreamIndex) throws {
        try JSONEncoder().encode(index).write(to: folder.appendingPathComponent("frames.json"))
    }

    func writeImage(_ name: String) throws {
        try ImageCodec.encode(RGBImage(width: 64, height: 48, fill: (100, 110, 120))).write(to: folder.appendingPathComponent(name))
    }

    func index(_ frames: [FrameStreamIndex.Entry]) -> FrameStreamIndex {
        FrameStreamIndex(intrinsics: .init(width: 64, height: 48, fx: 50, fy: 50, cx: 32, cy: 24),
                         objectBox: .init(centre: [0, 0, 0], halfExtents: [0.1, 0.1, 0.1]), frames: frames)
    }

    func testAGoodIndexGivesFramesWithPoseIntrinsicsGravityAndSidecars() throws {
        try writeImage("a.png")
        try writeImage("a_mask.png")
        let quarterTurn = UnitQuaternion(axis: Vector3(1, 0, 0), angleRadians: -Double.pi / 2).array
        try write(index([.init(image: "a.png", timestamp: 0.5, rotation: quarterTurn, position: [0, -1, 0], mask: "a_mask.png")]))
        let stream = try FrameStream.load(directory: folder)
        XCTAssertEqual(stream.objectBox, BoundingBox(centre: .zero, halfExtents: Vector3(0.1, 0.1, 0.1)))
        let frame = try XCTUnwrap(stream.frames.first)
        XCTAssertEqual(frame.timestamp, 0.5)
        XCTAssertEqual(frame.intrinsics.fx, 50)
        XCTAssertEqual(frame.worldFromCamera.translation, Vector3(0, -1, 0))
        XCTAssertEqual(frame.mask?.lastPathComponent, "a_mask.png")
        // Without a given gravity: world down (−z) in camera axes; this camera looks along +y, y down = −z.
        XCTAssertEqual(frame.gravity.y, 1, accuracy: 1e-12)
        XCTAssertEqual(frame.gravity.x, 0, accuracy: 1e-12)
    }

    func testAMissingIndexNamesTheFile() {
        XCTAssertThrowsError(try FrameStream.load(directory: folder)) { error in
            XCTAssertTrue("\(error)".contains("frames.json"), "\(error)")
        }
    }

    func testMalformedJSONNamesTheFileAndTheField() throws {
        try Data(#"{"format":"photogrammetry-frame-stream/1","frames":{"image":"a.png"}}"#.utf8)
            .write(to: folder.appendingPathComponent("frames.json"))
        XCTAssertThrowsError(try FrameStream.load(directory: folder)) { error in
            XCTAssertTrue("\(error)".contains("frames.json"), "\(error)")
            XCTAssertTrue("\(error)".contains("wrong type at frames"), "\(error)")
        }
        try Data("not json".utf8).write(to: folder.appendingPathComponent("frames.json"))
        XCTAssertThrowsError(try FrameStream.load(directory: folder)) { XCTAssertTrue("\($0)".contains("invalid JSON"), "\($0)") }
    }

    /// A frame entry that is not even well-formed (a field missing or of the wrong type) is one
    /// invalid frame, named with its field; the frames around it are kept.
    func testAFrameEntryThatDoesNotDecodeIsInvalidAndTheRestIsKept() throws {
        try writeImage("a.png")
        try writeImage("b.png")
        let good = #"{"image":"%@","timestamp":%@,"rotation":[1,0,0,0],"position":[0,0,0]}"#
        let frames = [String(format: good, "a.png", "1"),
                      #"{"image":"b.png","timestamp":2,"rotation":[1,0,0,0]}"#,
                      #"{"image":"b.png","timestamp":"soon","rotation":[1,0,0,0],"position":[0,0,0]}"#,
                      String(format: good, "b.png", "4")]
        let json = #"{"format":"photogrammetry-frame-stream/1","intrinsics":{"width":64,"height":48,"fx":50,"fy":50,"cx":32,"cy":24},"frames":["#
            + frames.joined(separator: ",") + "]}"
        try Data(json.utf8).write(to: folder.appendingPathComponent("frames.json"))
        let stream = try FrameStream.load(directory: folder)
        XCTAssertEqual(stream.frames.map(\.index), [0, 3])
        guard case .invalid(1, "b.png", let missing) = stream.entries[1], case .invalid(2, "b.png", let wrong) = stream.entries[2] else {
            return XCTFail("\(stream.entries)")
        }
        XCTAssertEqual(missing, #"missing "position""#)
        XCTAssertTrue(wrong.hasPrefix("wrong type at timestamp"), wrong)
    }

    func testAnotherFormatTagAndAnEmptyStreamAreRefused() throws {
        var other = index([])
        other.format = "something-else/2"
        try write(other)
        XCTAssertThrowsError(try FrameStream.load(directory: folder)) { XCTAssertTrue("\($0)".contains("something-else/2"), "\($0)") }
        try write(index([]))
        XCTAssertThrowsError(try FrameStream.load(directory: folder)) { XCTAssertTrue("\($0)".contains("lists no frames"), "\($0)") }
    }

    func testBadEntriesAreInvalidWithTheirReasonAndTheRestIsKept() throws {
        try writeImage("a.png")
        try writeImage("b.png")
        try writeImage("c.png")
        try write(index([
            .init(image: "a.png", timestamp: 1, rotation: Self.identity, position: [0, 0, 0]),
            .init(image: "missing.png", timestamp: 2, rotation: Self.identity, position: [0, 0, 0]),
            .init(image: "b.png", timestamp: 3, rotation: [2, 0, 0, 0], position: [0, 0, 0]),
            .init(image: "b.png", timestamp: 1, rotation: Self.identity, position: [0, 0, 0]),
            .init(image: "c.png", timestamp: 4, rotation: Self.identity, position: [0, 0, 0], depth: "c_depth.png"),
            .init(image: "c.png", timestamp: 5, rotation: Self.identity, position: [0, 0]),
            .init(image: "c.png", timestamp: 6, rotation: Self.identity, position: [0, 0, 1]),
        ]))
        let stream = try FrameStream.load(directory: folder)
        let reasons = stream.entries.map { entry -> String in
            if case .invalid(_, _, let reason) = entry { return reason }
            return "ok"
        }
        XCTAssertEqual(reasons[0], "ok")
        XCTAssertTrue(reasons[1].contains("missing.png does not exist"), reasons[1])
        XCTAssertTrue(reasons[2].contains("not a unit quaternion"), reasons[2])
        XCTAssertTrue(reasons[3].contains("is not after the previous frame"), reasons[3])
        XCTAssertTrue(reasons[4].contains("c_depth.png does not exist"), reasons[4])
        XCTAssertTrue(reasons[5].contains("position"), reasons[5])
        XCTAssertEqual(reasons[6], "ok")
        XCTAssertEqual(stream.frames.map(\.index), [0, 6])
    }

    func testReplayReportsInvalidAndUndecodableFramesAndGoesOn() throws {
        try writeImage("a.png")
        try Data("junk".utf8).write(to: folder.appendingPathComponent("b.png"))
        try write(index([
            .init(image: "missing.png", timestamp: 0, rotation: Self.identity, position: [0, -1, 0]),
            .init(image: "b.png", timestamp: 1, rotation: Self.identity, position: [0, -1, 0]),
            .init(image: "a.png", timestamp: 2, rotation: Self.identity, position: [0, -1, 0]),
        ]))
        let output = folder.appendingPathComponent("capture")
        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: folder), to: output) { reports.append($0) }
        XCTAssertEqual(reports.map(\.outcome), [.invalid, .invalid, .detecting])
        XCTAssertTrue(reports[1].reason?.contains("b.png does not decode") ?? false, "\(reports[1])")
        XCTAssertEqual(summary.invalidFrames, 2)
        XCTAssertEqual(summary.frames, 3)
        // The plain frame never shows the box in a good frame: no capture, the session ends cancelled.
        XCTAssertEqual(summary.finalState, "failed")
    }

    /// A mask that does not decode makes the frame invalid; depth that does not decode only costs
    /// the frame its depth (`CaptureReplayAcceptanceTests` follows such a frame into a shot).
    func testAFrameWhoseMaskDoesNotDecodeIsInvalidButUndecodableDepthIsNot() throws {
        try writeImage("a.png")
        try writeImage("b.png")
        try Data("junk".utf8).write(to: folder.appendingPathComponent("a_mask.png"))
        try Data("junk".utf8).write(to: folder.appendingPathComponent("b_depth.png"))
        try write(index([
            .init(image: "a.png", timestamp: 0, rotation: Self.identity, position: [0, -1, 0], mask: "a_mask.png"),
            .init(image: "b.png", timestamp: 1, rotation: Self.identity, position: [0, -1, 0], depth: "b_depth.png"),
        ]))
        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: folder), to: folder.appendingPathComponent("capture")) { reports.append($0) }
        XCTAssertEqual(reports.map(\.outcome), [.invalid, .detecting])
        XCTAssertTrue(reports[0].reason?.hasPrefix("a_mask.png does not decode") ?? false, "\(reports[0])")
        XCTAssertEqual(summary.invalidFrames, 1)
    }

    func testAnAbsoluteImagePathIsUsedAsGiven() throws {
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try ImageCodec.encode(RGBImage(width: 64, height: 48, fill: (100, 110, 120))).write(to: elsewhere.appendingPathComponent("a.png"))
        try write(index([.init(image: elsewhere.appendingPathComponent("a.png").path, timestamp: 0, rotation: Self.identity, position: [0, -1, 0])]))
        let stream = try FrameStream.load(directory: folder)
        XCTAssertEqual(stream.frames.first?.image.path, elsewhere.appendingPathComponent("a.png").path)
        // Messages name a file inside the stream's folder from there, any other by its whole path.
        XCTAssertEqual(stream.shownPath(elsewhere.appendingPathComponent("a.png")), "elsewhere/a.png")
        XCTAssertEqual(stream.shownPath(URL(fileURLWithPath: "/etc/passwd")), "/etc/passwd")
    }

    /// A frame resized after recording no longer matches its intrinsics: its K would be wrong.
    func testAFrameWhoseSizeIsNotItsIntrinsicsIsInvalid() throws {
        try writeImage("a.png")
        try ImageCodec.encode(RGBImage(width: 32, height: 24, fill: (100, 110, 120))).write(to: folder.appendingPathComponent("small.png"))
        try write(index([
            .init(image: "small.png", timestamp: 0, rotation: Self.identity, position: [0, -1, 0]),
            .init(image: "a.png", timestamp: 1, rotation: Self.identity, position: [0, -1, 0]),
        ]))
        var reports: [FrameReport] = []
        let summary = try CaptureReplay().run(FrameStream.load(directory: folder), to: folder.appendingPathComponent("capture")) { reports.append($0) }
        XCTAssertEqual(reports.map(\.outcome), [.invalid, .detecting])
        XCTAssertEqual(reports[0].reason, "small.png is 32×24 pixels but its intrinsics are for 64×48")
        XCTAssertEqual(summary.invalidFrames, 1)
    }

    func testReplayRefusesANonEmptyOutputFolderAndAStreamWithoutABox() throws {
        try writeImage("a.png")
        var noBox = index([.init(image: "a.png", timestamp: 0, rotation: Self.identity, position: [0, -1, 0])])
        noBox.objectBox = nil
        try write(noBox)
        XCTAssertThrowsError(try CaptureReplay().run(FrameStream.load(directory: folder), to: folder.appendingPathComponent("out"))) {
            XCTAssertTrue("\($0)".contains("objectBox"), "\($0)")
        }
        try write(index([.init(image: "a.png", timestamp: 0, rotation: Self.identity, position: [0, -1, 0])]))
        XCTAssertThrowsError(try CaptureReplay().run(FrameStream.load(directory: folder), to: folder)) {
            XCTAssertTrue("\($0)".contains("is not empty"), "\($0)")
        }
    }
}
