import CaptureReplay
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore
import SyntheticCapture

/// Writes a synthetic frame stream as a frame-stream folder (`FrameStreamIndex`) that
/// `photogrammetry capture replay` reads:
///
///     DIR/frames.json                       the index: intrinsics, object box, per frame time, pose, gravity, files
///     DIR/frame_NNNN.jpg (or .png)          the frames (1-based numbers)
///     DIR/frame_NNNN_depth.png              LiDAR-like depth, 16-bit millimetres, 0 = no return
///     DIR/frame_NNNN_depthConfidence.png    0 low, 1 medium, 2 high
///     DIR/frame_NNNN_mask.png               object mask, 255 on the object
///     DIR/synthetic.json                    the truth the replay must not read: settings, each frame's kind
///
/// The object box in the index is the object's true bounds grown by `boxMargin` on every side,
/// standing in for the box a person would confirm. Output is byte-identical for identical settings.
public enum SyntheticFrameStreamWriter {
    /// Growth of the true bounds on every side for the index's object box, metres.
    public static let boxMargin = 0.01

    /// Renders every frame (on `workers` threads) and writes the folder.
    public static func write(_ stream: SyntheticFrameStream, to directory: URL,
                             photoFormat: SyntheticCaptureWriter.PhotoFormat = .jpeg,
                             workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let failures = parallelMap(stream.frames.count, workers: workers) { index -> String? in
            do {
                try writeFrame(stream.view(at: index), to: directory, photoFormat: photoFormat)
                return nil
            } catch {
                return "frame \(index): \(error)"
            }
        }.compactMap { $0 }
        if let first = failures.first { throw RegressionError.dataset(directory.path, "cannot write the frame stream: \(first)") }

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFileWriter.write(try encoder.encode(index(stream, photoFormat: photoFormat)),
                                   to: directory.appendingPathComponent(FrameStreamIndex.fileName))
        try AtomicFileWriter.write(try encoder.encode(Truth(settings: stream.settings, frames: stream.frames.map {
            Truth.Frame(index: $0.index, name: $0.name, kind: $0.kind)
        })), to: directory.appendingPathComponent("synthetic.json"))
    }

    /// The index of `stream`, its frames named as `write` names them.
    public static func index(_ stream: SyntheticFrameStream, photoFormat: SyntheticCaptureWriter.PhotoFormat) -> FrameStreamIndex {
        let k = stream.intrinsics
        let bounds = stream.objectBounds
        let half = bounds.halfExtents + Vector3(boxMargin, boxMargin, boxMargin)
        let ext = photoFormat == .jpeg ? "jpg" : "png"
        return FrameStreamIndex(
            intrinsics: .init(width: k.width, height: k.height, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy),
            objectBox: .init(centre: bounds.centre.array, halfExtents: half.array),
            frames: stream.frames.map { frame in
                let pose = frame.shot.worldFromCamera
                return FrameStreamIndex.Entry(
                    image: "\(frame.name).\(ext)", timestamp: frame.timestamp,
                    rotation: UnitQuaternion(pose.rotation).array, position: pose.translation.array,
                    gravity: frame.shot.gravity.array, depth: "\(frame.name)_depth.png",
                    depthConfidence: "\(frame.name)_depthConfidence.png", mask: "\(frame.name)_mask.png")
            })
    }

    static func writeFrame(_ view: SyntheticView, to directory: URL, photoFormat: SyntheticCaptureWriter.PhotoFormat) throws {
        let stem = view.name
        let ext = photoFormat == .jpeg ? "jpg" : "png"
        let photo = try ImageCodec.encode(view.image, as: photoFormat == .jpeg ? .jpeg(quality: 95) : .png)
        try AtomicFileWriter.write(photo, to: directory.appendingPathComponent("\(stem).\(ext)"))
        try AtomicFileWriter.write(try ImageCodec.encode(view.mask), to: directory.appendingPathComponent("\(stem)_mask.png"))
        let millimetres = view.depth.metres.map { UInt16(clamping: Int(($0 * 1000).rounded())) }
        try AtomicFileWriter.write(try ImageCodec.encode16(millimetres, width: view.depth.width, height: view.depth.height),
                                   to: directory.appendingPathComponent("\(stem)_depth.png"))
        try AtomicFileWriter.write(try ImageCodec.encode(view.confidence),
                                   to: directory.appendingPathComponent("\(stem)_depthConfidence.png"))
    }

    /// synthetic.json: what was generated and which frames were spoiled.
    struct Truth: Codable {
        struct Frame: Codable {
            var index: Int
            var name: String
            var kind: SyntheticFrame.Kind
        }

        var generator = "photogrammetry synth-frames"
        var settings: SyntheticFrameStream.Settings
        var frames: [Frame]
    }
}
