import Foundation
import ReconstructionCore

extension PoseEstimation {
    /// The warning for photos whose EXIF focal length their pairs clearly contradicted, so that
    /// they were self-calibrated instead (`FocalLengthFromPairs.Options.maxExifDisagreement`): such
    /// a photo's prior is an EXIF focal length and its scene camera's source is no longer `.exif`.
    /// Nil when there are none. `scene` is the main model over every input (`sources`' order).
    public static func exifSetAsideWarning(sources: [ImageSource], scene: SparseScene) -> String? {
        var names: [String] = [], exif: [Double] = [], found: [Double] = []
        for (source, image) in zip(sources, scene.images) where image.intrinsicsSource == .defaultGuess {
            switch source.prior {
            case .focalLength, .focalLengthAtCameraSize, .focalLength35mmEquivalent: break
            case .given, .unknown: continue
            }
            guard image.unregisteredReason.map({ !$0.hasPrefix("skipped: ") }) ?? true else { continue }
            let width = image.intrinsics.width, height = image.intrinsics.height
            names.append(source.name)
            exif.append(source.prior.intrinsics(width: width, height: height).0.meanFocalLength)
            if image.isRegistered { found.append(image.intrinsics.meanFocalLength) }
        }
        guard let first = names.first else { return nil }
        let photos = names.count == 1 ? "of \(first)" : "of \(names.count) photos (\(first), …)"
        let result = found.isEmpty ? "" : ", and calibrated at \(Int(Statistics.median(found).rounded())) px"
        return "the EXIF focal length \(photos) (\(Int(Statistics.median(exif).rounded())) px) disagrees with what the photos' "
            + "pairs agree on: it was set aside and the focal length estimated from the photos\(result) (a photo cropped after "
            + "it was taken keeps its camera's EXIF; if you know the intrinsics, give them: --intrinsics or --intrinsics-file, a K.txt "
            + "with a job's photos, a sample's intrinsics)"
    }

    /// The warning for photos whose given focal length their pairs clearly contradict
    /// (`FocalLengthFromPairs.givenContradicted`); nil when there are none. `names` name `inputs`.
    public static func givenFocalWarning(_ contradicted: [(group: Int, given: Double, found: Double)],
                                         inputs: [IncrementalMapper.ImageInput], names: [String]) -> String? {
        guard !contradicted.isEmpty else { return nil }
        let parts = contradicted.map { c -> String in
            let members = inputs.indices.filter { inputs[$0].cameraGroup == c.group }
            let photos = members.count == 1 ? names[members[0]] : "\(members.count) photos (\(names[members[0]]), …)"
            return String(format: "%@: given %.0f px, the pairs agree on about %.0f px (%.2f×)", photos, c.given, c.found, c.found / c.given)
        }
        return "the given focal length disagrees with what the photos' pairs agree on (\(parts.joined(separator: "; "))): it was held, "
            + "and poses estimated with a wrong one are wrong; check K (one made for photos of another size needs fx, fy, cx and cy "
            + "scaled alike), or let it be refined (--refine-intrinsics)"
    }
}
