import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Dense stereo on fountain-P11 (11 photos, 3072 × 2048), for timing and inspection; it runs only
/// when DENSE_FOUNTAIN is set: to a COLMAP text model folder of the scene (cameras.txt,
/// images.txt, points3D.txt, e.g. from `photogrammetry poses … -o out` → out/colmap), or to `gt`
/// for the ground-truth cameras without sparse points. DENSE_OUT names a folder for the fused
/// cloud (PLY); DENSE_MAX_DIMENSION sets the working size (default 768). Measure memory with `/usr/bin/time -v swift test … --filter DenseStereoFountainTests`.
final class DenseStereoFountainTests: XCTestCase {
    func testFountainDenseStereo() throws {
        guard let model = ProcessInfo.processInfo.environment["DENSE_FOUNTAIN"] else {
            throw XCTSkip("set DENSE_FOUNTAIN to a COLMAP text model folder of fountain-P11 (or `gt`) to run")
        }
        let sceneURL = StrechaPosesTests.strecha.appendingPathComponent("fountain-P11")
        guard FileManager.default.fileExists(atPath: sceneURL.path) else {
            throw XCTSkip("shared dataset absent: \(sceneURL.path)")
        }
        let imagesURL = sceneURL.appendingPathComponent("images")
        var options = DenseStereo.Options()
        let input: DenseStereo.Input
        if model == "gt" {
            let k = try PinholeIntrinsics.load(kFile: imagesURL.appendingPathComponent("K.txt"))
            let intrinsics = CameraIntrinsics(width: 3072, height: 2048, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy)
            let poses = try StrechaGroundTruth.load(sceneDirectory: sceneURL)
            input = DenseStereo.Input(views: poses.compactMap { pose in
                pose.worldFromCamera.map { ($0, pose.name) }
            }.map {
                DenseStereo.View(name: $0.1, image: .file(imagesURL.appendingPathComponent($0.1)),
                                 intrinsics: intrinsics, worldFromCamera: $0.0)
            })
            options.fallbackDepthRange = 3...30
        } else {
            input = try Self.loadCOLMAPText(URL(fileURLWithPath: model), imagesDirectory: imagesURL)
        }
        if let size = ProcessInfo.processInfo.environment["DENSE_MAX_DIMENSION"].flatMap(Int.init) {
            options.maxImageDimension = size
        }
        let start = Date()
        let result = try DenseStereo(options: options).run(input)
        let total = Date().timeIntervalSince(start)
        let stages = DenseStereo.Stage.allCases.map { String(format: "%@ %.1f s", $0.rawValue, result.stageSeconds[$0] ?? 0) }
        print("fountain dense stereo: \(String(format: "%.1f", total)) s (\(stages.joined(separator: ", "))), "
              + "\(result.views.count) depth maps, \(result.pointCloud.count) fused points")
        for view in result.views {
            let valid = view.depth.metres.filter { $0 > 0 }.count
            print("  \(view.name): \(view.depth.width)×\(view.depth.height), \(String(format: "%.1f", 100 * Double(valid) / Double(view.depth.metres.count))) % with depth, neighbours \(view.neighbours)")
        }
        XCTAssertEqual(result.views.count, input.views.count)
        XCTAssertGreaterThan(result.pointCloud.count, 100_000)
        if let out = ProcessInfo.processInfo.environment["DENSE_OUT"] {
            let folder = URL(fileURLWithPath: out)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.writePLY(result.pointCloud, to: folder.appendingPathComponent("fountain-fused.ply"))
            for view in result.views {
                try Self.writeDepthPreview(view, to: folder.appendingPathComponent("depth-\(view.name).png"))
            }
        }
    }

    /// Posed views and sparse points of a COLMAP text model (PINHOLE / OPENCV cameras).
    static func loadCOLMAPText(_ folder: URL, imagesDirectory: URL) throws -> DenseStereo.Input {
        func lines(_ name: String) throws -> [[Substring]] {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: " ") }
        }
        var cameras: [Int: CameraIntrinsics] = [:]
        for f in try lines("cameras.txt") where f.count >= 8 {
            let p = f[4...].compactMap { Double($0) }
            cameras[Int(f[0])!] = CameraIntrinsics(width: Int(f[2])!, height: Int(f[3])!, fx: p[0], fy: p[1], cx: p[2], cy: p[3],
                                                  k1: f[1] == "OPENCV" ? p[4] : 0, k2: f[1] == "OPENCV" ? p[5] : 0)
        }
        var views: [DenseStereo.View] = []
        var viewOfImageID: [Int: Int] = [:]
        let imageLines = try lines("images.txt")
        var i = 0
        while i < imageLines.count {
            let f = imageLines[i]
            if f.count >= 10, let id = Int(f[0]) {
                let q = UnitQuaternion(w: Double(f[1])!, x: Double(f[2])!, y: Double(f[3])!, z: Double(f[4])!)
                let cameraFromWorld = RigidTransform(rotation: q.matrix, translation: Vector3(Double(f[5])!, Double(f[6])!, Double(f[7])!))
                let name = String(f[9])
                viewOfImageID[id] = views.count
                views.append(DenseStereo.View(name: name, image: .file(imagesDirectory.appendingPathComponent(name)),
                                              intrinsics: cameras[Int(f[8])!]!, worldFromCamera: cameraFromWorld.inverse))
                i += 2
            } else {
                i += 1
            }
        }
        var points: [DenseStereo.SparsePoint] = []
        for f in try lines("points3D.txt") where f.count >= 8 {
            let track = stride(from: 8, to: f.count - 1, by: 2).compactMap { viewOfImageID[Int(f[$0])!] }
            points.append(DenseStereo.SparsePoint(position: Vector3(Double(f[1])!, Double(f[2])!, Double(f[3])!), viewIndices: track))
        }
        return DenseStereo.Input(views: views, points: points)
    }

    static func writePLY(_ cloud: PointCloud, to url: URL) throws {
        var header = "ply\nformat binary_little_endian 1.0\nelement vertex \(cloud.count)\n"
        header += "property float x\nproperty float y\nproperty float z\n"
        if cloud.hasNormals { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if cloud.hasColors { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        header += "end_header\n"
        var data = Data(header.utf8)
        for i in 0..<cloud.count {
            var values = [cloud.positions[i].x, cloud.positions[i].y, cloud.positions[i].z]
            if cloud.hasNormals { values += [cloud.normals[i].x, cloud.normals[i].y, cloud.normals[i].z] }
            values.withUnsafeBytes { data.append(contentsOf: $0) }
            if cloud.hasColors {
                let c = cloud.colors[i]
                data.append(contentsOf: [UInt8(min(255, c.x * 255)), UInt8(min(255, c.y * 255)), UInt8(min(255, c.z * 255))])
            }
        }
        try data.write(to: url)
    }

    /// Depth as grey (near bright, far dark), missing pixels red.
    static func writeDepthPreview(_ view: ViewDepth, to url: URL) throws {
        let valid = view.depth.metres.filter { $0 > 0 }.sorted()
        guard !valid.isEmpty else { return }
        let low = valid[valid.count / 50], high = valid[valid.count * 49 / 50]
        var rgb = [UInt8](repeating: 0, count: view.depth.metres.count * 3)
        for (i, d) in view.depth.metres.enumerated() {
            if d > 0 {
                let t = 1 - min(1, max(0, (d - low) / max(1e-6, high - low)))
                let g = UInt8(30 + 225 * t)
                rgb[3 * i] = g
                rgb[3 * i + 1] = g
                rgb[3 * i + 2] = g
            } else {
                rgb[3 * i] = 160
            }
        }
        try ImageCodec.encode(RGBImage(width: view.depth.width, height: view.depth.height, pixels: rgb)).write(to: url)
    }
}
