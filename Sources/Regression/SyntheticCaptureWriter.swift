import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import SyntheticCapture

/// Writes a synthetic capture as an Object Capture-style folder with its ground truth:
///
///     DIR/capture.json                     generator settings, intrinsics, object bounds, views
///     DIR/images/NNNN.jpg (or .png)        the photos
///     DIR/images/NNNN_depth.png            LiDAR-like depth, 16-bit, millimetres along the camera z axis, 0 = no return
///     DIR/images/NNNN_depthConfidence.png  0 low, 1 medium, 2 high (ARKit's levels), depth resolution
///     DIR/images/NNNN_mask.png             object mask, 255 on the object, photo resolution
///     DIR/images/NNNN_gravity.txt          physical down in camera coordinates, g units: "x y z"
///     DIR/images/K.txt                     photo intrinsics, 3×3 row-major (Strecha's K.txt layout)
///     DIR/ground_truth/poses.json, colmap/, transforms.json   true camera poses (object frame, metres)
///     DIR/ground_truth/mesh.ply            the true object surface (object frame, metres)
///
/// Output is byte-identical for identical settings.
public enum SyntheticCaptureWriter {
    public enum PhotoFormat: String, Sendable, CaseIterable {
        case jpeg, png

        var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    /// Renders every view (on `workers` threads) and writes the folder; returns the images folder.
    /// Without `sidecars`, the images folder holds only the photos and K.txt, as a folder of a
    /// camera's photos would (no masks, depth or gravity); the ground truth is written all the same.
    @discardableResult
    public static func write(_ capture: SyntheticCapture, to directory: URL, photoFormat: PhotoFormat = .jpeg, sidecars: Bool = true,
                             workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                             progress: @Sendable (Int) -> Void = { _ in }) throws -> URL {
        let images = directory.appendingPathComponent("images", isDirectory: true)
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let done = AtomicCounter()
        let failures = parallelMap(capture.viewCount, workers: workers) { index -> String? in
            defer { progress(done.next() + 1) }
            do {
                try writeView(capture.view(at: index), to: images, photoFormat: photoFormat, sidecars: sidecars)
                return nil
            } catch {
                return "view \(index): \(error)"
            }
        }.compactMap { $0 }
        if let first = failures.first { throw RegressionError.dataset(directory.path, "cannot write the capture: \(first)") }

        let k = capture.intrinsics
        try AtomicFileWriter.write(Data(String(format: "%.10g 0 %.10g\n0 %.10g %.10g\n0 0 1\n", k.fx, k.cx, k.fy, k.cy).utf8),
                                   to: images.appendingPathComponent(CaptureFolderFiles.intrinsics))
        let truth = directory.appendingPathComponent(GroundTruth.syntheticFolderName, isDirectory: true)
        try PoseExport.writeAll(scene: groundTruthScene(capture, photoFormat: photoFormat), imagesDirectory: images, to: truth,
                                world: PosesWorld(description: "object frame of the synthetic capture: metres, z up, the object resting on z = 0 in the first scan pass",
                                                   isMetric: true))
        try PLYWriter.write(capture.objectMesh, to: truth.appendingPathComponent("mesh.ply"))
        try AtomicFileWriter.write(try description(capture, photoFormat: photoFormat, sidecars: sidecars), to: directory.appendingPathComponent("capture.json"))
        return images
    }

    static func writeView(_ view: SyntheticView, to images: URL, photoFormat: PhotoFormat, sidecars: Bool) throws {
        let stem = view.name
        let photo = try ImageCodec.encode(view.image, as: photoFormat == .jpeg ? .jpeg(quality: 95) : .png)
        try AtomicFileWriter.write(photo, to: images.appendingPathComponent("\(stem).\(photoFormat.fileExtension)"))
        guard sidecars else { return }
        try AtomicFileWriter.write(try ImageCodec.encode(view.mask), to: images.appendingPathComponent("\(stem)_mask.png"))
        let millimetres = view.depth.metres.map { UInt16(clamping: Int(($0 * 1000).rounded())) }
        try AtomicFileWriter.write(try ImageCodec.encode16(millimetres, width: view.depth.width, height: view.depth.height),
                                   to: images.appendingPathComponent("\(stem)_depth.png"))
        try AtomicFileWriter.write(try ImageCodec.encode(view.confidence), to: images.appendingPathComponent("\(stem)_depthConfidence.png"))
        let g = view.gravity
        try AtomicFileWriter.write(Data(String(format: "%.9f %.9f %.9f\n", g.x, g.y, g.z).utf8),
                                   to: GravitySidecar.url(besides: images.appendingPathComponent(stem)))
    }

    /// The true poses as a scene without points (every view registered).
    static func groundTruthScene(_ capture: SyntheticCapture, photoFormat: PhotoFormat) -> SparseScene {
        SparseScene(images: capture.shots.map { shot in
            SparseScene.Image(name: "\(shot.name).\(photoFormat.fileExtension)", intrinsics: capture.intrinsics, intrinsicsSource: .given,
                              cameraFromWorld: shot.cameraFromWorld, unregisteredReason: nil, keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
    }

    /// capture.json: what was generated, so a cache can tell whether a folder matches settings.
    static func description(_ capture: SyntheticCapture, photoFormat: PhotoFormat, sidecars: Bool = true) throws -> Data {
        struct View: Encodable {
            var name: String
            var pass: Int
            var ring: Int
        }
        struct Description: Encodable {
            var generator = "photogrammetry synth"
            var settings: SyntheticCapture.Settings
            var photoFormat: String
            var sidecars: Bool
            var intrinsics: CameraIntrinsics
            var depthIntrinsics: CameraIntrinsics
            var objectBounds: BoundingBox
            var objectTriangles: Int
            var views: [View]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(Description(
            settings: capture.settings, photoFormat: photoFormat.rawValue, sidecars: sidecars, intrinsics: capture.intrinsics,
            depthIntrinsics: capture.depthIntrinsics, objectBounds: capture.objectBounds,
            objectTriangles: capture.objectMesh.triangleCount,
            views: capture.shots.map { View(name: $0.name, pass: $0.pass, ring: $0.ring) }))
    }
}
