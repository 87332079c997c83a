import ReconstructionCore

/// Cleanup steps on triangle meshes. Each returns a new mesh; per-vertex attributes (colours,
/// normals) follow their vertices.
extension TriangleMesh {
    /// The mesh without vertices that no triangle uses, triangles re-indexed (triangles with an
    /// out-of-range index are dropped).
    public func removingUnreferencedVertices() -> TriangleMesh {
        var used = [Bool](repeating: false, count: positions.count)
        let n = UInt32(positions.count)
        var valid = self
        valid.triangles = triangles.filter { $0.x < n && $0.y < n && $0.z < n }
        for t in valid.triangles {
            used[Int(t.x)] = true
            used[Int(t.y)] = true
            used[Int(t.z)] = true
        }
        return valid.keepingVertices(used)
    }

    /// The mesh with vertices at bit-identical positions merged into one (the first one's
    /// attributes are kept); triangles are re-indexed and may become degenerate. Triangles with an
    /// out-of-range index are dropped.
    public func weldingCoincidentVertices() -> TriangleMesh {
        var firstAt: [SIMD3<UInt32>: UInt32] = [:]
        firstAt.reserveCapacity(positions.count)
        var remap = [UInt32](repeating: 0, count: positions.count)
        var keep = [Bool](repeating: false, count: positions.count)
        for (i, p) in positions.enumerated() {
            // +0 turns -0 into 0 so both zeros weld.
            let key = SIMD3(p.x + 0, p.y + 0, p.z + 0)
            let bits = SIMD3(key.x.bitPattern, key.y.bitPattern, key.z.bitPattern)
            if let first = firstAt[bits] {
                remap[i] = first
            } else {
                firstAt[bits] = UInt32(i)
                remap[i] = UInt32(i)
                keep[i] = true
            }
        }
        var welded = self
        let n = UInt32(positions.count)
        welded.triangles = triangles.compactMap { t in
            t.x < n && t.y < n && t.z < n ? SIMD3(remap[Int(t.x)], remap[Int(t.y)], remap[Int(t.z)]) : nil
        }
        return welded.keepingVertices(keep)
    }

    /// The mesh without triangles that repeat a vertex index, use an out-of-range index or a
    /// non-finite corner, and without repeats of a triangle over the same three vertices (in any
    /// order; the first is kept). Zero-area triangles over three distinct vertices are kept:
    /// dropping them would open cracks in an otherwise closed surface.
    public func removingDegenerateTriangles() -> TriangleMesh {
        var seen = Set<SIMD3<UInt32>>()
        seen.reserveCapacity(triangles.count)
        var kept: [SIMD3<UInt32>] = []
        kept.reserveCapacity(triangles.count)
        let n = UInt32(positions.count)
        for t in triangles {
            guard t.x != t.y, t.y != t.z, t.x != t.z, t.x < n, t.y < n, t.z < n else { continue }
            let (a, b, c) = (positions[Int(t.x)], positions[Int(t.y)], positions[Int(t.z)])
            guard isFinite(a), isFinite(b), isFinite(c) else { continue }
            if seen.insert(sortedCorners(t)).inserted { kept.append(t) }
        }
        var mesh = self
        mesh.triangles = kept
        return mesh
    }

    /// The triangles whose three corners lie inside `box` (world, metres; faces included).
    public func cropped(to box: BoundingBox) -> TriangleMesh {
        let clip = BoxClip(box: box, margin: 0)
        var mesh = self
        mesh.triangles = triangles.filter { t in
            clip.contains(positions[Int(t.x)]) && clip.contains(positions[Int(t.y)]) && clip.contains(positions[Int(t.z)])
        }
        return mesh
    }

    /// The mesh cut at `plane`: triangles wholly behind it (negative side) removed, and the
    /// corners behind it of the triangles that cross it moved onto it along its normal, so the
    /// cut edge lies in the plane. Vertices no triangle uses any more are removed.
    public func clipped(below plane: Plane) -> TriangleMesh {
        var mesh = self
        mesh.triangles = triangles.filter { t in
            [t.x, t.y, t.z].contains { Int($0) < positions.count && plane.signedDistance(positions[Int($0)]) >= 0 }
        }
        mesh = mesh.removingUnreferencedVertices()
        mesh.positions = mesh.positions.map { plane.signedDistance($0) < 0 ? plane.projected($0) : $0 }
        return mesh
    }

    /// Connected components of the triangles (triangles sharing a vertex are connected): a
    /// component label per triangle, labels `0..<count`. Triangles must index existing vertices.
    public func triangleComponents() -> (labels: [Int], count: Int) {
        var parent = [Int32](0..<Int32(positions.count))
        var labels = [Int](repeating: 0, count: triangles.count)
        var count = 0
        parent.withUnsafeMutableBufferPointer { parent in
            @inline(__always) func find(_ i: Int32) -> Int32 {
                var root = i
                while parent[Int(root)] != root { root = parent[Int(root)] }
                var j = i
                while parent[Int(j)] != root {  // path compression
                    let next = parent[Int(j)]
                    parent[Int(j)] = root
                    j = next
                }
                return root
            }
            @inline(__always) func union(_ a: UInt32, _ b: UInt32) {
                let ra = find(Int32(a)), rb = find(Int32(b))
                if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
            }
            for t in triangles {
                union(t.x, t.y)
                union(t.y, t.z)
            }
            var labelOfRoot = [Int32](repeating: -1, count: positions.count)
            for (i, t) in triangles.enumerated() {
                let r = Int(find(Int32(t.x)))
                if labelOfRoot[r] < 0 {
                    labelOfRoot[r] = Int32(count)
                    count += 1
                }
                labels[i] = Int(labelOfRoot[r])
            }
        }
        return (labels, count)
    }

    /// Connected components of the triangles joined along edges (triangles meeting only at a
    /// vertex are apart): a label per triangle, labels `0..<count`.
    public func triangleComponentsByEdge() -> (labels: [Int], count: Int) {
        // Each triangle's three edges, sorted by their vertices: triangles sharing one are neighbours.
        var edges: [(key: UInt64, triangle: Int32)] = []
        edges.reserveCapacity(3 * triangles.count)
        for (i, t) in triangles.enumerated() {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                edges.append((UInt64(min(a, b)) << 32 | UInt64(max(a, b)), Int32(i)))
            }
        }
        edges.sort { $0.key < $1.key }
        var parent = [Int32](0..<Int32(triangles.count))
        func find(_ i: Int32) -> Int32 {
            var root = i
            while parent[Int(root)] != root { root = parent[Int(root)] }
            var j = i
            while parent[Int(j)] != root { (parent[Int(j)], j) = (root, parent[Int(j)]) }
            return root
        }
        for k in edges.indices.dropFirst() where edges[k].key == edges[k - 1].key {
            let a = find(edges[k].triangle), b = find(edges[k - 1].triangle)
            if a != b { parent[Int(max(a, b))] = min(a, b) }
        }
        var labelOfRoot = [Int](repeating: -1, count: triangles.count), labels = [Int](repeating: 0, count: triangles.count)
        var count = 0
        for i in triangles.indices {
            let r = Int(find(Int32(i)))
            if labelOfRoot[r] < 0 { (labelOfRoot[r], count) = (count, count + 1) }
            labels[i] = labelOfRoot[r]
        }
        return (labels, count)
    }

    /// The mesh without connected components whose size is below `minimumFraction` of the
    /// largest's, and how many components were removed.
    /// - Parameter byArea: measure components by surface area (true) or by triangle count (false).
    /// - Parameter alongEdges: components join along edges only (a piece hanging from the rest
    ///   by one vertex is apart); otherwise a shared vertex joins them.
    public func removingSmallComponents(minimumFraction: Double, byArea: Bool, alongEdges: Bool = false) -> (mesh: TriangleMesh, removedComponents: Int) {
        let (labels, count) = alongEdges ? triangleComponentsByEdge() : triangleComponents()
        guard count > 1 else { return (self, 0) }
        var size = [Double](repeating: 0, count: count)
        for (i, label) in labels.enumerated() { size[label] += byArea ? Double(area(of: i)) : 1 }
        let threshold = (size.max() ?? 0) * minimumFraction
        var mesh = self
        mesh.triangles = zip(triangles, labels).filter { size[$0.1] >= threshold }.map { $0.0 }
        return (mesh, size.filter { $0 < threshold }.count)
    }

    /// The mesh restricted to the vertices flagged in `keep` (triangles must use only kept vertices).
    func keepingVertices(_ keep: [Bool]) -> TriangleMesh {
        var newIndex = [UInt32](repeating: UInt32.max, count: positions.count)
        var mesh = TriangleMesh()
        let keepColors = hasColors, keepNormals = hasNormals
        for i in positions.indices where keep[i] {
            newIndex[i] = UInt32(mesh.positions.count)
            mesh.positions.append(positions[i])
            if keepColors { mesh.colors.append(colors[i]) }
            if keepNormals { mesh.normals.append(normals[i]) }
        }
        mesh.triangles = triangles.map { SIMD3(newIndex[Int($0.x)], newIndex[Int($0.y)], newIndex[Int($0.z)]) }
        return mesh
    }
}

@inline(__always)
func isFinite(_ p: SIMD3<Float>) -> Bool { p.x.isFinite && p.y.isFinite && p.z.isFinite }
