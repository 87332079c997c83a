import CaptureIO
import Foundation
import Reconstruction

/// The photos of a capture folder as pose-stage inputs, each with its intrinsics prior.
public enum CaptureSources {
    /// Every photo in `imagesDirectory` (sidecars skipped), with `given` intrinsics when known,
    /// else EXIF focal length, else unknown (self-calibration).
    public static func load(imagesDirectory: URL, given: PinholeIntrinsics?) throws -> [ImageSource] {
        try ImageFolder.listImages(in: imagesDirectory).map { url in
            ImageSource(name: url.lastPathComponent, url: url, prior: prior(for: url, given: given))
        }
    }

    public static func prior(for url: URL, given: PinholeIntrinsics?) -> IntrinsicsPrior {
        if let k = given { return .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy) }
        return prior(exif: ExifReader.read(contentsOf: url), given: nil)
    }

    /// The prior from a photo's EXIF block (already read), or `given` when known.
    public static func prior(exif: ExifCameraInfo?, given: PinholeIntrinsics?) -> IntrinsicsPrior {
        if let k = given { return .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy) }
        guard let exif else { return .unknown }
        if let f35 = exif.focalLengthIn35mmFilm, f35 > 0 { return .focalLength35mmEquivalent(millimetres: f35) }
        if let w = exif.pixelXDimension, let h = exif.pixelYDimension, let f = exif.focalLengthPixels(imageWidth: w, imageHeight: h) {
            return .focalLength(pixels: f)
        }
        return .unknown
    }
}
