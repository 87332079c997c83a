import Foundation
import ReconstructionCore

/// One thing a job asks for. In JSON, `"poses"`, `"pointCloud"`, `"bounds"` (or
/// `{"type": "poses"}` …), and `{"type": "model", "detail": "preview", "format": "glb", "path": "vase.glb"}`.
public enum JobRequest: Codable, Sendable, Equatable {
    /// `poses.json`, `colmap/`, `sparse_pc.ply` and `transforms.json` in the job's output folder.
    case poses
    /// `points.ply`: the sparse points with their colours.
    case pointCloud
    /// `bounds.json`: a box around the reconstructed object (centre and half extents).
    case bounds
    /// A textured model at `detail`, written to `path` (relative to the output folder).
    case model(ModelRequestSpec)

    /// A model request's parameters.
    public struct ModelRequestSpec: Sendable, Equatable {
        /// Object Capture's level: preview, reduced, medium, full or raw. Default reduced.
        public var detail: DetailLevel
        /// usdz, glb or obj (OBJ with its MTL and textures beside it). Default: from `path`'s
        /// extension, else usdz.
        public var format: ModelFormat
        /// File name inside the output folder. Default `model-<detail>.<format>`.
        public var path: String
        /// The budget of the `custom` level (nil for the others).
        public var custom: CustomDetailSpecification?

        public init(detail: DetailLevel = .reduced, format: ModelFormat = .usdz, path: String? = nil,
                    custom: CustomDetailSpecification? = nil) {
            self.detail = detail
            self.format = format
            self.path = path ?? "model-\(detail.rawValue).\(format.rawValue)"
            self.custom = detail == .custom ? custom ?? CustomDetailSpecification() : nil
        }
    }

    /// The model file formats a job can ask for.
    public enum ModelFormat: String, Codable, Sendable, CaseIterable {
        case usdz, glb, obj
    }

    /// The request's name in specs and messages.
    public var kind: String {
        switch self {
        case .poses: return "poses"
        case .pointCloud: return "pointCloud"
        case .bounds: return "bounds"
        case .model: return "model"
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, detail, format, path
        // The custom level's budget.
        case maxPolygons, textureSize, textureFormat, jpegQuality, maps
    }

    static let customKeys: [CodingKeys] = [.maxPolygons, .textureSize, .textureFormat, .jpegQuality, .maps]

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            self = try Self.simple(name, codingPath: decoder.codingPath)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == "model" else {
            for key in [CodingKeys.detail, .format, .path] + Self.customKeys where container.contains(key) {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "'\(key.rawValue)' applies to model requests only")
            }
            self = try Self.simple(type, codingPath: container.codingPath)
            return
        }
        let detailName = try container.decodeIfPresent(String.self, forKey: .detail) ?? DetailLevel.reduced.rawValue
        guard let detail = DetailLevel(rawValue: detailName) else {
            throw DecodingError.dataCorruptedError(forKey: .detail, in: container, debugDescription:
                "unknown detail level '\(detailName)': use preview, reduced, medium, full, raw or custom")
        }
        let custom = try Self.decodeCustom(container, detail: detail)
        let path = try container.decodeIfPresent(String.self, forKey: .path)
        var format: ModelFormat
        if let name = try container.decodeIfPresent(String.self, forKey: .format) {
            guard let given = ModelFormat(rawValue: name.lowercased()) else {
                throw DecodingError.dataCorruptedError(forKey: .format, in: container,
                                                       debugDescription: "unknown model format '\(name)': use usdz, glb or obj")
            }
            format = given
        } else {
            format = path.flatMap { ModelFormat(rawValue: ($0 as NSString).pathExtension.lowercased()) } ?? .usdz
        }
        if let path, (path as NSString).pathExtension.lowercased() != format.rawValue {
            throw DecodingError.dataCorruptedError(forKey: .path, in: container,
                                                   debugDescription: "path '\(path)' must end in .\(format.rawValue) for format \(format.rawValue)")
        }
        self = .model(ModelRequestSpec(detail: detail, format: format, path: path, custom: custom))
    }

    /// The custom level's budget from `maxPolygons`, `textureSize`, `textureFormat` (png or
    /// jpeg), `jpegQuality` and `maps` (names as in `--maps`, an array or a comma-separated
    /// string); defaults as `CustomDetailSpecification`'s. Other levels take none of these keys.
    private static func decodeCustom(_ container: KeyedDecodingContainer<CodingKeys>, detail: DetailLevel) throws -> CustomDetailSpecification? {
        guard detail == .custom else {
            if let key = customKeys.first(where: container.contains) {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "'\(key.rawValue)' applies to \"detail\": \"custom\" only")
            }
            return nil
        }
        let defaults = CustomDetailSpecification()
        var quality: Double?
        switch try container.decodeIfPresent(String.self, forKey: .textureFormat)?.lowercased() {
        case nil, "png":
            if container.contains(.jpegQuality) {
                throw DecodingError.dataCorruptedError(forKey: .jpegQuality, in: container, debugDescription: "'jpegQuality' needs \"textureFormat\": \"jpeg\"")
            }
        case "jpeg", "jpg": quality = try container.decodeIfPresent(Double.self, forKey: .jpegQuality) ?? 0.9
        case let other?:
            throw DecodingError.dataCorruptedError(forKey: .textureFormat, in: container, debugDescription: "unknown texture format '\(other)': use png or jpeg")
        }
        var maps = defaults.outputTextureMaps
        if container.contains(.maps) {
            let list: String
            if let names = try? container.decode([String].self, forKey: .maps) { list = names.joined(separator: ",") } else {
                list = try container.decode(String.self, forKey: .maps)
            }
            maps = try mapsOrError(list, container)
        }
        do {
            return try CustomDetailSpecification(
                maximumPolygonCount: try container.decodeIfPresent(Int.self, forKey: .maxPolygons) ?? defaults.maximumPolygonCount,
                textureSize: try container.decodeIfPresent(Int.self, forKey: .textureSize) ?? defaults.maximumTextureDimension.rawValue,
                jpegQuality: quality, maps: maps)
        } catch let error as DetailRequestError {
            // Named by the key that holds the value (a texture size is `textureSize`'s problem).
            let key: CodingKeys = switch error {
            case .textureSizeNotPowerOfTwo, .textureSizeOutOfRange: .textureSize
            case .polygonCountTooSmall: .maxPolygons
            case .jpegQualityOutOfRange: .jpegQuality
            case .unknownTextureMap, .noTextureMaps: .maps
            case .unknownLevel, .customOptionsNeedCustomLevel: .detail
            }
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "custom: \(error.description)")
        }
    }

    private static func mapsOrError(_ list: String, _ container: KeyedDecodingContainer<CodingKeys>) throws -> TextureMaps {
        do { return try TextureMaps.parse(list) } catch let error as DetailRequestError {
            throw DecodingError.dataCorruptedError(forKey: .maps, in: container, debugDescription: error.description)
        }
    }

    /// Map names in a fixed order, as specs store them.
    static let mapNames: [(String, TextureMaps)] = [("diffuse", .diffuseColor), ("normal", .normal), ("ao", .ambientOcclusion),
                                                     ("roughness", .roughness), ("displacement", .displacement)]

    private static func simple(_ name: String, codingPath: [any CodingKey]) throws -> JobRequest {
        switch name {
        case "poses": return .poses
        case "pointCloud": return .pointCloud
        case "bounds": return .bounds
        case "model": throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
            #"a model request is an object: {"type": "model", "detail": "preview", "format": "glb"}"#))
        default: throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
            "unknown request '\(name)': use poses, pointCloud, bounds or model"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .type)
        if case .model(let model) = self {
            try container.encode(model.detail.rawValue, forKey: .detail)
            try container.encode(model.format.rawValue, forKey: .format)
            try container.encode(model.path, forKey: .path)
            if let custom = model.custom {
                try container.encode(custom.maximumPolygonCount, forKey: .maxPolygons)
                try container.encode(custom.maximumTextureDimension.rawValue, forKey: .textureSize)
                switch custom.textureFormat {
                case .png: try container.encode("png", forKey: .textureFormat)
                case .jpeg(let quality):
                    try container.encode("jpeg", forKey: .textureFormat)
                    try container.encode(quality, forKey: .jpegQuality)
                }
                try container.encode(Self.mapNames.filter { custom.outputTextureMaps.contains($0.1) }.map(\.0), forKey: .maps)
            }
        }
    }
}
