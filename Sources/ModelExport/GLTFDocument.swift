/// The JSON part of a glTF 2.0 asset (the subset `GLBWriter` writes). Optional arrays are nil
/// rather than empty, as glTF forbids empty arrays.
struct GLTFDocument: Encodable {
    struct Asset: Encodable {
        var version = "2.0"
        var generator = "Photogrammetry ModelExport"
        /// Application data; here only the note of an unknown scale (glTF's unit is the metre).
        var extras: [String: String]?
    }

    struct Scene: Encodable { var nodes: [Int] }

    struct Node: Encodable {
        var name: String
        var mesh: Int
        /// Metres per unit on each axis, nil when 1.
        var scale: [Double]?
    }

    struct Attributes: Encodable {
        var position: Int
        var normal: Int
        var texcoord0: Int
        enum CodingKeys: String, CodingKey {
            case position = "POSITION", normal = "NORMAL", texcoord0 = "TEXCOORD_0"
        }
    }

    struct Primitive: Encodable {
        var attributes: Attributes
        var indices: Int
        var material: Int
        /// 4 = triangles.
        var mode = 4
    }

    struct Mesh: Encodable {
        var name: String
        var primitives: [Primitive]
    }

    struct TextureReference: Encodable { var index: Int }

    struct PBR: Encodable {
        var baseColorTexture: TextureReference?
        var metallicFactor: Double
        var roughnessFactor: Double
        var metallicRoughnessTexture: TextureReference?
    }

    struct Material: Encodable {
        var name: String
        var pbrMetallicRoughness: PBR
        var normalTexture: TextureReference?
        var occlusionTexture: TextureReference?
        var doubleSided = false
    }

    struct Texture: Encodable {
        var sampler: Int
        var source: Int
    }

    struct Image: Encodable {
        var name: String
        var bufferView: Int
        var mimeType: String
    }

    /// Filters and wraps as GL enums: linear, trilinear mipmaps, clamp to edge (an atlas).
    struct Sampler: Encodable {
        var magFilter = 9729
        var minFilter = 9987
        var wrapS = 33071
        var wrapT = 33071
    }

    struct Accessor: Encodable {
        var bufferView: Int
        /// 5126 = FLOAT, 5125 = UNSIGNED_INT.
        var componentType: Int
        var count: Int
        /// "SCALAR", "VEC2", "VEC3".
        var type: String
        var min: [Double]?
        var max: [Double]?
    }

    struct BufferView: Encodable {
        var buffer = 0
        var byteOffset: Int
        var byteLength: Int
        /// 34962 = vertex attributes, 34963 = indices, nil for images.
        var target: Int?
    }

    /// The GLB's binary chunk (no `uri`).
    struct Buffer: Encodable { var byteLength: Int }

    var asset = Asset()
    var scene = 0
    var scenes: [Scene]
    var nodes: [Node]
    var meshes: [Mesh]
    var materials: [Material]
    var textures: [Texture]?
    var images: [Image]?
    var samplers: [Sampler]?
    var accessors: [Accessor]
    var bufferViews: [BufferView]
    var buffers: [Buffer]
}
