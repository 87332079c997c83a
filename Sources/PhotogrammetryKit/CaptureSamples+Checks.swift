import CaptureIO
import Foundation

extension CaptureSamples {
    /// One photo as the checks see it: its name, its size from the file header and its EXIF block.
    struct PhotoHeader {
        var name: String
        var size: ImageDimensions?
        var exif: ExifCameraInfo?
        /// Whether the file starts as an image does (`ImageSignature`): an empty or text file does
        /// not, and is reported when it fails to decode, not counted among photos without a mask.
        var isImage: Bool

        init(url: URL) {
            name = url.lastPathComponent
            // One read of the file's head gives its size and its signature.
            let head = (try? FileHandle(forReadingFrom: url)).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: ImageDimensions.headBytes)
            }.map { [UInt8]($0) } ?? []
            size = ImageDimensions.read(header: head)
            exif = ExifReader.read(contentsOf: url)
            isImage = ImageSignature.isImage(header: head)
        }
    }

    /// What the checks found: per photo index, a reason to reject it; warnings about groups of photos.
    struct CheckResult {
        var rejections: [Int: String] = [:]
        var warnings: [String] = []
    }

    /// The note for photos whose EXIF gives a focal length in millimetres but nothing to turn it
    /// into pixels (no 35 mm equivalent, no focal-plane resolution): they are self-calibrated,
    /// which their `"source": "default"` in poses.json would not explain. Nil when there are none.
    static func unconvertibleFocalNote(_ photos: [PhotoHeader]) -> String? {
        let unconvertible = photos.filter { photo in
            guard let exif = photo.exif, let mm = exif.focalLengthMillimetres, mm > 0, exif.implausibleFocalLength == nil else { return false }
            if case .unknown = CaptureSources.prior(exif: exif, given: nil) { return true }
            return false
        }
        guard let first = unconvertible.first, let mm = first.exif?.focalLengthMillimetres else { return nil }
        return "\(count(unconvertible.count, "photo")) (e.g. \(first.name): \(String(format: "%g", mm)) mm) "
            + "\(unconvertible.count == 1 ? "gives" : "give") a focal length in millimetres but not what turns it into pixels "
            + "(a 35 mm equivalent, or the focal-plane resolution with the camera's image size): the focal length is estimated "
            + "from the photos instead (self-calibration); if you know the intrinsics, give them (--intrinsics or --intrinsics-file, "
            + "a job's \"intrinsicsFile\")"
    }

    /// The warning for photos whose EXIF focal length is no lens's (a placeholder such as a 35 mm
    /// equivalent of 65535 mm): it is not used, and their focal length is estimated from the
    /// photos. Nil when there are none.
    static func implausibleFocalWarning(_ photos: [PhotoHeader]) -> String? {
        let implausible = photos.compactMap { photo in photo.exif?.implausibleFocalLength.map { (photo.name, $0) } }
        guard let first = implausible.first else { return nil }
        let who = implausible.count == 1 ? "\(first.0) gives an EXIF focal length no lens has (\(first.1)"
            : "\(implausible.count) photos (\(listed(implausible.map(\.0)))) give an EXIF focal length no lens has (e.g. \(first.0): \(first.1)"
        return who + "; a placeholder or a damaged tag): it is not used, and the focal length is estimated from the photos instead (self-calibration)"
    }

    /// The warning for photos in `directory` whose names are not valid UTF-8, nil when there are none.
    static func nameWarning(in directory: URL) -> String? {
        let names = ImageFolder.namesNotInUTF8(in: directory)
        guard !names.isEmpty else { return nil }
        return "\(count(names.count, "photo")) in \(directory.path) (\(listed(names)), invalid bytes shown as \u{FFFD}) "
            + "\(names.count == 1 ? "has a name" : "have names") that \(names.count == 1 ? "is" : "are") not valid UTF-8 and cannot be read; "
            + "rename \(names.count == 1 ? "it" : "them") in UTF-8 (for Latin-1 names: convmv -f latin1 -t utf8 --notest *)"
    }

    /// Rejects photos whose EXIF orientation says they are stored mirrored, checks a given K
    /// against each photo's size (`IntrinsicsFit`) and notes the photos whose EXIF orientation
    /// asks for a turn the pipeline does not apply.
    /// - A principal point outside a photo rejects that photo.
    /// - So does one far from its centre when K fits the photo turned by 90° (K made for the
    ///   upright view): its pose would be wrong (a portrait photo among landscapes registered 1.2 m
    ///   off).
    /// - So does one far from its centre when K fits at least as many other photos of the folder
    ///   (a photo resized since: 3 full-size photos among 8 halved ones registered metres off).
    /// - A principal point far from the centre of every photo for another reason is one warning
    ///   for each size, saying how to scale K when a scale would make it fit (K for larger
    ///   photos; a K kept for photos cropped from their top-left corner also looks so).
    static func check(_ photos: [PhotoHeader], given: PinholeIntrinsics?) -> CheckResult {
        var result = CheckResult()
        // A photo tagged to be shown mirrored is a mirror image either as stored or as shown, and
        // the tag cannot tell which. A mirror image is no photo of a pinhole camera: it registers
        // at a wrong pose (a fountain-P11 photo mirrored and tagged 2 registered 2.4 m off, and
        // spoilt the others' alignment), so such photos are left out, saying how to keep them.
        for (index, photo) in photos.enumerated() {
            guard let orientation = photo.exif?.orientation, [2, 4, 5, 7].contains(orientation) else { continue }
            result.rejections[index] = "its EXIF orientation (\(orientation)) asks for it to be shown mirrored, so it is a mirror image "
                + "either as stored or as shown, and a mirror image has no camera pose (one registered 2.4 m off): it is left out. "
                + "If the pixels as stored are the camera's view, remove the tag (exiftool -n -Orientation=1 \(photo.name)); "
                + "if they are right only as shown, store them so (exiftran -ai \(photo.name))"
        }
        let reoriented = photos.enumerated().filter { $0.element.exif?.isReorienting == true && result.rejections[$0.offset] == nil }
            .map(\.element.name)
        let rotated = Set(photos.filter { ($0.exif?.orientation ?? 1) >= 5 }.map(\.name))
        if !reoriented.isEmpty {
            result.warnings.append("\(count(reoriented.count, "photo")) (\(listed(reoriented))) \(reoriented.count == 1 ? "is" : "are") "
                + "tagged in EXIF to be shown turned; that tag is not applied, as in COLMAP: features, poses "
                + "and intrinsics refer to the pixels as stored, and a given K must describe them")
        }
        guard let k = given else { return result }
        var offCentre: [String: [String]] = [:]  // "W×H" → names
        var offCentreHint: [String: IntrinsicsFit.Hint?] = [:]
        var sizes: [String: ImageDimensions] = [:]
        // A header claiming more than OpenCV decodes (2^30 pixels, 2^20 per side) is reported
        // when decoding fails; a K warning about it would only add noise.
        let fits = photos.enumerated().map { index, photo -> (size: ImageDimensions, fit: IntrinsicsFit)? in
            guard result.rejections[index] == nil, let size = photo.size, size.pixelCount <= 1 << 30,
                  max(size.width, size.height) <= 1 << 20 else { return nil }
            return (size, IntrinsicsFit.check(k, width: size.width, height: size.height))
        }
        // The size of the photos K fits, when they are most of the folder: K is theirs, and photos
        // of another size (resized since) would register wrong. When they are not, K may be for
        // the others (scaled, or cropped from the top-left corner): a warning, as below.
        let fittingSizes = fits.compactMap { $0?.fit == .fits ? $0?.size : nil }
        let misfitCount = fits.filter { entry in
            guard let fit = entry?.fit else { return false }
            if case .offCentre(let hint) = fit { return hint != .rotated }
            return false
        }.count
        let kSize = fittingSizes.count >= misfitCount
            ? Dictionary(grouping: fittingSizes) { "\($0.width)×\($0.height)" }.values.max { $0.count < $1.count }?.first : nil
        for (index, photo) in photos.enumerated() {
            guard let (size, fit) = fits[index] else { continue }
            let key = "\(size.width)×\(size.height)"
            switch fit {
            case .fits: break
            case .offCentre(let hint) where hint != .rotated && kSize != nil:
                // K fits the other photos: this one, resized or cropped since, would register
                // with a wrong pose (3 full-size photos among 8 halved ones: metres off).
                guard let k0 = kSize else { break }
                let ratio = Double(size.width) / Double(k0.width)
                let scaled = abs(ratio - Double(size.height) / Double(k0.height)) <= 0.01 * ratio
                    ? "; K is for the other photos, of \(k0.width)×\(k0.height), and this one is \(String(format: "%.4g", ratio))× their size (resized?)"
                    : "; K is for the other photos, of \(k0.width)×\(k0.height)"
                result.rejections[index] = "the given K does not fit this \(key) photo: its principal point (\(pixels(k.cx)), \(pixels(k.cy))) "
                    + "is far from its centre (\(pixels(Double(size.width) / 2)), \(pixels(Double(size.height) / 2)))\(scaled): its pose would be wrong, "
                    + "so it is left out. To use it, give it the others' size, or run without K (each photo size then gets its own camera)"
            case .outside(let hint):
                result.rejections[index] = "the given K cannot describe this \(key) photo: its principal point "
                    + "(\(pixels(k.cx)), \(pixels(k.cy))) lies outside it\(advice(hint, rotated: rotated.contains(photo.name)))"
            case .offCentre(.rotated?):
                result.rejections[index] = "the given K does not fit this \(key) photo: its principal point "
                    + "(\(pixels(k.cx)), \(pixels(k.cy))) is far from its centre (\(pixels(Double(size.width) / 2)), \(pixels(Double(size.height) / 2)))"
                    + advice(.rotated, rotated: rotated.contains(photo.name))
            case .offCentre(let hint):
                offCentre[key, default: []].append(photo.name)
                offCentreHint[key] = hint
                sizes[key] = size
            }
        }
        for key in offCentre.keys.sorted() {
            let names = offCentre[key]!, size = sizes[key]!
            result.warnings.append("the given K does not fit \(count(names.count, "photo")) of \(key) (\(listed(names))): its principal point "
                + "(\(pixels(k.cx)), \(pixels(k.cy))) is far from their centre (\(pixels(Double(size.width) / 2)), \(pixels(Double(size.height) / 2)))"
                + advice(offCentreHint[key] ?? nil, rotated: false) + "; poses estimated with it will be wrong")
        }
        return result
    }

    static func advice(_ hint: IntrinsicsFit.Hint?, rotated: Bool) -> String {
        switch hint {
        case .scaled(let factor)?:
            return "; K seems to be for photos \(String(format: "%.4g", 1 / factor))× as large: multiply fx, fy, cx and cy by \(String(format: "%.4g", factor))"
        case .rotated?:
            let why = rotated ? " (its EXIF orientation is not applied)" : ""
            return "; it fits the photo turned by 90°: the photo seems to be stored turned from the view K was made for\(why); "
                + "turn its pixels to that view, give K for the pixels as stored, or run without K (each photo size then gets its own camera)"
        case nil:
            return ""
        }
    }

    private static func pixels(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Up to four names, then how many more.
    static func listed(_ names: [String]) -> String {
        names.count <= 4 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
    }
}
