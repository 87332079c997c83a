import Foundation
import ReconstructionCore

/// Reads PLY (Stanford polygon) files: LiDAR point clouds, ground-truth meshes, exported models.
///
/// Accepts `ascii`, `binary_little_endian` and `binary_big_endian` bodies. From the `vertex`
/// element it takes `x, y, z` (any numeric type), the normal `nx, ny, nz` and the colour
/// `red, green, blue` (or `diffuse_red, …`) when all three are present; integer colours are scaled
/// from their type's full range (uchar 0–255) to 0...1, float colours are taken as 0...1. From the
/// `face` element it takes the list `vertex_indices` (or `vertex_index`) of integer indices;
/// polygons are split into triangles as a fan from their first vertex, and faces with fewer than
/// three vertices are skipped. Every other element and property is skipped by its declared type.
///
/// Malformed input (bad header, unsupported type, truncated data, a value that is not a number,
/// a face index out of range) throws a `CaptureIOError` naming the file; it never traps.
public enum PLYReader {
    /// The mesh in the PLY file at `url`: vertices with their attributes and the faces'
    /// triangles (none for a point cloud).
    /// - Throws: `CaptureIOError` naming the file and the problem.
    public static func readMesh(_ url: URL) throws -> TriangleMesh {
        try parse(load(url), file: url)
    }

    /// The vertices of the PLY file at `url` as a point cloud (faces are checked, then ignored).
    /// - Throws: `CaptureIOError` naming the file and the problem.
    public static func readPointCloud(_ url: URL) throws -> PointCloud {
        let mesh = try readMesh(url)
        return PointCloud(positions: mesh.positions, normals: mesh.normals, colors: mesh.colors)
    }

    /// Parses the bytes of a PLY file; `file` names it in errors.
    /// - Throws: `CaptureIOError` naming `file` and the problem.
    public static func parse(_ data: Data, file: URL) throws -> TriangleMesh {
        let result = data.withUnsafeBytes { raw -> Result<TriangleMesh, PLYProblem> in
            Result { () throws(PLYProblem) -> TriangleMesh in
                let header = try PLYHeader.parse(raw)
                switch header.format {
                case .ascii:
                    var source = PLYASCIISource(bytes: raw, offset: header.bodyOffset)
                    return try decode(header, from: &source)
                case .binaryLittleEndian, .binaryBigEndian:
                    var source = PLYBinarySource(bytes: raw, bigEndian: header.format == .binaryBigEndian,
                                                 offset: header.bodyOffset)
                    return try decode(header, from: &source)
                }
            }
        }
        switch result {
        case .success(let mesh): return mesh
        case .failure(let problem): throw CaptureIOError(file: file, problem.message)
        }
    }

    private static func load(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw CaptureIOError(file: url, "cannot read the PLY file: \(FileReadFailure.reason(url, error))")
        }
    }

    /// What a vertex property is used for.
    private enum Role {
        case skip
        case position(Int)
        case normal(Int)
        case color(Int, scale: Double)
    }

    private static func decode<Source: PLYValueSource>(_ header: PLYHeader, from source: inout Source)
        throws(PLYProblem) -> TriangleMesh
    {
        guard let vertexElement = header.elements.first(where: { $0.name == "vertex" }) else {
            throw .badHeader("no \"vertex\" element")
        }
        let names = vertexElement.properties.map(\.name)
        for axis in ["x", "y", "z"] where !names.contains(axis) {
            throw .badHeader("the vertex element has no \"\(axis)\" property")
        }
        var mesh = TriangleMesh()
        var verticesRead = false
        for element in header.elements {
            // Reject impossible counts before allocating anything.
            if let remaining = source.remainingBytes, let size = element.fixedSize, size > 0,
               element.count > remaining / size {
                throw .truncated("element \"\(element.name)\" declares \(element.count) items of \(size) bytes, "
                                 + "but only \(remaining) bytes remain")
            }
            if element.name == "vertex" && !verticesRead {
                try decodeVertices(element, from: &source, into: &mesh)
                verticesRead = true
            } else if element.name == "face", let list = faceListIndex(element) {
                try decodeFaces(element, list: list, from: &source, into: &mesh.triangles)
            } else {
                try skip(element, from: &source)
            }
        }
        let n = UInt32(mesh.positions.count)
        if let bad = mesh.triangles.firstIndex(where: { $0.x >= n || $0.y >= n || $0.z >= n }) {
            let t = mesh.triangles[bad]
            throw .badIndex("triangle \(bad) refers to vertex \(max(t.x, t.y, t.z)), "
                            + "but the file has \(mesh.positions.count) vertices")
        }
        return mesh
    }

    private static func faceListIndex(_ element: PLYHeader.Element) -> Int? {
        element.properties.firstIndex { p in
            p.listCountType != nil && (p.name == "vertex_indices" || p.name == "vertex_index")
        }
    }

    private static func decodeVertices<Source: PLYValueSource>(
        _ element: PLYHeader.Element, from source: inout Source, into mesh: inout TriangleMesh
    ) throws(PLYProblem) {
        let names = element.properties.map(\.name)
        let hasNormals = ["nx", "ny", "nz"].allSatisfy(names.contains)
        let colorNames = ["red", "green", "blue"].allSatisfy(names.contains)
            ? ["red", "green", "blue"] : ["diffuse_red", "diffuse_green", "diffuse_blue"]
        let hasColors = colorNames.allSatisfy(names.contains)
        let roles: [Role] = element.properties.map { p in
            guard p.listCountType == nil else { return .skip }
            switch p.name {
            case "x": return .position(0)
            case "y": return .position(1)
            case "z": return .position(2)
            case "nx" where hasNormals: return .normal(0)
            case "ny" where hasNormals: return .normal(1)
            case "nz" where hasNormals: return .normal(2)
            case let name where hasColors && colorNames.contains(name):
                let scale: Double
                switch p.type {
                case .int8, .uint8: scale = 1 / 255
                case .int16, .uint16: scale = 1 / 65535
                case .int32, .uint32: scale = 1 / 4_294_967_295
                case .float32, .float64: scale = 1
                }
                return .color(colorNames.firstIndex(of: name)!, scale: scale)
            default: return .skip
            }
        }
        let reserve = min(element.count, source.maxValuesLeft / max(1, element.properties.count))
        mesh.positions.reserveCapacity(reserve)
        if hasNormals { mesh.normals.reserveCapacity(reserve) }
        if hasColors { mesh.colors.reserveCapacity(reserve) }
        for item in 0..<element.count {
            var position = SIMD3<Float>.zero, normal = SIMD3<Float>.zero, color = SIMD3<Float>.zero
            for (property, role) in zip(element.properties, roles) {
                do throws(PLYProblem) {
                    switch role {
                    case .skip: try skip(property, from: &source)
                    case .position(let axis): position[axis] = Float(try source.next(property.type))
                    case .normal(let axis): normal[axis] = Float(try source.next(property.type))
                    case .color(let channel, let scale): color[channel] = Float(try source.next(property.type) * scale)
                    }
                } catch {
                    throw error.located("vertex \(item), property \"\(property.name)\"")
                }
            }
            mesh.positions.append(position)
            if hasNormals { mesh.normals.append(normal) }
            if hasColors { mesh.colors.append(color) }
        }
    }

    private static func decodeFaces<Source: PLYValueSource>(
        _ element: PLYHeader.Element, list: Int, from source: inout Source,
        into triangles: inout [SIMD3<UInt32>]
    ) throws(PLYProblem) {
        let indexProperty = element.properties[list]
        guard indexProperty.type.isInteger else {
            throw .unsupportedType("face indices must have an integer type")
        }
        triangles.reserveCapacity(min(element.count, source.maxValuesLeft / 4))
        for item in 0..<element.count {
            for (p, property) in element.properties.enumerated() {
                do throws(PLYProblem) {
                    guard p == list else {
                        try skip(property, from: &source)
                        continue
                    }
                    let count = try listLength(property, from: &source)
                    var first: UInt32 = 0, previous: UInt32 = 0
                    for k in 0..<count {
                        let value = try source.next(property.type)
                        guard value >= 0 else { throw .badIndex("vertex index \(Int(value)) is negative") }
                        let index = UInt32(value)
                        if k == 0 {
                            first = index
                        } else if k >= 2 {
                            triangles.append(SIMD3(first, previous, index))
                        }
                        previous = index
                    }
                } catch {
                    throw error.located("face \(item)")
                }
            }
        }
    }

    /// Reads a list's length prefix and checks it against the bytes left.
    private static func listLength<Source: PLYValueSource>(_ property: PLYHeader.Property, from source: inout Source)
        throws(PLYProblem) -> Int
    {
        let value = try source.next(property.listCountType!)
        guard value >= 0 else { throw .badValue("list \"\(property.name)\" has negative length \(Int(value))") }
        let count = Int(value)
        if let remaining = source.remainingBytes, count > remaining / property.type.size {
            throw .truncated("list \"\(property.name)\" declares \(count) items but only \(remaining) bytes remain")
        }
        return count
    }

    private static func skip<Source: PLYValueSource>(_ property: PLYHeader.Property, from source: inout Source)
        throws(PLYProblem)
    {
        let count = property.listCountType == nil ? 1 : try listLength(property, from: &source)
        for _ in 0..<count { _ = try source.next(property.type) }
    }

    private static func skip<Source: PLYValueSource>(_ element: PLYHeader.Element, from source: inout Source)
        throws(PLYProblem)
    {
        for item in 0..<element.count {
            for property in element.properties {
                do throws(PLYProblem) {
                    try skip(property, from: &source)
                } catch {
                    throw error.located("element \"\(element.name)\" item \(item)")
                }
            }
        }
    }
}

extension PLYProblem {
    /// The same problem with where it happened prefixed to its text.
    func located(_ place: String) -> PLYProblem {
        switch self {
        case .badHeader(let text): return .badHeader("\(place): \(text)")
        case .unsupportedType(let text): return .unsupportedType("\(place): \(text)")
        case .truncated(let text): return .truncated("\(place): \(text)")
        case .badValue(let text): return .badValue("\(place): \(text)")
        case .badIndex(let text): return .badIndex("\(place): \(text)")
        }
    }
}
