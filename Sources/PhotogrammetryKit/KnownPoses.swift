import CaptureIO
import Foundation
import ModelExport
import Reconstruction
import ReconstructionCore

/// A scene from known camera poses (e.g. a device's tracking) instead of structure from motion.
public enum KnownPoses {
    /// Every photo in `imagesDirectory` with a pose in `posesFile` (matched by file name), with
    /// `intrinsics` at the size of the first photo, or, when `intrinsics` is nil, each with its
    /// own intrinsics from the poses file (as `poses` writes them: self-calibrated focal lengths
    /// and distortion included). No sparse points. Photos without a pose are unregistered, saying
    /// so; a file that names none of the photos is an error, and so, without `intrinsics`, is a
    /// posed photo that the file gives no intrinsics for, or intrinsics of another size, and with
    /// them, a K whose principal point lies outside the first posed photo or that fits it only
    /// scaled or turned.
    public static func scene(posesFile: URL, imagesDirectory: URL, intrinsics: PinholeIntrinsics?) throws -> SparseScene {
        let poses = Dictionary(try PosesJSONReader.load(posesFile).map { ($0.name, $0.worldFromCamera) }, uniquingKeysWith: { a, _ in a })
        let photos = try ImageFolder.listImages(in: imagesDirectory)
        guard let first = photos.first else { throw CaptureIOError(path: imagesDirectory.path, problem: "has no photos") }
        let named = photos.filter { poses[$0.lastPathComponent] != nil }.count
        guard named > 0 else {
            let examples = poses.keys.sorted().prefix(3).joined(separator: ", ")
            throw CaptureIOError(path: posesFile.path, problem: "names none of the \(photos.count) photos in \(imagesDirectory.path) "
                                          + "(poses are matched to photos by file name; it has \(poses.count): \(examples)\(poses.count > 3 ? ", …" : ""))")
        }
        let cameras: (URL) throws -> (CameraIntrinsics, IntrinsicsSource)
        // A photo without a pose needs no intrinsics of its own: it keeps those of the first posed photo.
        let firstPosed = photos.first { (poses[$0.lastPathComponent] ?? nil) != nil } ?? first
        if let intrinsics {
            let size = try ImageCodec.decodeGray(try Data(contentsOf: firstPosed))
            // A K made for other photos (another size, turned) is refused before any work, as `poses`
            // refuses it photo by photo; a principal point merely off the centre is left to the user.
            let misfit: (placement: String, hint: IntrinsicsFit.Hint?)? = switch IntrinsicsFit.check(intrinsics, width: size.width, height: size.height) {
            case .fits, .offCentre(nil): nil
            case .offCentre(let hint?): ("is far from its centre", hint)
            case .outside(let hint): ("lies outside it", hint)
            }
            if let misfit {
                throw CaptureIOError(path: firstPosed.path, problem: "is \(size.width)×\(size.height) pixels, and the given K's principal point "
                                     + String(format: "(%.1f, %.1f) ", intrinsics.cx, intrinsics.cy) + misfit.placement
                                     + CaptureSamples.advice(misfit.hint, rotated: false))
            }
            let camera = intrinsics.cameraIntrinsics(width: size.width, height: size.height)
            cameras = { _ in (camera, .given) }
        } else {
            let recorded = try PosesJSONReader.loadIntrinsics(posesFile)
            cameras = { url in try recordedIntrinsics(recorded, of: url, posesFile: posesFile) }
        }
        // A photo the file lists as not registered keeps the file's reason (a photo that did not decode, say).
        let reasons = try PosesJSONReader.loadReasons(posesFile)
        return SparseScene(images: try photos.map { url in
            let pose = poses[url.lastPathComponent] ?? nil
            let (camera, source) = try cameras(pose == nil ? firstPosed : url)
            let reason = reasons[url.lastPathComponent].map { "not registered in \(posesFile.lastPathComponent): \($0)" }
                ?? "no pose in \(posesFile.lastPathComponent)"
            return SparseScene.Image(name: url.lastPathComponent, intrinsics: camera, intrinsicsSource: source,
                                     cameraFromWorld: pose?.inverse, unregisteredReason: pose == nil ? reason : nil,
                                     keypoints: [], pointIndexOfKeypoint: [])
        }, points: [])
    }

    /// The intrinsics `posesFile` records for the photo at `url`, checked against its size.
    private static func recordedIntrinsics(_ recorded: [String: CameraIntrinsics], of url: URL, posesFile: URL) throws -> (CameraIntrinsics, IntrinsicsSource) {
        let name = url.lastPathComponent
        guard let camera = recorded[name] else {
            throw CaptureIOError(path: posesFile.path, problem: "gives no intrinsics for \(name): give --intrinsics or --intrinsics-file")
        }
        // A header that does not give the size (HEIC) leaves the recorded size to be trusted.
        if let size = ImageDimensions.read(contentsOf: url), size.width != camera.width || size.height != camera.height {
            throw CaptureIOError(path: posesFile.path, problem: "gives intrinsics for \(camera.width)×\(camera.height) pixels, but \(name) is "
                                 + "\(size.width)×\(size.height) (photos resized since?): give --intrinsics or --intrinsics-file for this size")
        }
        return (camera, .given)
    }
}
