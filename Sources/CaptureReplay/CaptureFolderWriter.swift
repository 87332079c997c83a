import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore

/// Writes the curated capture folder, Object Capture-style: per shot `NNNN.<ext>` (the frame's
/// bytes, unchanged) with whichever sidecars the frame has — `NNNN_depth.<ext>`,
/// `NNNN_depthConfidence.<ext>`, `NNNN_mask.<ext>` (copied) and `NNNN_gravity.txt` (written) —
/// `K.txt` (3×3 row-major intrinsics) when every shot has the same intrinsics, and
/// `tracked_poses.json` (the shots' poses as the device tracked them).
struct CaptureFolderWriter {
    let directory: URL

    /// Creates the folder; refuses one that holds anything but hidden files (as Object Capture
    /// refuses a non-empty images directory), so shots of two replays never mix.
    func prepare() throws(CaptureReplayError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CaptureReplayError(path: directory.path, "exists and is not a folder") }
            let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
            if let first = names.sorted().first(where: { !$0.hasPrefix(".") }) {
                throw CaptureReplayError(path: directory.path, "is not empty (holds \(first)); give a new or empty folder")
            }
        } else {
            do {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw CaptureReplayError(path: directory.path, "cannot be created: \(error.localizedDescription)")
            }
        }
        // Writable before any frame is read (permissions alone miss read-only mounts): a probe file.
        let probe = directory.appendingPathComponent(".write-test-\(UUID().uuidString)")
        guard manager.createFile(atPath: probe.path, contents: Data()) else {
            throw CaptureReplayError(path: directory.path, "cannot be written (no new file can be created in it)")
        }
        try? manager.removeItem(at: probe)
    }

    /// True while the folder exists.
    var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The stem of shot `id` (0-based): `0001` for shot 0.
    static func stem(ofShot id: Int) -> String {
        let number = String(id + 1)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number
    }

    /// Writes shot `id` from `frame`; returns the photo's file name.
    func save(shot id: Int, frame: FrameStream.Frame) throws -> String {
        let stem = Self.stem(ofShot: id)
        let photo = "\(stem).\(frame.image.pathExtension.lowercased())"
        try copy(frame.image, to: photo)
        if let depth = frame.depth { try copy(depth, to: "\(stem)_depth.\(depth.pathExtension.lowercased())") }
        if let confidence = frame.depthConfidence {
            try copy(confidence, to: "\(stem)_depthConfidence.\(confidence.pathExtension.lowercased())")
        }
        if let mask = frame.mask { try copy(mask, to: "\(stem)_mask.\(mask.pathExtension.lowercased())") }
        let g = frame.gravity / frame.gravity.length
        try AtomicFileWriter.write(Data(String(format: "%.9f %.9f %.9f\n", g.x, g.y, g.z).utf8),
                                   to: GravitySidecar.url(besides: directory.appendingPathComponent(photo)))
        return photo
    }

    /// Writes `K.txt` (Strecha's layout: 3×3, row-major).
    func writeIntrinsics(_ k: CameraIntrinsics) throws {
        try AtomicFileWriter.write(Data(String(format: "%.10g 0 %.10g\n0 %.10g %.10g\n0 0 1\n", k.fx, k.cx, k.fy, k.cy).utf8),
                                   to: directory.appendingPathComponent(CaptureFolderFiles.intrinsics))
    }

    /// Writes `tracked_poses.json`: each shot's pose as the device tracked it (the frame's), in
    /// `poses.json`'s format, world metres with z up. The dense stage takes the metric scale from it
    /// when no depth gives one; `reconstruct --poses` takes the poses themselves.
    func writeTrackedPoses(_ shots: [SparseScene.Image]) throws {
        try PosesJSONWriter.write(scene: SparseScene(images: shots, points: []), to: directory.appendingPathComponent(CaptureFolderFiles.trackedPoses),
                                  world: PosesWorld(description: "the capture's world as the device tracked it: metres, z up (against gravity)", isMetric: true))
    }

    private func copy(_ source: URL, to name: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: source)
        } catch {
            throw CaptureReplayError(path: source.path, "cannot be read: \(FileReadFailure.reason(source, error))")
        }
        try AtomicFileWriter.write(data, to: directory.appendingPathComponent(name))
    }
}
