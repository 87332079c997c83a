import CaptureIO
import Foundation
import Reconstruction

/// The photos of a capture folder as pose-stage inputs, each with its intrinsics prior.
public enum CaptureSources {
    /// Every photo in `imagesDirectory` (sidecars skipped), with `given` intrinsics when known,
    /// else EXIF focal length, else unknown (self-calibration).
    /// A photo whose size the given K cannot describe is rejected, as `CaptureSamples` does.
    public static func load(imagesDirectory: URL, given: PinholeIntrinsics?) throws -> [ImageSource] {
        try read(imagesDirectory: imagesDirectory, given: given).sources
    }

    /// The sources of `load`, with the warnings of `CaptureSamples.warnings` (a given K that does
    /// not fit photos of some size, photos whose EXIF orientation is not applied).
    public static func read(imagesDirectory: URL, given: PinholeIntrinsics?) throws -> (sources: [ImageSource], warnings: [String]) {
        let urls = try ImageFolder.listImages(in: imagesDirectory)
        let headers = urls.map(CaptureSamples.PhotoHeader.init(url:))
        let checks = CaptureSamples.check(headers, given: given)
        let sources = zip(urls, headers).enumerated().map { index, photo in
            ImageSource(name: photo.0.lastPathComponent, content: .file(photo.0), prior: prior(exif: photo.1.exif, given: given),
                        rejection: checks.rejections[index])
        }
        return (sources, [CaptureSamples.nameWarning(in: imagesDirectory)].compactMap { $0 } + checks.warnings)
    }

    /// The prior from a photo's EXIF block (already read), or `given` when known. A focal length
    /// from the focal-plane resolution is for the camera's image size (EXIF's), and the pose stage
    /// scales it to the decoded photo's (`IntrinsicsPrior.focalLengthAtCameraSize`); without that
    /// size it is not used.
    public static func prior(exif: ExifCameraInfo?, given: PinholeIntrinsics?) -> IntrinsicsPrior {
        if let k = given { return .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy) }
        guard let exif else { return .unknown }
        if let f35 = exif.focalLengthIn35mmFilm, f35 > 0 { return .focalLength35mmEquivalent(millimetres: f35) }
        if let w = exif.pixelXDimension, let h = exif.pixelYDimension, let f = exif.focalLengthPixels(imageWidth: w, imageHeight: h) {
            return .focalLengthAtCameraSize(pixels: f, cameraWidth: w, cameraHeight: h)
        }
        return .unknown
    }
}
