import Foundation
import ReconstructionCore

/// Reads a binary glTF 2.0 model's first mesh primitive (triangles) with its base-colour image:
/// what texture-fidelity checks need from a model written by `GLBWriter` or another tool. Float
/// POSITION / NORMAL / TEXCOORD_0 accessors (tightly packed or strided), UNSIGNED_INT or
/// UNSIGNED_SHORT indices, the first node's uniform scale applied. Errors name the file.
public enum GLBReader {
    public struct Contents: Sendable {
        /// Positions, normals (computed when absent), one UV per vertex (`uvTriangles` = `triangles`).
        public var mesh: TexturedMesh
        /// The base-colour image as stored (PNG or JPEG), nil when the material has none.
        public var baseColor: EncodedTexture?
    }

    public static func read(_ url: URL) throws -> Contents {
        let path = url.path
        func fail(_ problem: String) -> ModelExportError { ModelExportError(path: path, problem: problem) }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot be read") }
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        guard bytes.count >= 20, u32(0) == 0x4654_6C67 else { throw fail("not a GLB file (no glTF magic)") }
        guard u32(4) == 2 else { throw fail("glTF version \(u32(4)), expected 2") }
        var at = 12
        var json: [String: Any]?
        var bin: ArraySlice<UInt8> = []
        while at + 8 <= bytes.count {
            let length = u32(at), type = u32(at + 4)
            guard at + 8 + length <= bytes.count else { throw fail("a chunk runs past the end of the file (truncated?)") }
            let chunk = bytes[(at + 8)..<(at + 8 + length)]
            if type == 0x4E4F_534A { json = try JSONSerialization.jsonObject(with: Data(chunk)) as? [String: Any] }
            if type == 0x004E_4942 { bin = chunk }
            at += 8 + length
        }
        guard let json else { throw fail("no JSON chunk") }
        let accessors = json["accessors"] as? [[String: Any]] ?? []
        let views = json["bufferViews"] as? [[String: Any]] ?? []

        func viewBytes(_ index: Int) throws -> (bytes: ArraySlice<UInt8>, stride: Int?) {
            guard index >= 0, index < views.count else { throw fail("bufferView \(index) is missing") }
            let view = views[index]
            let offset = view["byteOffset"] as? Int ?? 0, length = view["byteLength"] as? Int ?? 0
            guard (view["buffer"] as? Int ?? 0) == 0, offset + length <= bin.count else { throw fail("bufferView \(index) lies outside the binary chunk") }
            let start = bin.startIndex + offset
            return (bin[start..<(start + length)], view["byteStride"] as? Int)
        }
        func floats(_ accessorIndex: Int, components: Int) throws -> [Float] {
            guard accessorIndex >= 0, accessorIndex < accessors.count else { throw fail("accessor \(accessorIndex) is missing") }
            let accessor = accessors[accessorIndex]
            guard accessor["componentType"] as? Int == 5126 else { throw fail("accessor \(accessorIndex) is not float") }
            let count = accessor["count"] as? Int ?? 0
            let (raw, stride) = try viewBytes(accessor["bufferView"] as? Int ?? -1)
            let base = raw.startIndex + (accessor["byteOffset"] as? Int ?? 0)
            let step = stride ?? components * 4
            guard count == 0 || base + (count - 1) * step + components * 4 <= raw.endIndex else { throw fail("accessor \(accessorIndex) runs past its bufferView") }
            var out = [Float](repeating: 0, count: count * components)
            for i in 0..<count {
                for c in 0..<components {
                    let p = base + i * step + c * 4
                    out[i * components + c] = Float(bitPattern: UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24)
                }
            }
            return out
        }
        func indices(_ accessorIndex: Int) throws -> [UInt32] {
            guard accessorIndex >= 0, accessorIndex < accessors.count else { throw fail("index accessor \(accessorIndex) is missing") }
            let accessor = accessors[accessorIndex]
            let count = accessor["count"] as? Int ?? 0
            let (raw, _) = try viewBytes(accessor["bufferView"] as? Int ?? -1)
            let base = raw.startIndex + (accessor["byteOffset"] as? Int ?? 0)
            switch accessor["componentType"] as? Int {
            case 5125:
                guard base + count * 4 <= raw.endIndex else { throw fail("indices run past their bufferView") }
                return (0..<count).map { i in UInt32(u32(base + i * 4)) }
            case 5123:
                guard base + count * 2 <= raw.endIndex else { throw fail("indices run past their bufferView") }
                return (0..<count).map { i in UInt32(bytes[base + 2 * i]) | UInt32(bytes[base + 2 * i + 1]) << 8 }
            default: throw fail("indices are neither UNSIGNED_INT nor UNSIGNED_SHORT")
            }
        }

        guard let primitive = ((json["meshes"] as? [[String: Any]])?.first?["primitives"] as? [[String: Any]])?.first,
              let attributes = primitive["attributes"] as? [String: Int], let positionAccessor = attributes["POSITION"] else {
            throw fail("no mesh primitive with positions")
        }
        guard (primitive["mode"] as? Int ?? 4) == 4 else { throw fail("the primitive is not made of triangles") }
        var positions = try floats(positionAccessor, components: 3)
        if let scale = ((json["nodes"] as? [[String: Any]])?.first?["scale"] as? [Double]), scale.count == 3 {
            for i in stride(from: 0, to: positions.count, by: 3) { for c in 0..<3 { positions[i + c] *= Float(scale[c]) } }
        }
        let vertexCount = positions.count / 3
        let uv = try attributes["TEXCOORD_0"].map { try floats($0, components: 2) } ?? [Float](repeating: 0, count: vertexCount * 2)
        let index = try primitive["indices"].flatMap { $0 as? Int }.map(indices) ?? (0..<UInt32(vertexCount)).map { $0 }
        guard index.count % 3 == 0, index.allSatisfy({ Int($0) < vertexCount }), uv.count == vertexCount * 2 else {
            throw fail("indices or texture coordinates do not match the \(vertexCount) vertices")
        }
        let points = (0..<vertexCount).map { SIMD3(positions[3 * $0], positions[3 * $0 + 1], positions[3 * $0 + 2]) }
        let triangles = stride(from: 0, to: index.count, by: 3).map { SIMD3(index[$0], index[$0 + 1], index[$0 + 2]) }
        var normals: [SIMD3<Float>]
        if let n = try attributes["NORMAL"].map({ try floats($0, components: 3) }), n.count == positions.count {
            normals = (0..<vertexCount).map { SIMD3(n[3 * $0], n[3 * $0 + 1], n[3 * $0 + 2]) }
        } else {
            normals = TriangleMesh(positions: points, triangles: triangles).computedVertexNormals()
        }
        let mesh = TexturedMesh(positions: points, normals: normals, triangles: triangles,
                                uvs: (0..<vertexCount).map { SIMD2(uv[2 * $0], uv[2 * $0 + 1]) }, uvTriangles: triangles)

        var baseColor: EncodedTexture?
        if let materialIndex = primitive["material"] as? Int,
           let material = (json["materials"] as? [[String: Any]])?[safe: materialIndex],
           let textureIndex = ((material["pbrMetallicRoughness"] as? [String: Any])?["baseColorTexture"] as? [String: Any])?["index"] as? Int,
           let source = (json["textures"] as? [[String: Any]])?[safe: textureIndex]?["source"] as? Int,
           let image = (json["images"] as? [[String: Any]])?[safe: source] {
            guard let viewIndex = image["bufferView"] as? Int else { throw fail("the base-colour image is not embedded") }
            let encoded = [UInt8](try viewBytes(viewIndex).bytes)
            let format: ImageFileFormat = (image["mimeType"] as? String) == "image/jpeg" ? .jpeg : .png
            baseColor = EncodedTexture(map: .diffuseColor, data: encoded, format: format, width: 0, height: 0)
        }
        return Contents(mesh: mesh, baseColor: baseColor)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { index >= 0 && index < count ? self[index] : nil }
}
