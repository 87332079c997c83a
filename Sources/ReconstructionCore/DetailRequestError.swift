import Foundation

/// Why a model request cannot be honoured; raised before any work starts.
public enum DetailRequestError: Error, Equatable, CustomStringConvertible {
    case unknownLevel(String)
    case textureSizeNotPowerOfTwo(Int)
    case textureSizeOutOfRange(Int)
    /// Below `CustomDetailSpecification.minimumPolygonCount`.
    case polygonCountTooSmall(Int)
    case jpegQualityOutOfRange(Double)
    case unknownTextureMap(String)
    case noTextureMaps
    case customOptionsNeedCustomLevel(String)

    public var description: String {
        switch self {
        case .unknownLevel(let name):
            return "unknown detail level '\(name)': use one of \(DetailLevel.allCases.map(\.rawValue).joined(separator: ", "))"
        case .textureSizeNotPowerOfTwo(let size):
            return "texture size \(size) is not a power of two (1024, 2048, 4096, 8192 or 16384)"
        case .textureSizeOutOfRange(let size):
            return "texture size \(size) is out of range: it must be between 1024 and 16384"
        case .polygonCountTooSmall(let count):
            return "maximum polygon count \(count) is below \(CustomDetailSpecification.minimumPolygonCount): a textured model needs at least that many triangles"
        case .jpegQualityOutOfRange(let quality):
            return "JPEG quality \(quality) must be between 0 and 1"
        case .unknownTextureMap(let name):
            return "unknown texture map '\(name)': use diffuse, normal, ao, roughness, displacement"
        case .noTextureMaps:
            return "a custom detail needs at least one texture map"
        case .customOptionsNeedCustomLevel(let level):
            return "polygon, texture size, format and map options need --detail custom (the \(level) level has fixed budgets)"
        }
    }
}

extension DetailLevel {
    /// The level named `name` (case-insensitive), or a clear error.
    public static func named(_ name: String) throws -> DetailLevel {
        guard let level = DetailLevel(rawValue: name.lowercased()) else { throw DetailRequestError.unknownLevel(name) }
        return level
    }
}

extension TextureDimension {
    /// The dimension of `pixels`, which must be a power of two in 1024…16384.
    public static func validated(_ pixels: Int) throws -> TextureDimension {
        guard pixels > 0, pixels & (pixels - 1) == 0 else { throw DetailRequestError.textureSizeNotPowerOfTwo(pixels) }
        guard let dimension = TextureDimension(rawValue: pixels) else { throw DetailRequestError.textureSizeOutOfRange(pixels) }
        return dimension
    }
}

extension TextureMaps {
    /// Parses a comma-separated list: diffuse, normal, ao (or occlusion), roughness, displacement.
    public static func parse(_ list: String) throws -> TextureMaps {
        var maps: TextureMaps = []
        for raw in list.split(separator: ",") {
            switch raw.trimmingCharacters(in: .whitespaces).lowercased() {
            case "diffuse", "diffusecolor", "basecolor", "color": maps.insert(.diffuseColor)
            case "normal": maps.insert(.normal)
            case "ao", "occlusion", "ambientocclusion": maps.insert(.ambientOcclusion)
            case "roughness": maps.insert(.roughness)
            case "displacement", "height": maps.insert(.displacement)
            default: throw DetailRequestError.unknownTextureMap(String(raw))
            }
        }
        guard !maps.isEmpty else { throw DetailRequestError.noTextureMaps }
        return maps
    }
}

extension CustomDetailSpecification {
    /// A specification from user-facing values, each checked with a clear error.
    public init(maximumPolygonCount: Int, textureSize: Int, jpegQuality: Double?, maps: TextureMaps) throws {
        self.init()
        self.maximumPolygonCount = maximumPolygonCount
        self.maximumTextureDimension = try TextureDimension.validated(textureSize)
        if let jpegQuality { textureFormat = .jpeg(compressionQuality: jpegQuality) }
        outputTextureMaps = maps
        try validate()
    }

    /// Throws the first value a model cannot be built with: a polygon cap below
    /// `minimumPolygonCount`, a JPEG quality outside 0…1, no texture maps. The session checks it
    /// before a `.custom` request starts, whichever way the fields were set.
    public func validate() throws(DetailRequestError) {
        guard maximumPolygonCount >= Self.minimumPolygonCount else { throw .polygonCountTooSmall(maximumPolygonCount) }
        if case .jpeg(let quality) = textureFormat, !(0...1).contains(quality) { throw .jpegQualityOutOfRange(quality) }
        guard !outputTextureMaps.isEmpty else { throw .noTextureMaps }
    }
}
