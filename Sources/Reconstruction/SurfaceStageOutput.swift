import ReconstructionCore

/// What the dense and surface stages hand to the model stages: the cleaned surface mesh and the
/// metric scale depth data gave it (the mesh is then in metres). Checkpointed by the session, so a
/// resumed model request does not run stereo again.
public struct SurfaceStageOutput: Sendable {
    public var mesh: TriangleMesh
    /// Metres per scene unit when depth fixed the scale; nil: the mesh is in the scene's units.
    public var metresPerUnit: Double?

    public init(mesh: TriangleMesh, metresPerUnit: Double?) {
        self.mesh = mesh
        self.metresPerUnit = metresPerUnit
    }
}

extension SurfaceStageOutput: CheckpointCodable {
    func encode(to writer: inout CheckpointWriter) {
        writer.write(array: mesh.positions)
        writer.write(array: mesh.triangles)
        writer.write(array: mesh.colors)
        writer.write(array: mesh.normals)
        writer.write(optional: metresPerUnit)
    }

    init(from reader: inout CheckpointReader) throws {
        let positions = try reader.readArray(of: SIMD3<Float>.self)
        let triangles = try reader.readArray(of: SIMD3<UInt32>.self)
        let colors = try reader.readArray(of: SIMD3<Float>.self)
        let normals = try reader.readArray(of: SIMD3<Float>.self)
        let count = UInt32(positions.count)
        guard triangles.allSatisfy({ $0.x < count && $0.y < count && $0.z < count }),
              colors.isEmpty || colors.count == positions.count, normals.isEmpty || normals.count == positions.count else {
            throw CheckpointReader.Corrupt(description: "surface mesh indices or attributes do not match its vertices")
        }
        self.init(mesh: TriangleMesh(positions: positions, triangles: triangles, colors: colors, normals: normals),
                  metresPerUnit: try reader.readOptionalDouble())
    }
}
