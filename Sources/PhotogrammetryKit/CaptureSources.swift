import CaptureIO
import Foundation
import Reconstruction

/// The photos of a capture folder as pose-stage inputs, each with its intrinsics prior.
public enum CaptureSources {
    /// Every photo in `imagesDirectory` (sidecars skipped), with `given` intrinsics when known,
    /// else EXIF focal length, else unknown (self-calibration), and with `objectMasks` its object
    /// mask from its mask and matte sidecars, as `CaptureSamples` reads them (features outside it
    /// are dropped). A photo whose size the given K cannot describe is rejected, and so is one
    /// whose mask or matte is bad (naming the file), as `CaptureSamples` does, which also says when
    /// the masks as a set leave nothing or look inverted.
    public static func load(imagesDirectory: URL, given: PinholeIntrinsics?, objectMasks: Bool = true) throws -> [ImageSource] {
        try read(imagesDirectory: imagesDirectory, given: given, objectMasks: objectMasks).sources
    }

    /// The sources of `load`, with the warnings of `CaptureSamples.warnings` (a given K that does
    /// not fit photos of some size, photos whose EXIF orientation is not applied).
    public static func read(imagesDirectory: URL, given: PinholeIntrinsics?,
                            objectMasks: Bool = true) throws -> (sources: [ImageSource], warnings: [String]) {
        let folder = try CaptureSamples.read(imagesDirectory: imagesDirectory, given: given, objectMasks: objectMasks, embeddedDepth: false)
        return (folder.samples.map { ImageSource($0) }, folder.warnings)
    }

    /// The prior from a photo's EXIF block (already read), or `given` when known. A focal length
    /// from the focal-plane resolution is for the camera's image size (EXIF's), and the pose stage
    /// scales it to the decoded photo's (`IntrinsicsPrior.focalLengthAtCameraSize`); without that
    /// size it is not used, nor is a focal length no lens has (`ExifCameraInfo.implausibleFocalLength`).
    public static func prior(exif: ExifCameraInfo?, given: PinholeIntrinsics?) -> IntrinsicsPrior {
        if let k = given { return .given(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy) }
        guard let exif else { return .unknown }
        if let f35 = exif.plausibleFocalLengthIn35mmFilm { return .focalLength35mmEquivalent(millimetres: f35) }
        if let w = exif.pixelXDimension, let h = exif.pixelYDimension, let f = exif.focalLengthPixels(imageWidth: w, imageHeight: h) {
            return .focalLengthAtCameraSize(pixels: f, cameraWidth: w, cameraHeight: h)
        }
        return .unknown
    }
}
