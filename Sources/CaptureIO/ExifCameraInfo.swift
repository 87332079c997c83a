import ReconstructionCore
/// Camera metadata read from a JPEG's EXIF block; every field is nil when absent or unusable.
public struct ExifCameraInfo: Equatable, Sendable {
    /// Camera maker (tag 0x010F), trimmed.
    public var make: String?
    /// Camera model (tag 0x0110), trimmed.
    public var model: String?
    /// Lens focal length in millimetres (tag 0x920A).
    public var focalLengthMillimetres: Double?
    /// 35 mm-equivalent focal length in millimetres (tag 0xA405); nil when the file says 0 (unknown).
    public var focalLengthIn35mmFilm: Double?
    /// Sensor pixels per `focalPlaneResolutionUnit` along x (tag 0xA20E).
    public var focalPlaneXResolution: Double?
    /// Unit of `focalPlaneXResolution` (tag 0xA210): 2 = inch, 3 = centimetre, 4 = millimetre.
    public var focalPlaneResolutionUnit: Int?
    /// Width and height in pixels of the image as the camera wrote it (tags 0xA002, 0xA003).
    public var pixelXDimension: Int?
    public var pixelYDimension: Int?
    /// How the stored pixels are to be turned for display (tag 0x0112): 1 as stored, 2 mirrored,
    /// 3 rotated 180°, 4 flipped, 5–8 transposed or rotated by 90°; nil when absent or not 1…8.
    /// The pipeline does not apply it (see `isReorienting`).
    public var orientation: Int?

    public init(make: String? = nil, model: String? = nil, focalLengthMillimetres: Double? = nil,
                focalLengthIn35mmFilm: Double? = nil, focalPlaneXResolution: Double? = nil,
                focalPlaneResolutionUnit: Int? = nil, pixelXDimension: Int? = nil, pixelYDimension: Int? = nil,
                orientation: Int? = nil) {
        self.make = make
        self.model = model
        self.focalLengthMillimetres = focalLengthMillimetres
        self.focalLengthIn35mmFilm = focalLengthIn35mmFilm
        self.focalPlaneXResolution = focalPlaneXResolution
        self.focalPlaneResolutionUnit = focalPlaneResolutionUnit
        self.pixelXDimension = pixelXDimension
        self.pixelYDimension = pixelYDimension
        self.orientation = orientation
    }

    /// The 35 mm-equivalent focal lengths a lens has, millimetres: from a circular fisheye's
    /// (about 4 mm) to a superzoom's longest (3000 mm), with a margin. Outside them the tag holds a
    /// placeholder (65535, 0xFFFF, as some software writes) or garbage, not a focal length.
    public static let plausible35mmEquivalent: ClosedRange<Double> = 4...5000

    /// The 35 mm-equivalent focal length when it is a lens's; nil when absent or implausible.
    public var plausibleFocalLengthIn35mmFilm: Double? {
        focalLengthIn35mmFilm.flatMap { $0.isFinite && Self.plausible35mmEquivalent.contains($0) ? $0 : nil }
    }

    /// The focal-plane focal length (focal length × focal-plane resolution) at the camera's image
    /// size when both are given, and its 35 mm equivalent.
    private var focalPlaneAtCameraSize: (pixels: Double, equivalent: Double)? {
        guard let w = pixelXDimension, let h = pixelYDimension, w > 0, h > 0,
              let pixels = focalPlaneFocalPixels(imageWidth: w, imageHeight: h) else { return nil }
        return (pixels, FullFrameEquivalent.millimetres(focalPixels: pixels, width: w, height: h))
    }

    /// The focal length the tags give when it is no lens's (outside `plausible35mmEquivalent`)
    /// and no other tag gives a plausible one, described for a message ("a 35 mm equivalent of
    /// 65535 mm"); nil otherwise. Such a focal length is not used.
    public var implausibleFocalLength: String? {
        let focalPlane = focalPlaneAtCameraSize
        if plausibleFocalLengthIn35mmFilm != nil || focalPlane.map({ Self.plausible35mmEquivalent.contains($0.equivalent) }) == true {
            return nil
        }
        if let f35 = focalLengthIn35mmFilm, f35 > 0 { return "a 35 mm equivalent of \(String(format: "%g", f35)) mm" }
        guard let focalPlane else { return nil }
        return String(format: "%g mm with a focal-plane resolution that makes it a 35 mm equivalent of %.0f mm",
                      focalLengthMillimetres ?? 0, focalPlane.equivalent)
    }

    /// True when the orientation tag asks viewers to show the photo other than as stored.
    public var isReorienting: Bool { (orientation ?? 1) != 1 }

    /// True when no field was found.
    public var isEmpty: Bool { self == ExifCameraInfo() }

    /// Millimetres per unit of `focalPlaneXResolution`; EXIF's default unit is the inch.
    var millimetresPerFocalPlaneUnit: Double? {
        switch focalPlaneResolutionUnit ?? 2 {
        case 2: return 25.4
        case 3: return 10
        case 4: return 1
        default: return nil
        }
    }

    /// The focal length in pixels for an image of `imageWidth` × `imageHeight` pixels, or nil
    /// when the metadata cannot give one.
    ///
    /// Prefers the 35 mm-equivalent focal length, equivalent by the diagonal (`FullFrameEquivalent`).
    /// Otherwise uses focal length (mm) × focal-plane resolution (pixels per mm); when the camera's
    /// own image size is known the result is scaled to the given image size (by the ratio of the
    /// longer sides when both EXIF dimensions are known, which also covers rotated images; else by
    /// imageWidth / PixelXDimension).
    /// A focal length no lens has is skipped for the other (a 35 mm placeholder of 65535 mm with a
    /// good focal-plane resolution); nil when neither is plausible.
    public func focalLengthPixels(imageWidth: Int, imageHeight: Int) -> Double? {
        guard imageWidth > 0, imageHeight > 0 else { return nil }
        if let f35 = plausibleFocalLengthIn35mmFilm {
            return FullFrameEquivalent.focalPixels(millimetres: f35, width: imageWidth, height: imageHeight)
        }
        guard let pixels = focalPlaneFocalPixels(imageWidth: imageWidth, imageHeight: imageHeight) else { return nil }
        let equivalent = FullFrameEquivalent.millimetres(focalPixels: pixels, width: imageWidth, height: imageHeight)
        return Self.plausible35mmEquivalent.contains(equivalent) ? pixels : nil
    }

    /// Focal length (mm) × focal-plane resolution, scaled to the given image size.
    private func focalPlaneFocalPixels(imageWidth: Int, imageHeight: Int) -> Double? {
        guard let focal = focalLengthMillimetres, focal.isFinite, focal > 0,
              let resolution = focalPlaneXResolution, resolution.isFinite, resolution > 0,
              let unit = millimetresPerFocalPlaneUnit
        else { return nil }
        var pixels = focal * resolution / unit
        if let px = pixelXDimension, px > 0 {
            if let py = pixelYDimension, py > 0 {
                pixels *= Double(max(imageWidth, imageHeight)) / Double(max(px, py))
            } else {
                pixels *= Double(imageWidth) / Double(px)
            }
        }
        return pixels.isFinite && pixels > 0 ? pixels : nil
    }
}
