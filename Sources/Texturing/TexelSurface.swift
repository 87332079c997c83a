import ReconstructionCore

/// The surface under each atlas texel: position, interpolated normal and the tangent frame of the
/// texel's triangle, computed on demand row by row (a 8192² atlas has 67 M texels; storing their
/// frames would take gigabytes).
public struct TexelSurface: Sendable {
    public let mesh: TexturedMesh
    public let texels: AtlasTexelMap
    /// Per triangle: unit tangent (∂P/∂u) and bitangent (∂P/∂t, t = 1 − v), orthonormalised
    /// against the face normal; see `TexturedMesh` for the convention.
    let tangents: [SIMD3<Float>]
    let bitangents: [SIMD3<Float>]

    /// One covered texel's surface sample.
    public struct Sample: Sendable {
        public var x: Int
        public var triangle: Int
        public var position: SIMD3<Float>
        /// Unit interpolated vertex normal.
        public var normal: SIMD3<Float>
    }

    public init(mesh: TexturedMesh, texels: AtlasTexelMap) {
        self.mesh = mesh
        self.texels = texels
        var tangents = [SIMD3<Float>](repeating: SIMD3(1, 0, 0), count: mesh.triangles.count)
        var bitangents = [SIMD3<Float>](repeating: SIMD3(0, 1, 0), count: mesh.triangles.count)
        for k in mesh.triangles.indices {
            let t = mesh.triangles[k], s = mesh.uvTriangles[k]
            let p0 = mesh.positions[Int(t.x)], p1 = mesh.positions[Int(t.y)], p2 = mesh.positions[Int(t.z)]
            let a = mesh.uvs[Int(s.x)], b = mesh.uvs[Int(s.y)], c = mesh.uvs[Int(s.z)]
            let e1 = p1 - p0, e2 = p2 - p0
            // UV differences with t = 1 − v, so dt = −dv.
            let du1 = b.x - a.x, dt1 = -(b.y - a.y), du2 = c.x - a.x, dt2 = -(c.y - a.y)
            let det = du1 * dt2 - du2 * dt1
            let n = simdCross(e1, e2)
            guard det != 0, det.isFinite, simdLength(n) > 0 else { continue }
            let face = n / simdLength(n)
            var tangent = (e1 * dt2 - e2 * dt1) / det
            var bitangent = (e2 * du1 - e1 * du2) / det
            tangent -= face * simdDot(face, tangent)
            bitangent -= face * simdDot(face, bitangent)
            if simdLength(tangent) > 0 { tangents[k] = tangent / simdLength(tangent) }
            if simdLength(bitangent) > 0 { bitangents[k] = bitangent / simdLength(bitangent) }
        }
        self.tangents = tangents
        self.bitangents = bitangents
    }

    public var width: Int { texels.width }
    public var height: Int { texels.height }

    /// The covered texels of row `y`, left to right.
    public func row(_ y: Int) -> [Sample] {
        var samples: [Sample] = []
        for x in 0..<texels.width {
            guard let hit = texels.hit(x: x, y: y) else { continue }
            let t = mesh.triangles[hit.triangle]
            let w = hit.barycentrics
            let position = mesh.positions[Int(t.x)] * w.x + mesh.positions[Int(t.y)] * w.y + mesh.positions[Int(t.z)] * w.z
            var normal = mesh.normals[Int(t.x)] * w.x + mesh.normals[Int(t.y)] * w.y + mesh.normals[Int(t.z)] * w.z
            let length = simdLength(normal)
            if length > 0 { normal /= length } else { normal = faceNormal(hit.triangle) }
            samples.append(Sample(x: x, triangle: hit.triangle, position: position, normal: normal))
        }
        return samples
    }

    /// Unit normal of triangle `k` (or +z for a degenerate one).
    public func faceNormal(_ k: Int) -> SIMD3<Float> {
        let t = mesh.triangles[k]
        let n = simdCross(mesh.positions[Int(t.y)] - mesh.positions[Int(t.x)], mesh.positions[Int(t.z)] - mesh.positions[Int(t.x)])
        let length = simdLength(n)
        return length > 0 ? n / length : SIMD3(0, 0, 1)
    }

    /// The texel's tangent frame (T, B, N), orthonormal, for expressing a normal in tangent space.
    public func frame(of sample: Sample) -> (tangent: SIMD3<Float>, bitangent: SIMD3<Float>, normal: SIMD3<Float>) {
        let n = sample.normal
        var t = tangents[sample.triangle] - n * simdDot(n, tangents[sample.triangle])
        let tl = simdLength(t)
        t = tl > 1e-6 ? t / tl : orthogonal(to: n)
        var b = bitangents[sample.triangle] - n * simdDot(n, bitangents[sample.triangle]) - t * simdDot(t, bitangents[sample.triangle])
        let bl = simdLength(b)
        // Keep the atlas's handedness: B on the side of n × t the UV layout puts it.
        let side: Float = simdDot(simdCross(n, t), bitangents[sample.triangle]) >= 0 ? 1 : -1
        b = bl > 1e-6 ? b / bl : simdCross(n, t) * side
        return (t, b, n)
    }

    private func orthogonal(to n: SIMD3<Float>) -> SIMD3<Float> {
        let helper: SIMD3<Float> = abs(n.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
        let t = helper - n * simdDot(n, helper)
        return t / simdLength(t)
    }
}
