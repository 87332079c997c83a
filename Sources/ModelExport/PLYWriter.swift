import Foundation
import ReconstructionCore

/// Writes meshes and point clouds as PLY (Stanford polygon files), readable by MeshLab,
/// CloudCompare, Open3D and `PLYReader`.
///
/// Vertices carry `float x, y, z` (the model's unit, metres for world geometry), then
/// `float nx, ny, nz` when there are normals and `uchar red, green, blue` (0–255, sRGB) when there
/// are colours. A mesh adds `element face` with `property list uchar int vertex_indices`, one
/// counter-clockwise triangle per face. Binary little-endian by default, ASCII optionally.
public enum PLYWriter {
    /// How the body of the file is stored.
    public enum Encoding: String, Sendable, CaseIterable {
        /// Compact and fast: `format binary_little_endian 1.0`.
        case binaryLittleEndian = "binary_little_endian"
        /// Human-readable: `format ascii 1.0`, one vertex or face per line.
        case ascii
    }

    /// Writes `mesh` to `url` (parent directories created, written atomically).
    /// - Parameter comment: an optional line for the header (line breaks are replaced by spaces).
    /// - Throws: `ModelExportError` naming the file, also when a triangle refers to a missing vertex.
    public static func write(_ mesh: TriangleMesh, to url: URL, encoding: Encoding = .binaryLittleEndian,
                             comment: String? = nil) throws {
        let bytes: Data
        do {
            bytes = try data(mesh, encoding: encoding, comment: comment)
        } catch let error as PLYWriterError {
            throw ModelExportError(file: url, error.description)
        }
        try AtomicFileWriter.write(bytes, to: url)
    }

    /// Writes `cloud` to `url` as vertices only (parent directories created, written atomically).
    /// - Throws: `ModelExportError` naming the file.
    public static func write(_ cloud: PointCloud, to url: URL, encoding: Encoding = .binaryLittleEndian,
                             comment: String? = nil) throws {
        try AtomicFileWriter.write(data(cloud, encoding: encoding, comment: comment), to: url)
    }

    /// The PLY file of `mesh`.
    /// - Throws: `PLYWriterError` when a triangle refers to a vertex the mesh does not have.
    public static func data(_ mesh: TriangleMesh, encoding: Encoding = .binaryLittleEndian,
                            comment: String? = nil) throws -> Data {
        let n = UInt32(clamping: mesh.positions.count)
        if let bad = mesh.triangles.firstIndex(where: { $0.x >= n || $0.y >= n || $0.z >= n }) {
            throw PLYWriterError.vertexIndexOutOfRange(triangle: bad, vertexCount: mesh.positions.count)
        }
        let vertices = VertexColumns(positions: mesh.positions, normals: mesh.hasNormals ? mesh.normals : nil,
                                     colors: mesh.hasColors ? mesh.colors : nil)
        return encode(vertices, triangles: mesh.triangles, encoding: encoding, comment: comment)
    }

    /// The PLY file of `cloud` (no face element).
    public static func data(_ cloud: PointCloud, encoding: Encoding = .binaryLittleEndian,
                            comment: String? = nil) -> Data {
        let vertices = VertexColumns(positions: cloud.positions, normals: cloud.hasNormals ? cloud.normals : nil,
                                     colors: cloud.hasColors ? cloud.colors : nil)
        return encode(vertices, triangles: nil, encoding: encoding, comment: comment)
    }

    private struct VertexColumns {
        var positions: [SIMD3<Float>]
        var normals: [SIMD3<Float>]?
        var colors: [SIMD3<Float>]?
    }

    private static func encode(_ v: VertexColumns, triangles: [SIMD3<UInt32>]?, encoding: Encoding,
                               comment: String?) -> Data {
        var header = "ply\nformat \(encoding.rawValue) 1.0\n"
        if let comment {
            let line = comment.map { $0.isNewline ? " " : $0 }
            header += "comment \(String(line))\n"
        }
        header += "element vertex \(v.positions.count)\n"
        header += "property float x\nproperty float y\nproperty float z\n"
        if v.normals != nil { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if v.colors != nil { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        if let triangles {
            header += "element face \(triangles.count)\nproperty list uchar int vertex_indices\n"
        }
        header += "end_header\n"
        var data = Data(header.utf8)
        switch encoding {
        case .binaryLittleEndian: data.append(binaryBody(v, triangles: triangles ?? []))
        case .ascii: data.append(Data(asciiBody(v, triangles: triangles ?? []).utf8))
        }
        return data
    }

    /// An sRGB component in 0...1 as a byte, rounded; out-of-range values clamp, NaN gives 0.
    @inline(__always)
    static func byte(_ component: Float) -> UInt8 {
        guard component > 0 else { return 0 }
        return UInt8(min(component, 1) * 255 + 0.5)
    }

    private static func binaryBody(_ v: VertexColumns, triangles: [SIMD3<UInt32>]) -> Data {
        let vertexSize = 12 + (v.normals != nil ? 12 : 0) + (v.colors != nil ? 3 : 0)
        let faceSize = 1 + 12
        var body = Data(count: v.positions.count * vertexSize + triangles.count * faceSize)
        body.withUnsafeMutableBytes { raw in
            var offset = 0
            @inline(__always) func put(_ value: Float) {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                offset += 4
            }
            for i in v.positions.indices {
                let p = v.positions[i]
                put(p.x); put(p.y); put(p.z)
                if let normals = v.normals {
                    let n = normals[i]
                    put(n.x); put(n.y); put(n.z)
                }
                if let colors = v.colors {
                    let c = colors[i]
                    raw[offset] = byte(c.x)
                    raw[offset + 1] = byte(c.y)
                    raw[offset + 2] = byte(c.z)
                    offset += 3
                }
            }
            for t in triangles {
                raw[offset] = 3
                raw.storeBytes(of: t.x.littleEndian, toByteOffset: offset + 1, as: UInt32.self)
                raw.storeBytes(of: t.y.littleEndian, toByteOffset: offset + 5, as: UInt32.self)
                raw.storeBytes(of: t.z.littleEndian, toByteOffset: offset + 9, as: UInt32.self)
                offset += faceSize
            }
        }
        return body
    }

    private static func asciiBody(_ v: VertexColumns, triangles: [SIMD3<UInt32>]) -> String {
        var text = ""
        text.reserveCapacity(v.positions.count * (v.normals != nil ? 60 : 30) + triangles.count * 20)
        for i in v.positions.indices {
            let p = v.positions[i]
            // Float's description is the shortest text that reads back to the same value.
            text += "\(p.x) \(p.y) \(p.z)"
            if let normals = v.normals {
                let n = normals[i]
                text += " \(n.x) \(n.y) \(n.z)"
            }
            if let colors = v.colors {
                let c = colors[i]
                text += " \(byte(c.x)) \(byte(c.y)) \(byte(c.z))"
            }
            text += "\n"
        }
        for t in triangles { text += "3 \(t.x) \(t.y) \(t.z)\n" }
        return text
    }
}
