import Foundation
import ModelExport
import ReconstructionCore
import TestSupport
import XCTest

/// Test models for the exporters: a unit cube resting on y = 0 with a three-island atlas.
enum ExportFixtures {
    /// Quads of the cube (counter-clockwise seen from outside), corners bottom-left, bottom-right,
    /// top-right, top-left as seen on the face: +z, +x, −z, −x (the side strip), then +y, −y.
    static let quads: [[UInt32]] = [[4, 5, 7, 6], [5, 1, 3, 7], [1, 0, 2, 3], [0, 4, 6, 2], [6, 7, 3, 2], [0, 1, 5, 4]]

    /// 8 welded corners, 12 triangles, 18 atlas coordinates: the four sides share a strip in the top
    /// half of the image (5 columns × 2 rows of UVs, seam where −x meets +z), +y and −y are
    /// separate squares in the bottom half. v grows downwards (image convention).
    static var cube: TexturedMesh {
        let positions = (0..<8).map { (i: Int) -> SIMD3<Float> in
            let x = Float(i & 1) - 0.5, y = Float(i >> 1 & 1), z = Float(i >> 2 & 1) - 0.5
            return SIMD3(x, y, z)
        }
        let normals = positions.map { p -> SIMD3<Float> in
            let d = p - SIMD3(0, 0.5, 0)
            return d / (d * d).sum().squareRoot()
        }
        var uvs: [SIMD2<Float>] = (0...4).map { (k: Int) in SIMD2(Float(k) / 4, 0.5) }
        uvs += (0...4).map { (k: Int) in SIMD2(Float(k) / 4, 0) }
        let caps: [SIMD2<Float>] = [[0, 1], [0.5, 1], [0.5, 0.5], [0, 0.5], [0.5, 1], [1, 1], [1, 0.5], [0.5, 0.5]]
        uvs += caps
        var uvQuads: [[UInt32]] = (0..<4).map { (k: UInt32) -> [UInt32] in [k, k + 1, 6 + k, 5 + k] }
        uvQuads += [[10, 11, 12, 13], [14, 15, 16, 17]]
        func split(_ q: [UInt32]) -> [SIMD3<UInt32>] { [SIMD3(q[0], q[1], q[2]), SIMD3(q[0], q[2], q[3])] }
        return TexturedMesh(positions: positions, normals: normals, triangles: quads.flatMap(split),
                            uvs: uvs, uvTriangles: uvQuads.flatMap(split))
    }

    /// All five maps as real 8 × 8 PNGs (grey maps single-channel).
    static func textures(size: Int = 8) -> [EncodedTexture] {
        let n = size * size
        let colour = (0..<n).flatMap { (i: Int) -> [UInt8] in [UInt8(i * 4 % 256), 200, UInt8(255 - i % 256)] }
        let flatNormal = [UInt8]((0..<n).flatMap { _ in [128, 128, 255] as [UInt8] })
        func png(_ map: TextureMapKind, _ pixels: [UInt8], channels: Int) -> EncodedTexture {
            EncodedTexture(map: map, data: TinyPNG.encode(width: size, height: size, channels: channels, pixels: pixels),
                           format: .png, width: size, height: size)
        }
        return [
            png(.diffuseColor, colour, channels: 3),
            png(.normal, flatNormal, channels: 3),
            png(.ambientOcclusion, [UInt8](repeating: 230, count: n), channels: 1),
            png(.roughness, [UInt8](repeating: 180, count: n), channels: 1),
            png(.displacement, [UInt8](repeating: 128, count: n), channels: 1),
        ]
    }

    /// The cube with all maps, 1 unit = 1 m, 2 mm displacement range.
    static func cubePackage(name: String = "Cube") -> ModelPackage {
        ModelPackage(name: name, mesh: cube, textures: textures(), metersPerUnit: 1, displacementRange: 0.002)
    }

    /// A bumpy sphere-like grid mesh with about `triangles` triangles and a UV seam every row
    /// (for size and speed checks).
    static func grid(triangles: Int) -> TexturedMesh {
        let side = max(2, Int((Double(triangles) / 2).squareRoot()))
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = []
        for y in 0...side {
            for x in 0...side {
                let u = Float(x) / Float(side), v = Float(y) / Float(side)
                positions.append(SIMD3(u * 3.7 - 1.3, 0.01 * sin(u * 40) * cos(v * 31), v * 2.9 + 0.123456))
                normals.append(SIMD3(0, 0, 1))
                uvs.append(SIMD2(u * 0.999, v * 0.999))
            }
        }
        var tris: [SIMD3<UInt32>] = []
        for y in 0..<side {
            for x in 0..<side {
                let a = UInt32(y * (side + 1) + x), b = a + 1, c = a + UInt32(side + 1), d = c + 1
                tris += [SIMD3(a, b, d), SIMD3(a, d, c)]
            }
        }
        return TexturedMesh(positions: positions, normals: normals, triangles: tris, uvs: uvs, uvTriangles: tris)
    }
}

/// A minimal PNG encoder for tests: 8-bit grey or RGB, zlib stream of stored (uncompressed)
/// deflate blocks, filter 0 on every row. Not for the library: it makes huge files.
enum TinyPNG {
    static func encode(width: Int, height: Int, channels: Int, pixels: [UInt8]) -> [UInt8] {
        precondition(channels == 1 || channels == 3 && pixels.count == width * height * channels)
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)
            raw += pixels[row * width * channels..<(row + 1) * width * channels]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, raw.count - start)
            zlib.append(start + count == raw.count ? 1 : 0)
            zlib += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[start..<start + count]
            start += count
        } while start < raw.count
        zlib += bigEndian(adler32(raw))

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            png += bigEndian(UInt32(data.count)) + body + bigEndian(bitwiseCRC32(body))
        }
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 1 ? 0 : 2, 0, 0, 0])
        chunk("IDAT", zlib)
        chunk("IEND", [])
        return png
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// CRC-32 computed bit by bit, independently of the library's table-driven `CRC32`.
func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        c ^= UInt32(byte)
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
    }
    return ~c
}

/// Little-endian reads from a byte array (for parsing written files in tests).
extension Array where Element == UInt8 {
    func u16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
}

/// A zip archive parsed the way USD reads it (local headers walked from offset 0) and checked
/// against its central directory.
struct ParsedZip {
    struct Entry {
        var name: String
        var headerOffset: Int
        var dataOffset: Int
        var method: Int
        var flags: Int
        var crc: UInt32
        var data: [UInt8]
    }

    var entries: [Entry] = []

    /// - Throws: a description of the first inconsistency found.
    init(_ bytes: [UInt8]) throws {
        struct Problem: Error, CustomStringConvertible { var description: String }
        var at = 0
        while at + 4 <= bytes.count, bytes.u32(at) == 0x0403_4B50 {
            let nameLength = bytes.u16(at + 26), extraLength = bytes.u16(at + 28)
            let compressed = bytes.u32(at + 18), size = bytes.u32(at + 22)
            guard compressed == size else { throw Problem(description: "sizes differ at \(at)") }
            let name = String(decoding: bytes[at + 30..<at + 30 + nameLength], as: UTF8.self)
            let dataOffset = at + 30 + nameLength + extraLength
            entries.append(Entry(name: name, headerOffset: at, dataOffset: dataOffset, method: bytes.u16(at + 8),
                                 flags: bytes.u16(at + 6), crc: UInt32(bytes.u32(at + 14)),
                                 data: Array(bytes[dataOffset..<dataOffset + size])))
            at = dataOffset + size
        }
        let directoryStart = at
        var k = 0
        while at + 4 <= bytes.count, bytes.u32(at) == 0x0201_4B50 {
            guard k < entries.count else { throw Problem(description: "more directory records than local headers") }
            let e = entries[k]
            let nameLength = bytes.u16(at + 28), extraLength = bytes.u16(at + 30), commentLength = bytes.u16(at + 32)
            let name = String(decoding: bytes[at + 46..<at + 46 + nameLength], as: UTF8.self)
            guard name == e.name, bytes.u32(at + 42) == e.headerOffset, UInt32(bytes.u32(at + 16)) == e.crc,
                  bytes.u32(at + 24) == e.data.count, bytes.u16(at + 10) == e.method
            else { throw Problem(description: "directory record \(k) disagrees with its local header") }
            at += 46 + nameLength + extraLength + commentLength
            k += 1
        }
        guard k == entries.count else { throw Problem(description: "\(entries.count) local headers, \(k) directory records") }
        guard bytes.count - at == 22, bytes.u32(at) == 0x0605_4B50 else { throw Problem(description: "no end record at \(at)") }
        guard bytes.u16(at + 8) == k, bytes.u16(at + 10) == k, bytes.u32(at + 12) == at - directoryStart,
              bytes.u32(at + 16) == directoryStart
        else { throw Problem(description: "end record does not describe the directory") }
    }

    func data(_ name: String) -> [UInt8]? { entries.first { $0.name == name }?.data }
}

/// What trimesh sees when it loads an exported model (`trimesh.load(path, force='mesh')`).
struct TrimeshView: Decodable {
    var faces: Int
    var vertices: Int
    /// Pixel size of the base-colour image attached to the material, nil when none.
    var image: [Int]?
    var uvCount: Int?
    var boundsMin: [Double]
    var boundsMax: [Double]

    private static let script = """
        import json, sys
        try:
            import trimesh, PIL
        except ImportError as error:
            print("cannot import", error.name, "- install the pip packages trimesh and pillow (Scripts/install-deps.sh)")
            sys.exit(3)
        m = trimesh.load(sys.argv[1], force="mesh")
        mat = getattr(m.visual, "material", None)
        img = getattr(mat, "baseColorTexture" if sys.argv[2] == "glb" else "image", None)
        uv = getattr(m.visual, "uv", None)
        print(json.dumps({"faces": int(len(m.faces)), "vertices": int(len(m.vertices)),
                          "image": None if img is None else list(img.size),
                          "uvCount": None if uv is None else int(len(uv)),
                          "boundsMin": m.bounds[0].tolist(), "boundsMax": m.bounds[1].tolist()}))
        """

    /// Loads `url` in trimesh; `kind` is "glb" (reads the PBR base colour) or "obj" (the MTL image).
    /// Fails the test (not a skip) when trimesh or Pillow is missing.
    static func load(_ url: URL, kind: String, file: StaticString = #filePath, line: UInt = #line) throws -> TrimeshView {
        let result = try PythonTool.run(script, [url.path, kind])
        guard result.status == 0, let last = result.output.split(separator: "\n").last else {
            XCTFail("trimesh could not load \(url.lastPathComponent): \(result.output)", file: file, line: line)
            throw XCTSkip("trimesh failed (reported as a failure above)")
        }
        return try JSONDecoder().decode(TrimeshView.self, from: Data(last.utf8))
    }
}
