/// The limits of `DetailLevel.custom`: a renderer's polygon and texture budget.
public struct CustomDetailSpecification: Sendable, Hashable {
    /// How texture images are stored.
    public enum TextureFormat: Sendable, Hashable {
        case png
        /// JPEG with a quality in 0…1.
        case jpeg(compressionQuality: Double)
    }

    /// Upper bound on the triangle count after decimation (not a target).
    public var maximumPolygonCount: Int = 50_000
    /// The smallest cap a request may give: below it, decimation leaves too little to unwrap and
    /// bake (a cap of 12 left no triangles at all).
    public static let minimumPolygonCount = 100
    /// Largest texture edge.
    public var maximumTextureDimension: TextureDimension = .twoK
    public var textureFormat: TextureFormat = .png
    /// Maps to bake.
    public var outputTextureMaps: TextureMaps = [.diffuseColor, .normal, .ambientOcclusion]

    public init() {}
}
