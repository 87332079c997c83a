import Foundation
import ReconstructionCore

/// Writes a `ModelPackage` as binary glTF 2.0 (`.glb`): a JSON chunk (padded with spaces) and one
/// BIN chunk (padded with zeros), every buffer view starting on a 4-byte boundary.
///
/// Geometry: one node (scaled by `metersPerUnit` when it is not 1, since glTF is in metres),
/// one mesh, one triangle primitive with `POSITION` (with `min`/`max`), `NORMAL`, `TEXCOORD_0` and
/// `UNSIGNED_INT` indices. UV seams are split (`SeamSplitMesh`): glTF has one index per vertex.
/// Texture coordinates are written unchanged: glTF's convention (u right, v down from the image's
/// top-left) is `TexturedMesh`'s.
///
/// Material (`pbrMetallicRoughness`, metallic factor 0, single-sided): `baseColorTexture`,
/// `normalTexture` and `occlusionTexture` (glTF reads occlusion from R: a grey map works). The
/// roughness map goes in as `metallicRoughnessTexture` unchanged, with `roughnessFactor` 1:
/// glTF reads roughness from G, which a grey map holds, and metallic from B, which
/// `metallicFactor` 0 cancels, so no ORM packing (and no image encoder) is needed. Without a
/// roughness map, `roughnessFactor` is the package's `roughness`. The displacement map is left
/// out: core glTF has no displacement. Images are embedded as buffer views with their MIME type;
/// sampler: linear, mipmapped, clamp to edge.
public enum GLBWriter {
    /// The GLB file's bytes.
    /// - Throws: `ModelExportError` (path `model.glb`) when the package is inconsistent or over 4 GiB.
    public static func data(_ package: ModelPackage) throws -> [UInt8] {
        try glb(package, path: "model.glb")
    }

    /// Writes `package` to `url` (parent directories created, written atomically).
    /// - Throws: `ModelExportError` naming the file.
    public static func write(_ package: ModelPackage, to url: URL) throws {
        try AtomicFileWriter.write(Data(glb(package, path: url.path)), to: url)
    }

    /// The maps a GLB carries, in image order.
    static let embeddedMaps: [TextureMapKind] = [.diffuseColor, .normal, .ambientOcclusion, .roughness]

    private static func glb(_ package: ModelPackage, path: String) throws -> [UInt8] {
        try package.check(writingTo: path)
        let mesh = SeamSplitMesh(package.mesh)
        var bin: [UInt8] = []
        var views: [GLTFDocument.BufferView] = []
        func addView(_ bytes: [UInt8], target: Int?) -> Int {
            views.append(.init(byteOffset: bin.count, byteLength: bytes.count, target: target))
            bin += bytes
            while bin.count % 4 != 0 { bin.append(0) }
            return views.count - 1
        }

        let positionView = addView(floats(mesh.positions.flatMap { [$0.x, $0.y, $0.z] }), target: 34962)
        let normalView = addView(floats(mesh.normals.flatMap { [$0.x, $0.y, $0.z] }), target: 34962)
        let uvView = addView(floats(mesh.uvs.flatMap { [$0.x, $0.y] }), target: 34962)
        let indexView = addView(uint32s(mesh.indices), target: 34963)

        // Bounds of the vertices written (a position no triangle uses is not among them).
        let low = mesh.positions.reduce(mesh.positions[0]) { pointwiseMin($0, $1) }
        let high = mesh.positions.reduce(mesh.positions[0]) { pointwiseMax($0, $1) }
        let n = mesh.positions.count
        let accessors: [GLTFDocument.Accessor] = [
            .init(bufferView: positionView, componentType: 5126, count: n, type: "VEC3",
                  min: [low.x, low.y, low.z].map(Double.init), max: [high.x, high.y, high.z].map(Double.init)),
            .init(bufferView: normalView, componentType: 5126, count: n, type: "VEC3"),
            .init(bufferView: uvView, componentType: 5126, count: n, type: "VEC2"),
            .init(bufferView: indexView, componentType: 5125, count: mesh.indices.count, type: "SCALAR"),
        ]

        var images: [GLTFDocument.Image] = []
        var textureOfMap: [TextureMapKind: Int] = [:]
        for map in embeddedMaps {
            guard let texture = package.texture(map) else { continue }
            let view = addView(texture.data, target: nil)
            images.append(.init(name: map.baseName, bufferView: view, mimeType: texture.format.mimeType))
            textureOfMap[map] = images.count - 1
        }
        let reference = { (map: TextureMapKind) in textureOfMap[map].map(GLTFDocument.TextureReference.init) }
        let roughnessMap = reference(.roughness)
        let material = GLTFDocument.Material(
            name: "Material",
            pbrMetallicRoughness: .init(baseColorTexture: reference(.diffuseColor), metallicFactor: 0,
                                        roughnessFactor: roughnessMap != nil ? 1 : Double(package.roughness.description) ?? 1,
                                        metallicRoughnessTexture: roughnessMap),
            normalTexture: reference(.normal), occlusionTexture: reference(.ambientOcclusion))

        let scale = package.metersPerUnit == 1 ? nil : [Double](repeating: package.metersPerUnit, count: 3)
        let document = GLTFDocument(
            asset: .init(extras: package.isMetric ? nil : ["scale": ModelPackage.unknownScaleNote]),
            scenes: [.init(nodes: [0])],
            nodes: [.init(name: package.identifier, mesh: 0, scale: scale)],
            meshes: [.init(name: package.identifier,
                           primitives: [.init(attributes: .init(position: 0, normal: 1, texcoord0: 2), indices: 3, material: 0)])],
            materials: [material],
            textures: images.isEmpty ? nil : images.indices.map { GLTFDocument.Texture(sampler: 0, source: $0) },
            images: images.isEmpty ? nil : images,
            samplers: images.isEmpty ? nil : [GLTFDocument.Sampler()],
            accessors: accessors, bufferViews: views, buffers: [.init(byteLength: bin.count)])

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var json = try [UInt8](encoder.encode(document))
        while json.count % 4 != 0 { json.append(0x20) }
        let total = 12 + 8 + json.count + 8 + bin.count
        guard total <= Int(UInt32.max) else {
            throw ModelExportError(path: path, problem: "the GLB would be \(total) bytes, more than glTF's 4 GiB limit")
        }
        var out: [UInt8] = []
        out.reserveCapacity(total)
        out.le32(0x4654_6C67)  // "glTF"
        out.le32(2)
        out.le32(UInt32(total))
        out.le32(UInt32(json.count))
        out.le32(0x4E4F_534A)  // "JSON"
        out += json
        out.le32(UInt32(bin.count))
        out.le32(0x004E_4942)  // "BIN\0"
        out += bin
        return out
    }

    /// Little-endian float32 bytes.
    private static func floats(_ values: [Float]) -> [UInt8] {
        uint32s(values.map(\.bitPattern))
    }

    /// Little-endian uint32 bytes.
    private static func uint32s(_ values: [UInt32]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            for (k, v) in values.enumerated() { raw.storeBytes(of: v.littleEndian, toByteOffset: 4 * k, as: UInt32.self) }
        }
        return bytes
    }
}
