import ReconstructionCore

/// A shaded image of a mesh and the geometry behind its pixel centres.
public struct RenderedView: Sendable, Equatable {
    /// The shaded, anti-aliased colour image (sRGB).
    public var color: RGBImage
    /// Depth, triangle and barycentrics at each pixel centre (not supersampled).
    public var geometry: GeometryBuffer

    public init(color: RGBImage, geometry: GeometryBuffer) {
        self.color = color
        self.geometry = geometry
    }
}
