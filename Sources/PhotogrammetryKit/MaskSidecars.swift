import CaptureIO
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

    /// The photo's object mask, or when its mask or matte is bad, the reason to reject the photo
    /// (naming the file).
    func objectMaskOrRejection(of photo: String) -> (mask: GrayImage?, rejection: String?) {
        do {
            return (try objectMask(of: photo), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    private func file(_ photo: String, _ suffix: String) -> URL? {
        files[(photo as NSString).deletingPathExtension.lowercased() + suffix].map(directory.appendingPathComponent)
    }
}

extension MaskSidecars {
    /// Checks the masks as a set (when photos are read, and again before stereo on the registered
    /// ones): masks that mark no pixel as object at all leave nothing to reconstruct (an error, at
    /// once rather than after stereo and fusion), and masks most of which mark their photo's whole
    /// border as object look inverted (a warning: a disc 7 mm thick came out of inverted masks,
    /// without a word).
    /// `photos`: the registered photos' count (a photo without a mask is used whole);
    /// `marksObject`: whether each mask marks any pixel, when known from the mask before it was
    /// subsampled (else its pixels tell).
    static func checkSet(_ masks: [String: GrayImage], photos: Int, in imagesDirectory: URL, warnings: inout [String],
                         marksObject: [String: Bool] = [:]) throws {
        guard !masks.isEmpty else { return }
        let names = masks.keys.sorted()
        let sidecars = MaskSidecars(directory: imagesDirectory)
        func file(_ photo: String) -> String { sidecars.maskOrMatte(of: photo)?.lastPathComponent ?? photo }
        if masks.count == photos, names.allSatisfy({ !(marksObject[$0] ?? masks[$0]!.pixels.contains { $0 != 0 }) }) {
            throw ModelRunError("\(imagesDirectory.path): every object mask (\(names.count), e.g. \(file(names[0]))) marks no pixel as the "
                                + "object \(objectRule): nothing to reconstruct; fix the masks, or use --no-object-masking to ignore them")
        }
        let bordered = names.filter { name in
            let mask = masks[name]!
            let w = mask.width, h = mask.height
            var border: [Int] = []
            for x in 0..<w { border += [x, (h - 1) * w + x] }
            for y in 0..<h { border += [y * w, y * w + w - 1] }
            let object = border.filter { mask.pixels[$0] != 0 }.count
            return Double(object) >= 0.95 * Double(border.count)
        }
        if 2 * bordered.count > names.count {
            warnings.append("\(bordered.count) of \(names.count) object masks (e.g. \(file(bordered[0]))) mark their photo's whole border "
                            + "as the object: are they inverted? \(objectRuleSentence) (right for an "
                            + "object larger than the photos, or masks that only cut out a backdrop)")
        }
    }

    /// The masks of the photos read (rejected photos left out; `size` the photo's stored size when
    /// its header gave it), checked before any work: `checkSet` on all of them, then photo by photo.
    /// Returns, by photo name, the reason to reject a photo whose mask does not have its shape
    /// (which the features would be cut by, stretched) or marks no pixel as the object (no
    /// features at all: "too few features" would not say why). Warns when only some photos have
    /// a mask: the others' features are not kept to the object, and where the object moves against
    /// its background (a turntable, an object turned over between passes) they disagree with the
    /// masked photos' (a flip capture in a room with masks on 19 of 40 photos: 32 mm median error,
    /// against 0.8 mm with all 40).
    /// `facts`: each mask's size and whether it marks anything, as decoded (the sample keeps it
    /// subsampled).
    static func checkRead(_ photos: [(name: String, size: ImageDimensions?, mask: GrayImage?, facts: MaskFacts?)], in imagesDirectory: URL,
                          warnings: inout [String]) throws -> [String: String] {
        let found = Dictionary(photos.compactMap { photo in photo.mask.map { (photo.name, $0) } }, uniquingKeysWith: { first, _ in first })
        let marks = Dictionary(photos.compactMap { photo in photo.facts.map { (photo.name, $0.marksObject) } }, uniquingKeysWith: { first, _ in first })
        try checkSet(found, photos: photos.count, in: imagesDirectory, warnings: &warnings, marksObject: marks)
        guard !found.isEmpty else { return [:] }
        let sidecars = MaskSidecars(directory: imagesDirectory)
        var rejections: [String: String] = [:]
        for photo in photos {
            guard let mask = photo.mask else { continue }
            let facts = photo.facts ?? MaskFacts(mask)
            let file = sidecars.maskOrMatte(of: photo.name)?.lastPathComponent ?? photo.name
            if let size = photo.size, size.width > 0, size.height > 0, facts.width > 0, facts.height > 0,
               abs(Double(size.width) / Double(size.height) / (Double(facts.width) / Double(facts.height)) - 1) >= 0.01 {
                rejections[photo.name] = "its object mask \(file) is \(facts.width)×\(facts.height), which does not have the shape of its "
                    + "\(size.width)×\(size.height) photo (a mask may have any size, not another aspect ratio)"
            } else if !facts.marksObject {
                rejections[photo.name] = "its object mask \(file) marks no pixel as the object \(objectRule), so it has no features"
            }
        }
        let unmasked = photos.filter { $0.mask == nil }
        if let first = unmasked.first {
            warnings.append("\(unmasked.count) of \(photos.count) photos have no object mask (e.g. \(first.name)) while the others have one: "
                            + "their features are not kept to the object, and where the object moves against its background (a "
                            + "turntable, an object turned over) their poses and the others' go wrong; give every photo a mask, or none")
        }
        return rejections
    }

    /// How a mask or matte marks the object, for messages.
    static let objectRule = "(\(objectRuleText))"
    static let objectRuleSentence = objectRuleText.prefix(1).uppercased() + objectRuleText.dropFirst() + "; the rest is background"
    private static let objectRuleText = "the object is non-zero in a label mask, above half the brightest level in any other mask (a JPEG's), "
        + "at least half in a matte"

    /// What the checks need of a mask as decoded: its size, and whether it marks any pixel as the
    /// object.
    struct MaskFacts {
        var width: Int
        var height: Int
        var marksObject: Bool

        init(_ mask: GrayImage) {
            (width, height, marksObject) = (mask.width, mask.height, mask.pixels.contains { $0 != 0 })
        }
    }
}
