/// Pinhole intrinsics with optional radial distortion, in pixels.
///
/// Pixel convention (as COLMAP): the image's top-left corner is (0, 0), so the centre of the
/// first pixel is (0.5, 0.5). x grows right, y grows down.
public struct CameraIntrinsics: Equatable, Sendable, Codable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// Focal lengths in pixels.
    public var fx: Double
    public var fy: Double
    /// Principal point in pixels.
    public var cx: Double
    public var cy: Double
    /// Radial distortion coefficients (k1 r² + k2 r⁴ on normalised coordinates); 0 for none.
    public var k1: Double
    public var k2: Double

    public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double, k1: Double = 0, k2: Double = 0) {
        self.width = width
        self.height = height
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
        self.k1 = k1
        self.k2 = k2
    }

    public var hasDistortion: Bool { k1 != 0 || k2 != 0 }

    /// Projects a point in the camera frame (metres or scene units) to pixels; nil behind the camera.
    public func project(_ pointInCamera: Vector3) -> (x: Double, y: Double)? {
        guard pointInCamera.z > 0 else { return nil }
        let u = pointInCamera.x / pointInCamera.z
        let v = pointInCamera.y / pointInCamera.z
        let r2 = u * u + v * v
        let d = 1 + k1 * r2 + k2 * r2 * r2
        return (fx * u * d + cx, fy * v * d + cy)
    }

    /// The same camera at another image size (features computed on a resized image).
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
        let sx = Double(newWidth) / Double(width)
        let sy = Double(newHeight) / Double(height)
        return CameraIntrinsics(width: newWidth, height: newHeight, fx: fx * sx, fy: fy * sy,
                                cx: cx * sx, cy: cy * sy, k1: k1, k2: k2)
    }
}

/// Where a camera's intrinsics came from; decides whether bundle adjustment refines them.
public enum IntrinsicsSource: String, Sendable, Codable {
    /// Given by the user (`--intrinsics` or a K file): held fixed unless refinement is asked for.
    case given
    /// Given by the user and refined by bundle adjustment (`--refine-intrinsics`).
    case givenRefined = "given-refined"
    /// Derived from EXIF focal length: refined by bundle adjustment.
    case exif
    /// No information: a default focal length, refined by bundle adjustment (self-calibration).
    case defaultGuess = "default"
}
