import ArgumentParser
import Foundation
import ReconstructionCore

/// `--detail LEVEL` and the custom level's options, checked before any work starts.
struct DetailOptions: ParsableArguments {
    @Option(help: "Detail level of the model: preview, reduced, medium, full, raw or custom (Object Capture's budgets; default reduced).")
    var detail: String?

    // .unconditional: a negative value is a value (refused with its reason), not an unknown option.
    @Option(parsing: .unconditional, help: "custom: most triangles after decimation (at least 100; default 50000).")
    var maxPolygons: Int?

    @Option(parsing: .unconditional, help: "custom: texture edge in pixels, a power of two from 1024 to 16384 (default 2048).")
    var textureSize: Int?

    @Option(help: "custom: format of the base-colour map, png or jpeg (default png; other maps are always PNG).")
    var textureFormat: String?

    @Option(parsing: .unconditional, help: "custom: JPEG quality in 0…1 (with --texture-format jpeg; default 0.9).")
    var jpegQuality: Double?

    @Option(help: "custom: maps to bake, comma-separated from diffuse, normal, ao, roughness, displacement (default diffuse,normal,ao; a .glb has no displacement).")
    var maps: String?

    /// Whether any detail option was given.
    var isGiven: Bool { detail != nil || hasCustomOptions }

    private var hasCustomOptions: Bool {
        maxPolygons != nil || textureSize != nil || textureFormat != nil || jpegQuality != nil || maps != nil
    }

    func validate() throws {
        _ = try resolved()
    }

    /// The level and, for custom, its specification; a clear message for anything invalid.
    func resolved() throws -> (level: DetailLevel, custom: CustomDetailSpecification) {
        do {
            let level = try DetailLevel.named(detail ?? DetailLevel.reduced.rawValue)
            guard level == .custom else {
                if hasCustomOptions { throw DetailRequestError.customOptionsNeedCustomLevel(level.rawValue) }
                return (level, CustomDetailSpecification())
            }
            let defaults = CustomDetailSpecification()
            var quality: Double?
            switch textureFormat?.lowercased() {
            case nil, "png":
                if jpegQuality != nil { throw ValidationError("--jpeg-quality needs --texture-format jpeg") }
            case "jpeg", "jpg": quality = jpegQuality ?? 0.9
            case let other?: throw ValidationError("unknown texture format '\(other)': use png or jpeg")
            }
            let custom = try CustomDetailSpecification(
                maximumPolygonCount: maxPolygons ?? defaults.maximumPolygonCount,
                textureSize: textureSize ?? defaults.maximumTextureDimension.rawValue,
                jpegQuality: quality,
                maps: try maps.map(TextureMaps.parse) ?? defaults.outputTextureMaps)
            return (level, custom)
        } catch let error as DetailRequestError {
            throw ValidationError(error.description)
        }
    }
}
