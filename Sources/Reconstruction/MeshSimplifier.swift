import CReconstruction
import ReconstructionCore

/// Decimation to a triangle cap through the shim (meshoptimizer): quadric-error collapses that keep
/// the topology and the open boundaries, then clustering if those stop short of the cap.
public enum MeshSimplifier {
    public struct Result: Sendable {
        /// The decimated mesh, compacted (unused vertices dropped), with fresh vertex normals and
        /// the input's vertex colours where it had them.
        public var mesh: TriangleMesh
        /// Deviation reached, relative to the input's extent.
        public var relativeError: Float
    }

    /// At most `maximumTriangles` triangles. `targetError` is relative to the mesh's extent; the
    /// cap always wins over it.
    public static func simplify(_ mesh: TriangleMesh, maximumTriangles: Int, targetError: Float = 0.02,
                                keepBorders: Bool = true) throws -> Result {
        guard mesh.triangleCount > maximumTriangles else {
            var same = mesh
            if !same.hasNormals { same.normals = same.computedVertexNormals() }
            return Result(mesh: same, relativeError: 0)
        }
        let positions = mesh.positions.flatMap { [$0.x, $0.y, $0.z] }
        let triangles = mesh.triangles.flatMap { [$0.x, $0.y, $0.z] }
        var out = [UInt32](repeating: 0, count: triangles.count)
        var count: Int32 = 0
        var error: Float = 0
        try ShimError.check {
            rc_simplify_mesh(positions, Int32(mesh.positions.count), triangles, Int32(mesh.triangleCount),
                             Int32(max(1, maximumTriangles)), targetError, keepBorders ? 1 : 0, &out, &count, &error, $0)
        }
        // Compact: keep referenced vertices only, in first-use order.
        var remap = [Int32](repeating: -1, count: mesh.positions.count)
        var kept: [SIMD3<UInt32>] = []
        kept.reserveCapacity(Int(count))
        var positionsOut: [SIMD3<Float>] = [], colours: [SIMD3<Float>] = []
        for k in 0..<Int(count) {
            var t = SIMD3<UInt32>(out[3 * k], out[3 * k + 1], out[3 * k + 2])
            for c in 0..<3 {
                let old = Int(t[c])
                if remap[old] < 0 {
                    remap[old] = Int32(positionsOut.count)
                    positionsOut.append(mesh.positions[old])
                    if mesh.hasColors { colours.append(mesh.colors[old]) }
                }
                t[c] = UInt32(remap[old])
            }
            if t.x != t.y && t.y != t.z && t.x != t.z { kept.append(t) }
        }
        var result = TriangleMesh(positions: positionsOut, triangles: kept, colors: colours)
        result.normals = result.computedVertexNormals()
        return Result(mesh: result, relativeError: error)
    }
}
