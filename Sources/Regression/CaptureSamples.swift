import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore

/// A capture folder as `PhotogrammetrySession` samples.
public enum CaptureSamples {
    /// Every photo in `imagesDirectory` (sorted by name, sidecars skipped) as a sample whose id is
    /// its index and whose name is its file name, with `given` intrinsics when known, else EXIF
    /// focal length, else unknown. A photo's `<stem>_mask.<ext>` sidecar, when present, becomes
    /// its object mask (non-zero = object).
    /// - Throws: `CaptureIOError` for an unreadable folder, `RegressionError.dataset` for a mask
    ///   sidecar that does not decode.
    public static func load(imagesDirectory: URL, given: PinholeIntrinsics? = nil) throws -> [PhotogrammetrySample] {
        var maskByStem: [String: String] = [:]
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: imagesDirectory.path)) ?? []).sorted() {
            let stem = (name as NSString).deletingPathExtension.lowercased()
            if stem.hasSuffix("_mask"), maskByStem[stem] == nil { maskByStem[stem] = name }
        }
        return try ImageFolder.listImages(in: imagesDirectory).enumerated().map { index, url in
            let stem = url.deletingPathExtension().lastPathComponent
            var mask: GrayImage?
            if let maskName = maskByStem[(stem + "_mask").lowercased()] {
                let maskURL = imagesDirectory.appendingPathComponent(maskName)
                do {
                    mask = try ImageCodec.decodeGray(Data(contentsOf: maskURL))
                } catch {
                    throw RegressionError.dataset(imagesDirectory.path, "mask \(maskName) does not decode: \(error)")
                }
            }
            return PhotogrammetrySample(id: index, image: .file(url), name: url.lastPathComponent,
                                        intrinsics: CaptureSources.prior(for: url, given: given), objectMask: mask)
        }
    }
}

extension PhotogrammetrySession {
    /// A session over the photos of a capture folder (see `CaptureSamples.load`): sample ids are
    /// the photos' indices in file-name order. Model requests run the folder's dense, surface,
    /// model and export stages (`FolderModelStages`).
    public convenience init(input imagesDirectory: URL, configuration: Configuration = Configuration(),
                            intrinsics: PinholeIntrinsics? = nil, modelStages: FolderModelStages = FolderModelStages()) throws {
        try self.init(input: CaptureSamples.load(imagesDirectory: imagesDirectory, given: intrinsics),
                      configuration: configuration, modelStages: modelStages)
    }
}
