extension SparseScene {
    /// The warning when most photos whose focal length came from EXIF did not register (at least
    /// 3 such photos, fewer than half registered): a wrong EXIF focal length (a photo cropped
    /// after it was taken keeps its camera's 35 mm equivalent; a tag can be wrong) shows that
    /// way, and nothing else would say so (a 500 mm tag on fountain-P11 registered 2 of 11 photos,
    /// the same photos without EXIF 11 of 11). Nil otherwise.
    public var exifFocalWarning: String? {
        // Photos of a separate scene (a model of their own) say nothing of the focal length.
        let fromExif = images.filter { $0.intrinsicsSource == .exif && !($0.unregisteredReason ?? "").hasPrefix(Self.separateModelReasonStart) }
        let registered = fromExif.filter(\.isRegistered).count
        guard fromExif.count >= 3, registered * 2 < fromExif.count else { return nil }
        return "only \(registered) of the \(fromExif.count) photos whose focal length came from EXIF registered: if that focal length "
            + "is wrong (a photo cropped after it was taken keeps its camera's EXIF; a tag can be wrong), give the intrinsics "
            + "(--intrinsics or --intrinsics-file; a job's \"intrinsicsFile\"; a sample's intrinsics), or remove it from the photos "
            + "(exiftool -FocalLength= -FocalLengthIn35mmFormat= PHOTOS) so that they calibrate themselves"
    }

    /// A warning when the focal length was found by self-calibration from two photos only: two
    /// views determine it poorly (fountain-P11 at half size: 24 % too long from two photos, within
    /// 0.2 % from three) and the mapper holds their distortion at its start (0). Every session user gets it (`poses`, batch and serve jobs, the API).
    public var twoPhotoSelfCalibrationWarning: String? {
        let registered = images.filter(\.isRegistered)
        guard registered.count == 2, let guessed = registered.first(where: { $0.intrinsicsSource == .defaultGuess }) else { return nil }
        let k = guessed.intrinsics
        let value = String(format: " (fx %.1f px: take it as a guess; lens distortion held at k1 %.3g)", k.fx, k.k1)
        return "the focal length was self-calibrated from only 2 photos, which determine it poorly\(value); give the intrinsics "
            + "(--intrinsics or --intrinsics-file; a job's \"intrinsicsFile\"; a sample's intrinsics), photos with an EXIF "
            + "focal length, or more photos"
    }

    /// A note when photos of one size without a known focal length were found to come from
    /// cameras or zoom settings of different focal lengths (`FocalLengthFromPairs.splitCamera`)
    /// and each set was self-calibrated as its own camera: sets of at least 3 registered photos
    /// whose focal lengths differ by 10 % or more. Nil otherwise.
    public var separateFocalLengthsNote: String? {
        let guessed = images.filter { $0.isRegistered && $0.intrinsicsSource == .defaultGuess }
        let bySize = Dictionary(grouping: guessed) { "\($0.intrinsics.width)×\($0.intrinsics.height)" }
        for size in bySize.keys.sorted() {
            let sets = Dictionary(grouping: bySize[size]!) { $0.intrinsics.fx }.filter { $0.value.count >= 3 }.sorted { $0.key < $1.key }
            guard sets.count >= 2, sets.last!.key >= 1.1 * sets.first!.key else { continue }
            let described = sets.map { focal, photos in
                let names = photos.map(\.name)
                return String(format: "%.0f px", focal) + " (" + (names.count <= 4 ? names.joined(separator: ", ")
                    : names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more") + ")"
            }
            return "the \(bySize[size]!.count) self-calibrated photos of \(size) were taken at \(sets.count) focal lengths "
                + "(two cameras or zoom settings?): \(described.joined(separator: "; ")); each set was self-calibrated as a camera of its own"
        }
        return nil
    }

    /// How the reason of an image that a separate model registered starts (`PoseEstimation.separateModelReason`).
    public static let separateModelReasonStart = "reconstructed in separate model "
}
