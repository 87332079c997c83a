import Foundation
import Reconstruction
import ReconstructionCore

/// A photo's depth sidecar (`STEM_depth.png`: 16-bit millimetres, or `STEM_depth.tif(f)`: 32-bit
/// float metres), with its optional confidence map (`STEM_depthConfidence.png`, 0 low … 2 high).
public struct DepthSidecar: Sendable {
    public var depth: DepthMap
    /// Per depth pixel 0 (low), 1 (medium), 2 (high); nil when there is no confidence map.
    public var confidence: GrayImage?
    /// Why the confidence map beside the depth could not be used (the depth then weighs the same
    /// everywhere); nil when there is none or it was used.
    public var confidenceProblem: DepthSidecarError?

    public init(depth: DepthMap, confidence: GrayImage?) {
        self.depth = depth
        self.confidence = confidence
    }

    /// Per-pixel integration weights from the confidence (low 0, medium 0.5, high 1; 1 without a map).
    public var weights: [Float] {
        guard let confidence else { return depth.metres.map { $0 > 0 ? 1 : 0 } }
        return confidence.pixels.map { [0, 0.5, 1][Int(min($0, 2))] }
    }

    public static let depthSuffix = "_depth"
    public static let confidenceSuffix = "_depthConfidence"

    /// The sidecar of `photo` (size `photoWidth`×`photoHeight`), nil when it has none. A sidecar
    /// that cannot be used throws a message naming its file; the caller warns and uses the photo
    /// without depth. A confidence map that cannot be used leaves the depth unweighted
    /// (`confidenceProblem`).
    public static func load(besides photo: URL, photoWidth: Int, photoHeight: Int) throws(DepthSidecarError) -> DepthSidecar? {
        guard let file = file(besides: photo) else { return nil }
        let stem = photo.deletingPathExtension().lastPathComponent
        let folder = photo.deletingLastPathComponent()
        let confidenceFile = folder.appendingPathComponent("\(stem)\(confidenceSuffix).png")
        return try load(depth: file, confidence: FileManager.default.fileExists(atPath: confidenceFile.path) ? confidenceFile : nil,
                        photoWidth: photoWidth, photoHeight: photoHeight)
    }

    /// The depth sidecar file of `photo` (`NAME_depth.png`, `.tif` or `.tiff` beside it), nil when there is none.
    public static func file(besides photo: URL) -> URL? {
        let stem = photo.deletingPathExtension().lastPathComponent
        let folder = photo.deletingLastPathComponent()
        return ["png", "tif", "tiff"].map { folder.appendingPathComponent("\(stem)\(depthSuffix).\($0)") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The depth at `file` with the confidence map at `confidenceFile`, checked against a photo of
    /// `photoWidth`×`photoHeight` as `load(besides:photoWidth:photoHeight:)` checks sidecars found
    /// by name (a recorded frame stream names its files itself).
    public static func load(depth file: URL, confidence confidenceFile: URL?, photoWidth: Int,
                            photoHeight: Int) throws(DepthSidecarError) -> DepthSidecar {
        let depth = try decodeDepth(file, photoWidth: photoWidth, photoHeight: photoHeight)
        guard let confidenceFile else { return DepthSidecar(depth: depth, confidence: nil) }
        do {
            return DepthSidecar(depth: depth, confidence: try decodeConfidence(confidenceFile, depth: depth))
        } catch {
            // The depth is good without it: every sample then weighs the same.
            var sidecar = DepthSidecar(depth: depth, confidence: nil)
            sidecar.confidenceProblem = error
            return sidecar
        }
    }

    static func decodeConfidence(_ file: URL, depth: DepthMap) throws(DepthSidecarError) -> GrayImage {
        guard let data = try? Data(contentsOf: file), let raw = try? ImageCodec.decodeUnchanged(data),
              raw.channels == 1, case .uint8(let levels) = raw.samples else {
            throw DepthSidecarError(file: file, "is not a readable 8-bit single-channel confidence map")
        }
        guard raw.width == depth.width, raw.height == depth.height else {
            throw DepthSidecarError(file: file, "is \(raw.width)×\(raw.height) but its depth map is \(depth.width)×\(depth.height)")
        }
        guard levels.allSatisfy({ $0 <= 2 }) else {
            throw DepthSidecarError(file: file, "has values above 2 (expected 0 low, 1 medium, 2 high)")
        }
        return GrayImage(width: raw.width, height: raw.height, pixels: levels)
    }

    /// Depth and confidence sidecars in `folder` whose photo is missing, as warnings.
    public static func orphans(in folder: URL, photos: [URL]) -> [DepthSidecarError] {
        let stems = Set(photos.map { $0.deletingPathExtension().lastPathComponent })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name -> DepthSidecarError? in
            let stem = (name as NSString).deletingPathExtension
            for suffix in [confidenceSuffix, depthSuffix] where stem.hasSuffix(suffix) {
                let owner = String(stem.dropLast(suffix.count))
                return stems.contains(owner) ? nil
                    : DepthSidecarError(file: folder.appendingPathComponent(name), "is a depth sidecar for a missing image (\(owner).*)")
            }
            return nil
        }
    }

    static func decodeDepth(_ file: URL, photoWidth: Int, photoHeight: Int) throws(DepthSidecarError) -> DepthMap {
        let data: Data
        do { data = try Data(contentsOf: file) } catch { throw DepthSidecarError(file: file, "cannot be read: \(FileReadFailure.reason(file, error))") }
        let raw: ImageCodec.RawImage
        do { raw = try ImageCodec.decodeUnchanged(data) } catch { throw DepthSidecarError(file: file, "is not a decodable depth image: \(error)") }
        guard raw.channels == 1 else { throw DepthSidecarError(file: file, "has \(raw.channels) channels; depth needs one") }
        var metres: [Float]
        switch raw.samples {
        case .uint16(let millimetres): metres = millimetres.map { Float($0) / 1000 }
        // NaN and infinity are how many exporters write "no return": missing, as 0 is.
        case .float32(let values): metres = values.map { $0.isFinite ? $0 : 0 }
        case .uint8: throw DepthSidecarError(file: file, "is 8-bit; depth must be 16-bit millimetres (PNG) or 32-bit float metres (TIFF)")
        }
        if let bad = metres.firstIndex(where: { $0 < 0 }) {
            throw DepthSidecarError(file: file, "has a negative value (\(metres[bad])) at pixel (\(bad % raw.width), \(bad / raw.width)); depth must be ≥ 0 (0, NaN or infinity where there is none)")
        }
        guard metres.contains(where: { $0 > 0 }) else {
            throw DepthSidecarError(file: file, "has no depth (every pixel is 0 or not a number)")
        }
        let photoAspect = Double(photoWidth) / Double(photoHeight), depthAspect = Double(raw.width) / Double(raw.height)
        guard abs(photoAspect / depthAspect - 1) < 0.01, raw.width <= photoWidth else {
            throw DepthSidecarError(file: file, "is \(raw.width)×\(raw.height), which does not fit its \(photoWidth)×\(photoHeight) photo (same aspect ratio, not larger)")
        }
        return DepthMap(width: raw.width, height: raw.height, metres: metres)
    }
}

/// Why a depth sidecar was not used, naming its file.
public struct DepthSidecarError: Error, CustomStringConvertible, Equatable, Sendable {
    public var file: URL
    public var problem: String
    public init(file: URL, _ problem: String) {
        self.file = file
        self.problem = problem
    }
    public var description: String { "\(file.path): \(problem)" }
}
