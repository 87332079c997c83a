import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import XCTest

/// Photos → poses on the Strecha scenes in ../shared, scored with the benchmark's protocol against
/// the thresholds of the foundation issue (best peer medians). Skipped, saying so, without ../shared.
final class StrechaPosesTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let strecha = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/strecha")

    /// With `addCorruptImage`, the photos are linked (not copied) into a temporary folder beside a
    /// corrupt JPEG, which must be reported and skipped while everything else still registers.
    func reconstruct(scene: String, maxMedianPositionErrorMetres: Double, addCorruptImage: Bool = false) throws {
        let sceneURL = Self.strecha.appendingPathComponent(scene)
        guard FileManager.default.fileExists(atPath: sceneURL.path) else {
            throw XCTSkip("shared dataset absent: \(sceneURL.path) (expected ../shared beside the repository)")
        }
        var imagesURL = sceneURL.appendingPathComponent("images")
        let k = try PinholeIntrinsics.load(kFile: imagesURL.appendingPathComponent("K.txt"))
        let corruptName = "0003-corrupt.jpg"
        if addCorruptImage {
            let linked = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(scene)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
            for photo in try ImageFolder.listImages(in: imagesURL) {
                try FileManager.default.createSymbolicLink(at: linked.appendingPathComponent(photo.lastPathComponent), withDestinationURL: photo)
            }
            try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 1000)).write(to: linked.appendingPathComponent(corruptName))
            imagesURL = linked
        }
        defer { if addCorruptImage { try? FileManager.default.removeItem(at: imagesURL) } }
        let sources = try ImageFolder.listImages(in: imagesURL).map {
            ImageSource(name: $0.lastPathComponent, url: $0, prior: .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy))
        }
        let report = try PoseEstimation().run(sources)
        let photoCount = sources.count - (addCorruptImage ? 1 : 0)
        XCTAssertEqual(report.scene.registeredCount, photoCount, "every photo registered")
        if addCorruptImage {
            XCTAssertEqual(report.invalidImages.map(\.name), [corruptName])
            let skipped = try XCTUnwrap(report.scene.images.first { $0.name == corruptName })
            XCTAssertFalse(skipped.isRegistered)
            XCTAssertTrue(skipped.unregisteredReason?.hasPrefix("skipped: ") ?? false)
            XCTAssertEqual(report.scene.images.map(\.name), sources.map(\.name), "input order kept")
        }

        // Score what the exporter wrote, as a user would.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("strecha-\(scene)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        try PoseExport.writeAll(scene: report.scene, imagesDirectory: imagesURL, to: out)
        let accuracy = try PoseAccuracyReport.evaluate(
            estimated: try PosesJSONReader.load(out.appendingPathComponent("poses.json")),
            groundTruth: try StrechaGroundTruth.load(sceneDirectory: sceneURL))
        print(String(format: "%@: registered %d/%d, position median %.2f mm max %.2f mm, rotation median %.4f° max %.4f°",
                     scene, accuracy.registeredCount, accuracy.cameraCount, accuracy.medianPositionError * 1000,
                     accuracy.maxPositionError * 1000, accuracy.medianRotationErrorDegrees, accuracy.maxRotationErrorDegrees))
        XCTAssertEqual(accuracy.registeredCount, accuracy.cameraCount)
        XCTAssertLessThanOrEqual(accuracy.medianPositionError, maxMedianPositionErrorMetres)

        try checkCOLMAPExportLoadsInPycolmap(out)
    }

    /// pycolmap 4.2.1 must read the COLMAP text model and find the same poses as poses.json.
    func checkCOLMAPExportLoadsInPycolmap(_ out: URL) throws {
        let script = Self.packageRoot.appendingPathComponent("Scripts/check_colmap_export.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, out.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print(text)
        XCTAssertEqual(process.terminationStatus, 0, "pycolmap check failed:\n\(text)")
    }

    /// A 35 mm tag of 500 mm on photos taken at 32 mm (an EXIF focal length 15 times too long):
    /// the pairs contradict it, it is set aside with a warning, and the photos are self-calibrated.
    /// Before, every photo registered at a focal length near the tag's with a huge k1 and errors of
    /// metres, without a warning.
    func testAnEXIFFocalLengthFarOffIsSetAsideAndSelfCalibrated() throws {
        try checkEXIFSetAside(scene: "Herz-Jesus-P8", millimetres: 500)
    }

    /// A tag of 14 mm (2.3 times too short): the pairs, verified with essential matrices at the
    /// tag's focal length, kept only the matches it fits, whose fundamental matrices agreed with
    /// it; the check now matches its pairs again. Before, 6 of 11 photos registered, 27 cm off.
    func testAnEXIFFocalLengthFarTooShortIsSetAsideToo() throws {
        try checkEXIFSetAside(scene: "fountain-P11", millimetres: 14)
    }

    func checkEXIFSetAside(scene: String, millimetres: Double) throws {
        let sceneURL = Self.strecha.appendingPathComponent(scene)
        guard FileManager.default.fileExists(atPath: sceneURL.path) else {
            throw XCTSkip("shared dataset absent: \(sceneURL.path) (expected ../shared beside the repository)")
        }
        let imagesURL = sceneURL.appendingPathComponent("images")
        let sources = try ImageFolder.listImages(in: imagesURL).map {
            ImageSource(name: $0.lastPathComponent, url: $0, prior: .focalLength35mmEquivalent(millimetres: millimetres))
        }
        let report = try PoseEstimation().run(sources)
        XCTAssertEqual(report.scene.registeredCount, sources.count, "every photo registered")
        XCTAssertTrue(report.scene.images.allSatisfy { $0.intrinsicsSource == .defaultGuess }, "the EXIF focal length is set aside")
        let focal = try XCTUnwrap(report.scene.images.first?.intrinsics.fx)
        XCTAssertEqual(focal, 2759.48, accuracy: 30, "self-calibrated near the true focal length")
        let warning = try XCTUnwrap(PoseEstimation.exifSetAsideWarning(sources: sources, scene: report.scene))
        XCTAssertTrue(warning.hasPrefix("the EXIF focal length of \(sources.count) photos (0000.jpg, …) ("), warning)
        let accuracy = try PoseAccuracyReport.evaluate(estimated: report.scene.namedPoses,
                                                       groundTruth: try StrechaGroundTruth.load(sceneDirectory: sceneURL))
        print(String(format: "%@, %.0f mm EXIF: focal %.1f px, position median %.2f mm max %.2f mm", scene, millimetres,
                     focal, accuracy.medianPositionError * 1000, accuracy.maxPositionError * 1000))
        XCTAssertLessThan(accuracy.medianPositionError, 0.02, "self-calibrated accuracy (6–10 mm), not decimetres")
    }

    func testFountainP11PosesMeetTheBestPeerMedian() throws {
        try reconstruct(scene: "fountain-P11", maxMedianPositionErrorMetres: 0.0024)
    }

    /// The foundation issue's target here is the best peer's 3.0 mm (COLMAP); this project measures
    /// 3.21 mm today (README, "Accuracy and speed today"), so the test holds the line at a regression
    /// bound of 3.5 mm until the target is reached.
    func testHerzJesusP8PosesStayWithinTheRegressionBound() throws {
        try reconstruct(scene: "Herz-Jesus-P8", maxMedianPositionErrorMetres: 0.0035, addCorruptImage: true)
    }
}
