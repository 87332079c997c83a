/// Level of detail of an output model, with Apple Object Capture's budgets (upper bounds, not
/// targets: simple objects may come out smaller).
public enum DetailLevel: String, Sendable, Hashable, CaseIterable, Codable {
    /// Fast, low quality, for previewing: < 25k triangles, 1K textures.
    case preview
    /// Mobile quality: < 50k triangles, 2K textures.
    case reduced
    /// < 100k triangles, 4K textures.
    case medium
    /// < 250k triangles, 8K textures with roughness and displacement maps too.
    case full
    /// The unprocessed mesh (up to 30M triangles) with diffuse maps only, for offline rendering.
    case raw
    /// The limits of a `CustomDetailSpecification`.
    case custom

    /// The budget of this level; `custom` reads it from `specification`.
    public func budget(custom specification: CustomDetailSpecification = CustomDetailSpecification()) -> DetailBudget {
        let standard: TextureMaps = [.diffuseColor, .normal, .ambientOcclusion]
        switch self {
        case .preview: return DetailBudget(maximumTriangleCount: 25_000, textureDimension: .oneK, textureMaps: standard)
        case .reduced: return DetailBudget(maximumTriangleCount: 50_000, textureDimension: .twoK, textureMaps: standard)
        case .medium: return DetailBudget(maximumTriangleCount: 100_000, textureDimension: .fourK, textureMaps: standard)
        case .full: return DetailBudget(maximumTriangleCount: 250_000, textureDimension: .eightK, textureMaps: .all)
        case .raw: return DetailBudget(maximumTriangleCount: 30_000_000, textureDimension: .eightK, textureMaps: [.diffuseColor])
        case .custom:
            return DetailBudget(maximumTriangleCount: specification.maximumPolygonCount,
                                textureDimension: specification.maximumTextureDimension,
                                textureMaps: specification.outputTextureMaps)
        }
    }
}

/// The limits a model of some detail level must respect.
public struct DetailBudget: Sendable, Hashable {
    /// Most triangles after decimation.
    public var maximumTriangleCount: Int
    /// Largest texture edge, pixels.
    public var textureDimension: TextureDimension
    /// Which texture maps are baked.
    public var textureMaps: TextureMaps

    /// Texels of all its maps together (a 4096² base colour with normal and occlusion maps: 50 million).
    public var texelCount: Double {
        let side = Double(textureDimension.rawValue)
        return side * side * Double(textureMaps.count)
    }

    public init(maximumTriangleCount: Int, textureDimension: TextureDimension, textureMaps: TextureMaps) {
        self.maximumTriangleCount = maximumTriangleCount
        self.textureDimension = textureDimension
        self.textureMaps = textureMaps
    }

    /// Longest side of the photos dense stereo works on for a model of this budget, pixels
    /// (photos are never scaled up): 768 px up to 50k triangles (preview, reduced), 1024 px up to
    /// 100k (medium), 1536 px above (full, raw). Each step costs 1.4–2× the wall time; it gave
    /// finer held-out detail on most captures measured (a vase +0.6 dB from 768 to 1024 px,
    /// fountain-P11 +0.4 dB from 1024 to 1536) but not all (Herz-Jesus-P8 −0.07 dB), so the
    /// levels that trade time for detail get the larger sizes. Benchmarks/dense.md ("Stereo
    /// working size by detail level").
    public var stereoImageDimension: Int {
        if maximumTriangleCount <= 50_000 { return 768 }
        if maximumTriangleCount <= 100_000 { return 1024 }
        return 1536
    }

    /// The stereo size serving every budget in `budgets`: the largest they ask for (nil when
    /// there are none).
    public static func stereoImageDimension(serving budgets: some Sequence<DetailBudget>) -> Int? {
        budgets.map(\.stereoImageDimension).max()
    }
}

/// A square texture's edge, pixels.
public enum TextureDimension: Int, Sendable, Hashable, CaseIterable, Codable {
    case oneK = 1024, twoK = 2048, fourK = 4096, eightK = 8192, sixteenK = 16384
}

/// The texture maps a model carries.
public struct TextureMaps: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let diffuseColor = TextureMaps(rawValue: 1 << 0)
    public static let normal = TextureMaps(rawValue: 1 << 1)
    public static let roughness = TextureMaps(rawValue: 1 << 2)
    public static let displacement = TextureMaps(rawValue: 1 << 3)
    public static let ambientOcclusion = TextureMaps(rawValue: 1 << 4)
    public static let all: TextureMaps = [.diffuseColor, .normal, .roughness, .displacement, .ambientOcclusion]

    /// How many maps the set holds.
    public var count: Int { rawValue.nonzeroBitCount }
}
