/// What `FrameAnalyzer` measured on one frame: the image statistics a `CaptureFrame` carries.
public struct FrameAnalysis: Sendable, Equatable, Codable {
    /// Mean luma (Rec. 709 weights on the sRGB-encoded values) over the frame, 0 black … 1 white.
    public var meanLuminance: Double
    /// Variance of the Laplacian on 8-bit grey, exposure-normalised, averaged over the sharpest
    /// cells (see `FrameAnalyzer.Options`); larger is sharper.
    public var sharpness: Double
    /// Fraction (0…1) of the cells inside the object box's outline that are textured.
    public var textureScore: Double
    /// Fraction (0…1) of the object box's volume that projects inside the image; nil without a box.
    public var boxFractionInView: Double?

    public init(meanLuminance: Double, sharpness: Double, textureScore: Double, boxFractionInView: Double?) {
        self.meanLuminance = meanLuminance
        self.sharpness = sharpness
        self.textureScore = textureScore
        self.boxFractionInView = boxFractionInView
    }
}
