import Foundation
import ReconstructionCore

/// What is known about a camera before reconstruction.
public enum IntrinsicsPrior: Sendable, Equatable {
    /// Given pinhole intrinsics in pixels (held fixed unless refinement is asked for).
    case given(fx: Double, fy: Double, cx: Double, cy: Double)
    /// A focal length in pixels from EXIF; principal point at the image centre; refined.
    case focalLength(pixels: Double)
    /// A 35 mm-equivalent focal length from EXIF (millimetres), converted with the decoded image's
    /// longer side (f · max(w, h) / 36); principal point at the centre; refined.
    case focalLength35mmEquivalent(millimetres: Double)
    /// Nothing known: focal length 1.2 × the longer side, refined (self-calibration).
    case unknown
}
