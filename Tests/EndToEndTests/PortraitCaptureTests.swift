import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore
import TestSupport
import XCTest

/// A phone held upright stores portrait photos sideways and tags them (EXIF orientation) to be
/// turned for display. Without gravity sidecars, the model's up must come from the photos as
/// shown: the synthetic vase's photos, stored turned a quarter clockwise and tagged 8, must give a
/// model with every camera above the floor it rests on, as the upright photos do.
final class PortraitCaptureTests: XCTestCase {
    func testSidewaysStoredPhotosGiveAnUprightModel() throws {
        let capture = try XCTUnwrap(try BatchCaptures.make(1).first).appendingPathComponent("images")
        let folder = try BatchCaptures.temporaryDirectory(self).appendingPathComponent("portrait")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: capture.path).filter { $0.hasSuffix(".jpg") }.sorted()
        var size = (width: 0, height: 0)
        for name in names {  // photos and masks only: no gravity or depth sidecars
            let photo = try ImageCodec.decodeRGB(Data(contentsOf: capture.appendingPathComponent(name)))
            size = (photo.width, photo.height)
            let turned = try ImageCodec.encode(Self.turnedClockwise(photo), as: .jpeg(quality: 95))
            try ExifFixture.withOrientation(8, turned).write(to: folder.appendingPathComponent(name))
            let maskName = (name as NSString).deletingPathExtension + "_mask.png"
            let mask = try ImageCodec.decodeGray(Data(contentsOf: capture.appendingPathComponent(maskName)))
            try ImageCodec.encode(Self.turnedClockwise(mask)).write(to: folder.appendingPathComponent(maskName))
        }
        // K of the turned raster: pixel (u, v) of the upright photo is at (height − v, u).
        let k = try PinholeIntrinsics.load(kFile: capture.appendingPathComponent("K.txt"))
        try "\(k.fy) 0 \(Double(size.height) - k.cy)\n0 \(k.fx) \(k.cx)\n0 0 1\n".write(to: folder.appendingPathComponent("K.txt"), atomically: true, encoding: .utf8)

        let poses = folder.appendingPathComponent("poses")
        let result = try CLIRunner.run(["reconstruct", folder.path, "-o", folder.appendingPathComponent("vase.glb").path,
                                        "--detail", "preview", "--poses-output", poses.path])
        XCTAssertEqual(result.status, 0, result.output)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: poses.appendingPathComponent("poses.json"))) as? [String: Any])
        let heights = (json["images"] as? [[String: Any]] ?? []).compactMap { ($0["translation"] as? [Double])?[1] }
        XCTAssertGreaterThan(heights.count, 25, "registered cameras")
        XCTAssertGreaterThan(heights.min() ?? -1, 0, "every camera above the floor the model rests on (y = 0): \(heights)")
    }

    /// `image` turned a quarter clockwise: its top row becomes the right column.
    static func turnedClockwise(_ image: RGBImage) -> RGBImage {
        var out = RGBImage(width: image.height, height: image.width, pixels: [UInt8](repeating: 0, count: image.pixels.count))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let to = 3 * (x * out.width + (image.height - 1 - y)), from = 3 * (y * image.width + x)
                out.pixels[to..<(to + 3)] = image.pixels[from..<(from + 3)]
            }
        }
        return out
    }

    static func turnedClockwise(_ image: GrayImage) -> GrayImage {
        var out = GrayImage(width: image.height, height: image.width, fill: 0)
        for y in 0..<image.height {
            for x in 0..<image.width { out.pixels[x * out.width + (image.height - 1 - y)] = image.pixels[y * image.width + x] }
        }
        return out
    }
}
