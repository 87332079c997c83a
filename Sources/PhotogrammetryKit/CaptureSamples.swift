import CaptureIO
import Foundation
import Reconstruction
import ReconstructionCore

/// A capture folder as `PhotogrammetrySession` samples: every photo in the folder (JPEG, PNG,
/// TIFF, WebP, BMP, HEIC/HEIF; sorted by name, sidecars skipped), its id its index and its name
/// its file name, with
/// - intrinsics: `given` when known, else EXIF focal length, else unknown;
/// - an object mask from `<stem>_mask.<ext>` (`binaryMask`: non-zero = object for a label image,
///   else above half its brightest level) and/or a person/object matte
///   `<stem>_matte.<ext>` (grey levels, object where ≥ 50 %, i.e. ≥ 128); with both, the object
///   is where both say so (they must then be the same size); kept at most `maskLongerSide` long;
/// - depth from a HEIC/HEIF photo's embedded depth image, when it is metric (`HEIFDepth.metres`);
/// - gravity from a `<stem>_gravity.txt` sidecar (`GravitySidecar`; one that cannot be read is left
///   out here and named by the dense stage) and the EXIF orientation tag, which tell which way is up.
///
/// A given K whose principal point lies outside a photo rejects that photo, and so does one far
/// from its centre that fits it turned by 90°; one far from the centre of photos of some size for
/// another reason is a warning (`IntrinsicsFit`).
/// A bad mask or matte (does not decode; mostly grey levels, as a photo named like one; a matte
/// without the photo's aspect ratio or larger than it; a mask without the photo's aspect ratio, or
/// marking nothing, `MaskSidecars.checkRead`) rejects its sample (`PhotogrammetrySample.rejection`, naming the file): the session reports
/// it as `invalidSample` and goes on with the others. Embedded depth that cannot be used is a note
/// and the photo is used without it.
public struct CaptureSamples: Sendable {
    public var samples: [PhotogrammetrySample]
    /// What the reader noticed without rejecting a sample, each naming its file.
    public var notes: [String]
    /// Problems that make results doubtful without rejecting a sample, each naming its files: a
    /// given K that does not fit photos of some size, photos whose EXIF orientation is not applied.
    public var warnings: [String] = []

    public static let maskSuffix = "_mask"
    public static let matteSuffix = "_matte"
    /// The longest side a sample's mask is kept at (larger ones keep every k-th pixel): it only
    /// selects features, which a pixel or two at the outline does not change, and 40 masks of
    /// 12-megapixel photos held whole took 0.5 GB through the pose stages.
    public static let maskLongerSide = 2048
    /// Matte level at and above which a pixel is object (50 % of 255, rounded up).
    public static let matteThreshold: UInt8 = 128

    /// Reads the folder; with `objectMasks` false, mask and matte sidecars are not read (nor
    /// checked: one that is bad rejects nothing), and with `embeddedDepth` false neither is HEIF
    /// depth (for a caller that does not use `depth`).
    /// - Throws: `CaptureIOError` for a folder that does not exist or cannot be listed;
    ///   `ModelRunError` when every photo has a mask and none marks a pixel as the object
    ///   (`MaskSidecars.checkSet`, which also warns of masks that look inverted).
    public static func read(imagesDirectory: URL, given: PinholeIntrinsics? = nil, objectMasks: Bool = true,
                            embeddedDepth: Bool = true) throws -> CaptureSamples {
        let sidecars = MaskSidecars(directory: imagesDirectory)
        var notes: [String] = []
        let urls = try ImageFolder.listImages(in: imagesDirectory)
        let headers = urls.map(PhotoHeader.init(url:))
        let checks = check(headers, given: given)
        // What the checks need of each mask as decoded, before it is subsampled.
        var maskFacts: [Int: MaskSidecars.MaskFacts] = [:]
        var samples = zip(urls, headers).enumerated().map { index, photo -> PhotogrammetrySample in
            let (url, header) = photo
            var sample = PhotogrammetrySample(id: index, image: .file(url), name: url.lastPathComponent,
                                              intrinsics: CaptureSources.prior(exif: header.exif, given: given),
                                              gravity: try? GravitySidecar.load(besides: url))
            sample.orientation = header.exif?.orientation
            if let rejection = checks.rejections[index] {
                sample.rejection = rejection
                return sample
            }
            if objectMasks {
                (sample.objectMask, sample.rejection) = sidecars.objectMaskOrRejection(of: url.lastPathComponent)
                maskFacts[index] = sample.objectMask.map(MaskSidecars.MaskFacts.init)
                sample.objectMask = sample.objectMask?.subsampled(toLongerSideAtMost: maskLongerSide)
            }
            // Depth is looked for in HEIF files, whatever their names (a JPEG called .heic has none).
            if embeddedDepth, HEIFExifLocator.isHEIF(contentsOf: url) {
                do {
                    sample.depth = try Self.embeddedDepth(url)
                } catch {
                    notes.append("\(error)")
                }
            }
            return sample
        }
        if given == nil, let note = unconvertibleFocalNote(headers) { notes.append(note) }
        var warnings = [nameWarning(in: imagesDirectory), given == nil ? implausibleFocalWarning(headers) : nil].compactMap { $0 } + checks.warnings
        // Files that are not images at all fail to decode later, with their reason; they are not
        // photos without a mask.
        let usable = samples.indices.filter { samples[$0].rejection == nil && headers[$0].isImage }
        let maskRejections = try MaskSidecars.checkRead(usable.map { (samples[$0].name, headers[$0].size, samples[$0].objectMask, maskFacts[$0]) },
                                                        in: imagesDirectory, warnings: &warnings)
        for i in usable { if let reason = maskRejections[samples[i].name] { (samples[i].rejection, samples[i].objectMask) = (reason, nil) } }
        return CaptureSamples(samples: samples, notes: notes, warnings: warnings)
    }

    /// The samples of `read`, without the notes.
    public static func load(imagesDirectory: URL, given: PinholeIntrinsics? = nil) throws -> [PhotogrammetrySample] {
        try read(imagesDirectory: imagesDirectory, given: given).samples
    }

    /// A problem with one sidecar, naming its file.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The object mask of `photo` from its mask and matte sidecars, nil with neither.
    static func objectMask(photo: URL, mask maskFile: URL?, matte matteFile: URL?) throws(Problem) -> GrayImage? {
        let mask = try maskFile.map { file throws(Problem) in try binaryMask(decodeGray(file, kind: "mask"), file: file) }
        guard let matteFile else { return mask }
        let levels = try decodeGray(matteFile, kind: "matte")
        try refuseMostlyGrey(levels, kind: "matte", file: matteFile)
        let photoSize: (width: Int, height: Int)
        do {
            let decoded = try ImageCodec.decodeGray(Data(contentsOf: photo))
            photoSize = (decoded.width, decoded.height)
        } catch {
            throw Problem(description: "\(photo.lastPathComponent): the photo does not decode, so its matte \(matteFile.lastPathComponent) cannot be checked: \(error)")
        }
        let photoAspect = Double(photoSize.width) / Double(photoSize.height), matteAspect = Double(levels.width) / Double(levels.height)
        guard abs(photoAspect / matteAspect - 1) < 0.01, levels.width <= photoSize.width, levels.height <= photoSize.height else {
            throw Problem(description: "matte \(matteFile.lastPathComponent) is \(levels.width)×\(levels.height), which does not fit its \(photoSize.width)×\(photoSize.height) photo \(photo.lastPathComponent) (a matte needs the photo's aspect ratio and at most its size)")
        }
        let matte = GrayImage(width: levels.width, height: levels.height, pixels: levels.pixels.map { $0 >= matteThreshold ? 255 : 0 })
        guard let mask else { return matte }
        guard mask.width == matte.width, mask.height == matte.height else {
            throw Problem(description: "mask \(maskFile?.lastPathComponent ?? "") is \(mask.width)×\(mask.height) but matte \(matteFile.lastPathComponent) is \(matte.width)×\(matte.height); with both they must be the same size")
        }
        return GrayImage(width: mask.width, height: mask.height,
                         pixels: zip(mask.pixels, matte.pixels).map { $0 != 0 && $1 != 0 ? 255 : 0 })
    }

    /// A mask as object (255) and background (0). A label image (a losslessly stored mask of a
    /// few levels: 0/255, 0/1, or instance ids 1…N) is object wherever it is not 0. Any other
    /// mask (a JPEG, whose compression spreads faint levels around 0 and grey along the outline,
    /// or an anti-aliased one) is object above half its brightest level, and empty when that is
    /// too dim to be an object level; one that is mostly grey is refused (`refuseMostlyGrey`).
    static func binaryMask(_ levels: GrayImage, file: URL) throws(Problem) -> GrayImage {
        var used = [Bool](repeating: false, count: 256)
        for value in levels.pixels { used[Int(value)] = true }
        let levelCount = used.filter { $0 }.count
        let isLossy = ["jpg", "jpeg", "jpe", "jfif", "heic", "heif", "webp"].contains(file.pathExtension.lowercased())
        let isLabelImage = !isLossy && levelCount <= 8
        let brightest = used.lastIndex(of: true) ?? 0
        let threshold: Int
        if isLabelImage {
            threshold = 1
        } else {
            try refuseMostlyGrey(levels, brightest: brightest, kind: "mask", file: file)
            threshold = brightest >= minimumObjectLevel ? (brightest + 1) / 2 : 256
        }
        return GrayImage(width: levels.width, height: levels.height, pixels: levels.pixels.map { Int($0) >= threshold ? 255 : 0 })
    }

    /// The dimmest brightest level of a mask that is not a label image for it to hold any object.
    static let minimumObjectLevel = 32

    /// A mask or matte whose pixels are mostly neither near black nor near its brightest level is
    /// not one (a photo named like one, say): it is refused, naming the file. Real ones are grey
    /// only along the object's outline (JPEG noise, a matte's soft edge), a few per cent.
    static func refuseMostlyGrey(_ levels: GrayImage, brightest: Int? = nil, kind: String, file: URL) throws(Problem) {
        let brightest = brightest ?? Int(levels.pixels.max() ?? 0)
        let lowBand = brightest / 8, highBand = brightest - brightest / 8
        let between = levels.pixels.reduce(0) { $0 + (Int($1) > lowBand && Int($1) < highBand ? 1 : 0) }
        let fraction = Double(between) / Double(max(1, levels.pixels.count))
        guard fraction <= maximumGreyFraction else {
            throw Problem(description: "\(kind) \(file.lastPathComponent) is not black and white: \(Int((100 * fraction).rounded())) % of its "
                                       + "pixels are grey levels (a \(kind) holds black for background and one bright level for the object)")
        }
    }

    /// A mask or matte with more of its pixels in grey levels than this is refused.
    static let maximumGreyFraction = 0.25

    static func decodeGray(_ file: URL, kind: String) throws(Problem) -> GrayImage {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw Problem(description: "\(kind) \(file.lastPathComponent) cannot be read: \(FileReadFailure.reason(file, error))")
        }
        do {
            return try ImageCodec.decodeGray(data)
        } catch {
            throw Problem(description: "\(kind) \(file.lastPathComponent) does not decode: \(error)")
        }
    }

    /// The metric depth embedded in a HEIF photo, nil when it has none.
    static func embeddedDepth(_ photo: URL) throws(Problem) -> DepthMap? {
        let depth: HEIFDepth?
        do {
            depth = try ImageCodec.decodeHEIFDepth(Data(contentsOf: photo))
        } catch {
            // A photo that does not decode itself is skipped, and said so, where its features are
            // read: a note that it "is used without depth" would contradict that.
            guard (try? ImageCodec.decodeGray(Data(contentsOf: photo))) != nil else { return nil }
            throw Problem(description: "\(photo.lastPathComponent): its embedded depth does not decode (the photo is used without depth): \(error)")
        }
        guard let depth else { return nil }
        switch depth.metres() {
        case .success(let metres): return metres
        case .failure(let notMetric):
            throw Problem(description: "\(photo.lastPathComponent): its embedded depth is not used: \(notMetric.reason)")
        }
    }
}

extension PhotogrammetrySession {
    /// A session over the photos of a capture folder (see `CaptureSamples`): sample ids are the
    /// photos' indices in file-name order. Model requests run the folder's dense, surface, model
    /// and export stages (`FolderModelStages`). The reader's warnings and notes are the first
    /// messages of `outputs` (`inputWarning`). A `K.txt` in the folder is not read: pass it as
    /// `intrinsics` (`PinholeIntrinsics.load(kFile:)`).
    /// - Throws: `CaptureIOError` for a folder that does not exist, cannot be listed or has no
    ///   photos, `ModelRunError` when masking is on and every photo's mask marks nothing as the
    ///   object, and the session's `Error`s (e.g. `checkpointUnusable`).
    public convenience init(input imagesDirectory: URL, configuration: Configuration = Configuration(),
                            intrinsics: PinholeIntrinsics? = nil, modelStages: FolderModelStages = FolderModelStages()) throws {
        let folder = try CaptureSamples.read(imagesDirectory: imagesDirectory, given: intrinsics,
                                             objectMasks: configuration.isObjectMaskingEnabled)
        guard !folder.samples.isEmpty else {
            // A warning may say why (photo names that are not UTF-8 cannot be opened).
            throw CaptureIOError(path: imagesDirectory.path,
                                     problem: (["has no photos (JPEG, PNG, TIFF, WebP, BMP or HEIC/HEIF directly inside it)"]
                                               + folder.warnings).joined(separator: "; "))
        }
        try self.init(input: folder.samples, configuration: configuration, modelStages: modelStages,
                      inputWarnings: folder.warnings + folder.notes)
    }
}
