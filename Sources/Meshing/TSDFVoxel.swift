/// One voxel of a truncated signed distance volume.
///
/// The distance is positive in front of the observed surface (free space, towards the cameras)
/// and negative behind it (inside the object); the surface is the zero level.
public struct TSDFVoxel: Equatable, Sendable {
    /// Weighted mean signed distance to the surface, in metres, clamped to ± the truncation distance.
    public var distance: Float
    /// Sum of the weights of the observations averaged into `distance`; 0 = never observed.
    public var weight: Float
    /// Weighted mean colour, sRGB 0…255 (meaningful when `hasColour`).
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 1 once a coloured observation was averaged in, else 0.
    var colourFlag: UInt8

    /// An unobserved voxel.
    public static let unobserved = TSDFVoxel(distance: 0, weight: 0, red: 0, green: 0, blue: 0, colourFlag: 0)

    /// Whether a coloured observation was averaged into this voxel.
    public var hasColour: Bool { colourFlag != 0 }

    /// The colour as sRGB components in 0…1.
    public var colour: SIMD3<Float> { SIMD3(Float(red), Float(green), Float(blue)) / 255 }
}
