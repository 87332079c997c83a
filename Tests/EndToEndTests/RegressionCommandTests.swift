import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// The regression command on a small synthetic capture: it passes with honest thresholds, fails
/// (exit 1, FAIL in the table) when a threshold is lowered below what the pipeline reaches, and
/// writes a report a browser can show.
final class RegressionCommandTests: XCTestCase {
    private func manifest(rotationMaxDegrees: Double) -> String {
        """
        {"datasets": [{"name": "vase-small",
          "synthetic": {"scene": "textured-vase", "views": 14, "seed": 3, "width": 640, "height": 480},
          "subsets": ["test"], "intrinsics": "given",
          "thresholds": {"poses.registered_fraction": {"min": 1},
                         "poses.rotation_error_median_deg": {"max": \(rotationMaxDegrees)}}}]}
        """
    }

    func testThresholdsPassFailAndTheReportRendersInABrowser() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("regression-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let manifestURL = work.appendingPathComponent("manifest.json")
        let out = work.appendingPathComponent("out")

        try Data(manifest(rotationMaxDegrees: 0.5).utf8).write(to: manifestURL)
        let honest = try CLIRunner.run(["regression", "--manifest", manifestURL.path, "-o", out.path])
        XCTAssertEqual(honest.status, 0, honest.output)
        XCTAssertTrue(honest.output.contains("vase-small") && !honest.output.contains("FAIL"), honest.output)

        // The same run, with a bound no pipeline can reach: the command must fail and say which metric.
        try Data(manifest(rotationMaxDegrees: 1e-9).utf8).write(to: manifestURL)
        let lowered = try CLIRunner.run(["regression", "--manifest", manifestURL.path, "-o", out.path])
        XCTAssertEqual(lowered.status, 1, lowered.output)
        let failing = lowered.output.split(separator: "\n").filter { $0.hasSuffix("FAIL") }
        XCTAssertEqual(failing.count, 1, lowered.output)
        XCTAssertTrue(failing.first?.contains("poses.rotation_error_median_deg") ?? false, lowered.output)

        let page = out.appendingPathComponent("report/vase-small/index.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        for picture in ["positions-top.png", "positions-side.png", "position-errors.png", "rotation-errors.png", "sparse-model.png"] {
            XCTAssertTrue(html.contains(picture), "report does not show \(picture)")
            let png = try Data(contentsOf: page.deletingLastPathComponent().appendingPathComponent(picture))
            let image = try ImageCodec.decodeRGB(png)
            XCTAssertGreaterThan(image.width, 100, picture)
        }
        try checkInBrowser(page, in: work)
    }

    /// Screenshots the page with headless Chromium and checks that the plots are painted: the
    /// plot's orange estimate dots and blue rings must appear in the screenshot.
    private func checkInBrowser(_ page: URL, in work: URL) throws {
        let candidates = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        guard let browser = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("no headless Chromium installed (Scripts/install-deps.sh installs chromium-headless-shell)")
        }
        let shot = work.appendingPathComponent("screenshot.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = ["--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,2400",
                             "--screenshot=\(shot.path)", page.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let image = try ImageCodec.decodeRGB(try Data(contentsOf: shot))
        var orange = 0, blue = 0
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            if abs(r - 221) < 12 && abs(g - 132) < 12 && abs(b - 82) < 12 { orange += 1 }
            if abs(r - 76) < 12 && abs(g - 114) < 12 && abs(b - 176) < 12 { blue += 1 }
        }
        XCTAssertGreaterThan(orange, 50, "the screenshot shows no estimated-camera dots")
        XCTAssertGreaterThan(blue, 50, "the screenshot shows no true-camera rings or histogram bars")
    }
}
