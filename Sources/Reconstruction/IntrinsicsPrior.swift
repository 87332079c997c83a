import Foundation
import ReconstructionCore

/// What is known about a camera before reconstruction.
public enum IntrinsicsPrior: Sendable, Equatable {
    /// Given pinhole intrinsics in pixels (held fixed unless refinement is asked for).
    case given(fx: Double, fy: Double, cx: Double, cy: Double)
    /// A focal length in pixels; principal point at the image centre; refined.
    case focalLength(pixels: Double)
    /// A focal length in pixels from EXIF (focal length × focal-plane resolution) for photos of the
    /// camera's size (EXIF's PixelXDimension × PixelYDimension), scaled with the decoded photo's
    /// longer side: a photo scaled down after it was taken often keeps the camera's EXIF, sizes
    /// included. Principal point at the centre; refined.
    case focalLengthAtCameraSize(pixels: Double, cameraWidth: Int, cameraHeight: Int)
    /// A 35 mm-equivalent focal length from EXIF (millimetres), converted with the decoded image's
    /// diagonal (`FullFrameEquivalent`); principal point at the centre; refined.
    case focalLength35mmEquivalent(millimetres: Double)
    /// Nothing known: focal length 1.2 × the longer side, refined (self-calibration).
    case unknown

    /// The starting intrinsics for a photo of `width` × `height` pixels (the decoded photo the
    /// keypoints refer to), and where they come from.
    public func intrinsics(width w: Int, height h: Int) -> (CameraIntrinsics, IntrinsicsSource) {
        func centred(_ f: Double) -> CameraIntrinsics {
            CameraIntrinsics(width: w, height: h, fx: f, fy: f, cx: Double(w) / 2, cy: Double(h) / 2)
        }
        switch self {
        case let .given(fx, fy, cx, cy):
            return (CameraIntrinsics(width: w, height: h, fx: fx, fy: fy, cx: cx, cy: cy), .given)
        case let .focalLength35mmEquivalent(mm):
            return (centred(FullFrameEquivalent.focalPixels(millimetres: mm, width: w, height: h)), .exif)
        case let .focalLength(f):
            return (centred(f), .exif)
        case let .focalLengthAtCameraSize(cameraFocal, cameraWidth, cameraHeight):
            return (centred(cameraFocal * Double(max(w, h)) / Double(max(1, cameraWidth, cameraHeight))), .exif)
        case .unknown:
            return (centred(1.2 * Double(max(w, h))), .defaultGuess)
        }
    }
}
