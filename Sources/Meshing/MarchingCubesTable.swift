import ReconstructionCore

/// The marching-cubes case table, derived at first use from the cube's geometry rather than typed in.
///
/// Corner `c` of a cube sits at offset `(c & 1, (c >> 1) & 1, (c >> 2) & 1)`. Edge `e` joins
/// corner `edgeStart[e]` to the corner one step along axis `edgeAxis[e]`. A corner is inside
/// when its signed distance is negative; case `k` has bit `c` set for each inside corner.
///
/// Derivation: on each of the six faces, the surface crosses the face along segments joining
/// the crossed face edges (two crossings: one segment; four crossings, the ambiguous saddle:
/// each inside corner is cut off by its own segment). Because a face's segments depend only on
/// that face's four corners, two cubes sharing a face agree on them, so the surface is closed.
/// Each segment is directed so that, seen from outside the cube, the positive side is on its
/// left; chained, the segments form loops that run counter-clockwise seen from the positive
/// (outside) side, and each loop is triangulated as a fan whose diagonals stay off the faces.
enum MarchingCubesTable {
    /// First corner of each edge (the one with the lower coordinate along the edge).
    static let edgeStart: [Int] = (0..<12).map { e in
        let axis = e / 4, k = e % 4  // the other two bits of the start corner, in increasing bit order
        let others = [0, 1, 2].filter { $0 != axis }
        return ((k & 1) << others[0]) | (((k >> 1) & 1) << others[1])
    }

    /// Axis (0 = x, 1 = y, 2 = z) of each edge.
    static let edgeAxis: [Int] = (0..<12).map { $0 / 4 }

    /// For each of the 256 cases, triangles as triples of edge indices, counter-clockwise seen
    /// from outside (positive side).
    static let triangles: [[SIMD3<UInt8>]] = (0..<256).map(trianglesForCase)

    /// Index of the edge joining two corners that differ in one bit.
    private static func edge(between a: Int, _ b: Int) -> Int {
        let low = min(a, b), axis = (a ^ b).trailingZeroBitCount
        return (0..<12).first { edgeStart[$0] == low && edgeAxis[$0] == axis }!
    }

    private static func corner(_ c: Int) -> SIMD3<Float> {
        SIMD3(Float(c & 1), Float((c >> 1) & 1), Float((c >> 2) & 1))
    }

    private static func midpoint(ofEdge e: Int) -> SIMD3<Float> {
        var p = corner(edgeStart[e])
        p[edgeAxis[e]] = 0.5
        return p
    }

    private static func trianglesForCase(_ inside: Int) -> [SIMD3<UInt8>] {
        let isInside = { (c: Int) in (inside >> c) & 1 == 1 }
        var next = [Int](repeating: -1, count: 12)  // directed segment: edge → following edge
        for axis in 0..<3 {
            for side in 0..<2 {
                let u = (axis + 1) % 3, v = (axis + 2) % 3
                let base = side << axis
                // Face corners in cyclic order.
                let cycle = [base, base | (1 << u), base | (1 << u) | (1 << v), base | (1 << v)]
                let faceEdges = (0..<4).map { edge(between: cycle[$0], cycle[($0 + 1) % 4]) }
                let crossed = (0..<4).filter { isInside(cycle[$0]) != isInside(cycle[($0 + 1) % 4]) }
                var segments: [(Int, Int)] = []
                if crossed.count == 2 {
                    segments = [(faceEdges[crossed[0]], faceEdges[crossed[1]])]
                } else if crossed.count == 4 {
                    // Saddle: cut off each inside corner (its two adjacent face edges).
                    for k in 0..<4 where isInside(cycle[k]) {
                        segments.append((faceEdges[(k + 3) % 4], faceEdges[k]))
                    }
                }
                var outward = SIMD3<Float>(repeating: 0)
                outward[axis] = side == 0 ? -1 : 1
                for (e1, e2) in segments {
                    let a = midpoint(ofEdge: e1), b = midpoint(ofEdge: e2)
                    let startCorner = edgeStart[e1], endCorner = startCorner | (1 << edgeAxis[e1])
                    let positiveCorner = corner(isInside(startCorner) ? endCorner : startCorner)
                    let forward = simdDot(simdCross(outward, b - a), positiveCorner - a) > 0
                    let (from, to) = forward ? (e1, e2) : (e2, e1)
                    precondition(next[from] == -1, "marching cubes table: edge \(from) leaves twice in case \(inside)")
                    next[from] = to
                }
            }
        }
        var result: [SIMD3<UInt8>] = []
        var visited = [Bool](repeating: false, count: 12)
        for start in 0..<12 where next[start] >= 0 && !visited[start] {
            var loop: [Int] = []
            var e = start
            while !visited[e] {
                visited[e] = true
                loop.append(e)
                e = next[e]
                precondition(e >= 0, "marching cubes table: open loop in case \(inside)")
            }
            precondition(e == start, "marching cubes table: loops merge in case \(inside)")
            result += triangulate(loop, inCase: inside)
        }
        return result
    }

    /// Whether two edges lie on a common cube face.
    private static func shareFace(_ a: Int, _ b: Int) -> Bool {
        let faces = { (e: Int) in
            [0, 1, 2].filter { $0 != edgeAxis[e] }.map { axis in 2 * axis + ((edgeStart[e] >> axis) & 1) }
        }
        return !Set(faces(a)).isDisjoint(with: faces(b))
    }

    /// Fan triangulation of a loop of edge points. A diagonal between two points on one face
    /// (possible on a saddle face whose two segments belong to the same loop) would lie on that
    /// face and could be repeated by the neighbouring cube, making a non-manifold edge, so the fan's
    /// apex is chosen so that no diagonal joins two points of a face; among such apexes, the one
    /// whose smallest triangle (on the edge midpoints) is largest.
    private static func triangulate(_ loop: [Int], inCase inside: Int) -> [SIMD3<UInt8>] {
        let n = loop.count
        var best: (apex: Int, quality: Float)? = nil
        for apex in 0..<n {
            let diagonalsAllowed = (2..<max(2, n - 1)).allSatisfy { j in !shareFace(loop[apex], loop[(apex + j) % n]) }
            guard diagonalsAllowed else { continue }
            var quality = Float.infinity
            for j in 1..<(n - 1) {
                let a = midpoint(ofEdge: loop[apex]), b = midpoint(ofEdge: loop[(apex + j) % n])
                let c = midpoint(ofEdge: loop[(apex + j + 1) % n])
                quality = min(quality, simdLength(simdCross(b - a, c - a)))
            }
            if best == nil || quality > best!.quality + 1e-6 { best = (apex, quality) }
        }
        guard let apex = best?.apex else {
            preconditionFailure("marching cubes table: no manifold fan for a loop of \(n) in case \(inside)")
        }
        return (1..<(n - 1)).map { j in
            SIMD3(UInt8(loop[apex]), UInt8(loop[(apex + j) % n]), UInt8(loop[(apex + j + 1) % n]))
        }
    }
}
