import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore

/// An RGB-D keyframe folder, as written by depth-camera and phone capture apps: for each frame N
///
///     color_N.jpg | color_N.png          the photo
///     depth_N.png | depth_N.tif(f)       depth along the camera's viewing axis: 16-bit
///                                        millimetres (PNG) or 32-bit float metres (TIFF), 0 = none,
///                                        any resolution with the photo's aspect ratio
///     metadata_N.json                    intrinsics and camera-to-world pose (`RGBDFrameMetadata`)
///     confidence_N.png (optional)        the depth's confidence, 8-bit, depth's size: 0 low,
///                                        1 medium, 2 high (ARKit's levels), weighting the depth
///
/// The poses are taken as known and metric, so the frames go through the same dense path as a
/// capture folder with `--poses`: stereo on the photos (optional) plus the depth fused into the
/// surface. A frame with a missing or unreadable file, bad JSON, a matrix of the wrong shape, a
/// non-finite value or an invalid depth image is reported (naming the file) and skipped. A
/// confidence map that cannot be used is reported too, and its frame's depth weighs the same everywhere.
public struct RGBDKeyframes: Sendable {
    /// One usable frame.
    public struct Frame: Sendable {
        public var number: Int
        /// File name of the photo, inside the folder.
        public var photoName: String
        /// Intrinsics at the photo's resolution.
        public var intrinsics: CameraIntrinsics
        /// The camera's pose (x right, y down, z forward), metres.
        public var worldFromCamera: RigidTransform
        public var depth: DepthSidecar
    }

    public var folder: URL
    /// Usable frames by increasing number.
    public var frames: [Frame]
    /// Skipped frames, stray files and unusable confidence maps, each naming its file.
    public var problems: [DepthSidecarError]

    static let photoExtensions = ["jpg", "jpeg", "png"]
    static let depthExtensions = ["png", "tif", "tiff"]

    /// Whether `folder` holds keyframes: at least one `color_N.*` and one `metadata_N.json`.
    public static func isKeyframeFolder(_ folder: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.contains { frameDigits($0, prefix: "color_", extensions: photoExtensions) != nil }
            && names.contains { frameDigits($0, prefix: "metadata_", extensions: ["json"]) != nil }
    }

    /// Reads every frame of `folder`; bad frames go to `problems`.
    /// - Throws: when the folder cannot be listed.
    public static func load(_ folder: URL) throws -> RGBDKeyframes {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            throw CaptureIOError(path: folder.path, problem: "cannot list the keyframe folder: \(error.localizedDescription)")
        }
        var files: [String: [Int: String]] = ["color_": [:], "depth_": [:], "metadata_": [:], "confidence_": [:]]
        var problems: [DepthSidecarError] = []
        for name in names {
            for (prefix, extensions) in [("color_", photoExtensions), ("depth_", depthExtensions), ("metadata_", ["json"]), ("confidence_", ["png"])] {
                guard let digits = frameDigits(name, prefix: prefix, extensions: extensions) else { continue }
                guard let n = Int(digits) else {
                    problems.append(.init(file: folder.appendingPathComponent(name), "has a frame number too large to read; it is skipped"))
                    continue
                }
                if let first = files[prefix]![n] {
                    problems.append(.init(file: folder.appendingPathComponent(name), "is a second \(prefix.dropLast()) file for frame \(n); \(first) is used"))
                } else {
                    files[prefix]![n] = name
                }
            }
        }
        var frames: [Frame] = []
        // A confidence map alone is no frame.
        let numbers = Set(["color_", "depth_", "metadata_"].flatMap { files[$0]!.keys }).sorted()
        for n in files["confidence_"]!.keys.sorted() where !numbers.contains(n) {
            problems.append(.init(file: folder.appendingPathComponent(files["confidence_"]![n]!), "has no frame \(n) (no colour, depth or metadata file); it is not used"))
        }
        for n in numbers {
            do {
                let frame = try frame(n, photo: files["color_"]![n], depth: files["depth_"]![n], metadata: files["metadata_"]![n],
                                      confidence: files["confidence_"]![n], in: folder)
                if let problem = frame.depth.confidenceProblem {
                    problems.append(.init(file: problem.file, problem.problem + "; frame \(n)'s depth is used with equal weight"))
                }
                frames.append(frame)
            } catch {
                problems.append(error)
            }
        }
        return RGBDKeyframes(folder: folder, frames: frames, problems: problems)
    }

    /// Frame `n` from its files (names inside `folder`), or the first problem, naming its file.
    static func frame(_ n: Int, photo: String?, depth: String?, metadata: String?, confidence: String? = nil,
                      in folder: URL) throws(DepthSidecarError) -> Frame {
        let anyFile = folder.appendingPathComponent(photo ?? depth ?? metadata ?? "frame \(n)")
        guard let metadata else { throw DepthSidecarError(file: anyFile, "has no metadata_\(n).json; frame \(n) is skipped") }
        let metadataURL = folder.appendingPathComponent(metadata)
        guard let photo else { throw DepthSidecarError(file: metadataURL, "has no photo color_\(n).jpg or .png; frame \(n) is skipped") }
        guard let depth else { throw DepthSidecarError(file: metadataURL, "has no depth image depth_\(n).png or .tif; frame \(n) is skipped") }
        let camera: RGBDFrameMetadata
        do {
            camera = try RGBDFrameMetadata.parse(try Data(contentsOf: metadataURL))
        } catch let problem as RGBDMetadataProblem {
            throw DepthSidecarError(file: metadataURL, problem.message + "; frame \(n) is skipped")
        } catch {
            throw DepthSidecarError(file: metadataURL, "cannot be read (\(FileReadFailure.reason(metadataURL, error))); frame \(n) is skipped")
        }
        let photoURL = folder.appendingPathComponent(photo)
        let size: (width: Int, height: Int)
        do {
            let image = try ImageCodec.decodeGray(try Data(contentsOf: photoURL))
            size = (image.width, image.height)
        } catch {
            throw DepthSidecarError(file: photoURL, "is not a readable photo (\(error)); frame \(n) is skipped")
        }
        guard camera.cx > 0, camera.cx < Double(size.width), camera.cy > 0, camera.cy < Double(size.height) else {
            throw DepthSidecarError(file: metadataURL, "has its principal point (\(camera.cx), \(camera.cy)) outside its \(size.width)×\(size.height) "
                                    + "photo \(photo) (intrinsics are in pixels of the colour photo); frame \(n) is skipped")
        }
        let depthSidecar: DepthSidecar
        do {
            depthSidecar = try DepthSidecar.load(depth: folder.appendingPathComponent(depth), confidence: confidence.map { folder.appendingPathComponent($0) },
                                                 photoWidth: size.width, photoHeight: size.height)
        } catch {
            throw DepthSidecarError(file: error.file, error.problem + "; frame \(n) is skipped")
        }
        let intrinsics = CameraIntrinsics(width: size.width, height: size.height, fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        return Frame(number: n, photoName: photo, intrinsics: intrinsics, worldFromCamera: camera.worldFromCamera,
                     depth: depthSidecar)
    }

    /// The digits N of `PREFIXN.ext` (ext case-insensitive, one of `extensions`), else nil.
    static func frameDigits(_ name: String, prefix: String, extensions: [String]) -> Substring? {
        let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension.lowercased()
        guard extensions.contains(ext), stem.hasPrefix(prefix) else { return nil }
        let digits = stem.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return digits
    }

    /// The frames as a posed scene without points (photo names relative to `folder`).
    public var scene: SparseScene {
        SparseScene(images: frames.map { frame in
            SparseScene.Image(name: frame.photoName, intrinsics: frame.intrinsics, intrinsicsSource: .given,
                              cameraFromWorld: frame.worldFromCamera.inverse, unregisteredReason: nil, keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
    }

    /// Each frame's depth by photo name (for `DenseRun.run(frameDepth:)`).
    public var depthByPhotoName: [String: DepthSidecar] {
        Dictionary(frames.map { ($0.photoName, $0.depth) }, uniquingKeysWith: { a, _ in a })
    }
}
