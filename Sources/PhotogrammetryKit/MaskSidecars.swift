import Foundation
import ReconstructionCore

/// The object mask and matte sidecars of a folder's photos: `<stem>_mask.<ext>` and
/// `<stem>_matte.<ext>`, any extension and any case, found by one listing of the folder. Every
/// stage that masks a photo reads them here, so the pose stage, the dense stage and texturing agree
/// on which files count.
struct MaskSidecars {
    let directory: URL
    /// Lower-cased stem with its suffix → file name.
    private var files: [String: String] = [:]

    init(directory: URL) {
        self.directory = directory
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() {
            let stem = (name as NSString).deletingPathExtension.lowercased()
            if stem.hasSuffix(CaptureSamples.maskSuffix) || stem.hasSuffix(CaptureSamples.matteSuffix), files[stem] == nil {
                files[stem] = name
            }
        }
    }

    /// The mask sidecar of the photo named `photo`, when there is one.
    func mask(of photo: String) -> URL? { file(photo, CaptureSamples.maskSuffix) }

    /// The matte sidecar of the photo named `photo`, when there is one.
    func matte(of photo: String) -> URL? { file(photo, CaptureSamples.matteSuffix) }

    /// The file a message about the photo's object mask names: its mask, else its matte.
    func maskOrMatte(of photo: String) -> URL? { mask(of: photo) ?? matte(of: photo) }

    /// The photo's object mask from its mask and matte (`CaptureSamples.objectMask`), nil with neither.
    func objectMask(of photo: String) throws(CaptureSamples.Problem) -> GrayImage? {
        let mask = mask(of: photo), matte = matte(of: photo)
        guard mask != nil || matte != nil else { return nil }
        return try CaptureSamples.objectMask(photo: directory.appendingPathComponent(photo), mask: mask, matte: matte)
    }

    private func file(_ photo: String, _ suffix: String) -> URL? {
        files[(photo as NSString).deletingPathExtension.lowercased() + suffix].map(directory.appendingPathComponent)
    }
}
