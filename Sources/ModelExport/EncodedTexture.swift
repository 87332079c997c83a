import ReconstructionCore

/// Which texture map an image is: its role in the material and its file name.
public enum TextureMapKind: String, Sendable, Hashable, CaseIterable {
    /// Base colour, sRGB.
    case diffuseColor
    /// Tangent-space normal stored as n · 0.5 + 0.5, linear (frame: see `TexturedMesh`).
    case normal
    /// Ambient occlusion in the red (or grey) channel, 255 = fully open, linear.
    case ambientOcclusion
    /// Roughness 0…1 as 0…255 in the red (or grey) channel, linear.
    case roughness
    /// Height along the normal, metres = (value / 255 − 0.5) · `ModelPackage.displacementRange`, linear.
    case displacement

    /// The file name without extension: `baseColor`, `normal`, `occlusion`, `roughness`, `displacement`.
    public var baseName: String {
        switch self {
        case .diffuseColor: return "baseColor"
        case .normal: return "normal"
        case .ambientOcclusion: return "occlusion"
        case .roughness: return "roughness"
        case .displacement: return "displacement"
        }
    }

    /// Whether the values are sRGB-encoded colours (only the base colour); the other maps are raw data.
    public var isColor: Bool { self == .diffuseColor }

    /// The core's option for this map.
    public var textureMap: TextureMaps {
        switch self {
        case .diffuseColor: return .diffuseColor
        case .normal: return .normal
        case .ambientOcclusion: return .ambientOcclusion
        case .roughness: return .roughness
        case .displacement: return .displacement
        }
    }
}

/// How an encoded image is stored. Both are accepted by USDZ (AR Quick Look), glTF and OBJ readers.
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable {
    case png
    case jpeg

    /// `png` or `jpg`.
    public var fileExtension: String { self == .png ? "png" : "jpg" }
    /// `image/png` or `image/jpeg`.
    public var mimeType: String { self == .png ? "image/png" : "image/jpeg" }

    /// Whether `bytes` start with this format's signature (PNG's 8-byte magic, JPEG's SOI marker).
    public func hasSignature(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .png: return bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .jpeg: return bytes.starts(with: [0xFF, 0xD8, 0xFF])
        }
    }
}

/// One texture map, already encoded as a PNG or JPEG file (the exporters copy the bytes unchanged).
///
/// Rows run top to bottom and the atlas convention of `TexturedMesh` applies (u right, v down).
public struct EncodedTexture: Sendable, Equatable {
    public var map: TextureMapKind
    /// The whole image file.
    public var data: [UInt8]
    public var format: ImageFileFormat
    /// Pixels.
    public var width: Int
    /// Pixels.
    public var height: Int

    public init(map: TextureMapKind, data: [UInt8], format: ImageFileFormat, width: Int, height: Int) {
        self.map = map
        self.data = data
        self.format = format
        self.width = width
        self.height = height
    }

    /// `baseColor.png`, `normal.png`, `occlusion.jpg`, …
    public var fileName: String { "\(map.baseName).\(format.fileExtension)" }

    /// What is wrong with the image, or nil: no pixels, bytes that are not the declared format,
    /// or a PNG whose header gives another size.
    public var inconsistency: String? {
        if width <= 0 || height <= 0 { return "the \(map.baseName) map is \(width) × \(height) pixels" }
        guard format.hasSignature(data) else {
            return "the \(map.baseName) map's bytes are not a \(format.rawValue.uppercased()) file"
        }
        if format == .png, data.count >= 24 {
            func be32(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            let (w, h) = (be32(16), be32(20))
            if w != width || h != height {
                return "the \(map.baseName) map's PNG header says \(w) × \(h), not \(width) × \(height)"
            }
        }
        return nil
    }
}
