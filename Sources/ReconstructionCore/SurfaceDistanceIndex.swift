/// Nearest-point queries against a fixed set of triangles or points: a bounding-volume hierarchy
/// (median split on the longest axis, up to 4 primitives per leaf) searched nearest-box first.
///
/// Distances are exact Euclidean distances to the triangles (or points), in the primitives' unit
/// (metres for world geometry). Primitives with a non-finite coordinate are left out.
/// Build cost O(n log n); a query near the surface visits O(log n) boxes. Queries far from the
/// surface (relative to its size) cost more, since many boxes are then about equally near.
public struct SurfaceDistanceIndex: Sendable {
    /// A box of the hierarchy (32 bytes, two per cache line). A leaf has `count > 0` primitives
    /// from `first`; an inner node's children are the next node and node `first`.
    struct Node {
        var lowerX: Float, lowerY: Float, lowerZ: Float
        var first: Int32
        var upperX: Float, upperY: Float, upperZ: Float
        var count: Int32

        init(lower: SIMD3<Float>, upper: SIMD3<Float>, first: Int32, count: Int32) {
            (lowerX, lowerY, lowerZ) = (lower.x, lower.y, lower.z)
            (upperX, upperY, upperZ) = (upper.x, upper.y, upper.z)
            self.first = first
            self.count = count
        }

        /// Squared distance from `p` to the box (0 inside).
        @inline(__always)
        func distance2(_ p: SIMD3<Float>) -> Float {
            let dx = max(lowerX - p.x, 0, p.x - upperX)
            let dy = max(lowerY - p.y, 0, p.y - upperY)
            let dz = max(lowerZ - p.z, 0, p.z - upperZ)
            return dx * dx + dy * dy + dz * dz
        }
    }

    enum Kind { case triangles, points }

    let kind: Kind
    let nodes: [Node]
    /// Triangle corners (3 per triangle) or points, in leaf order.
    let vertices: [SIMD3<Float>]

    /// Most primitives in a leaf.
    static let leafSize = 4

    /// The number of triangles or points indexed.
    public var primitiveCount: Int { kind == .triangles ? vertices.count / 3 : vertices.count }
    public var isEmpty: Bool { vertices.isEmpty }

    /// Indexes the triangles of `mesh`.
    public init(mesh: TriangleMesh) {
        var corners: [SIMD3<Float>] = []
        corners.reserveCapacity(mesh.triangleCount * 3)
        let n = UInt32(mesh.positions.count)
        for t in mesh.triangles where t.x < n && t.y < n && t.z < n {
            let a = mesh.positions[Int(t.x)], b = mesh.positions[Int(t.y)], c = mesh.positions[Int(t.z)]
            guard Self.isFinite(a), Self.isFinite(b), Self.isFinite(c) else { continue }
            corners.append(a)
            corners.append(b)
            corners.append(c)
        }
        self.init(kind: .triangles, primitiveVertices: corners)
    }

    /// Indexes a set of points (nearest-neighbour distance).
    public init(points: [SIMD3<Float>]) {
        self.init(kind: .points, primitiveVertices: points.filter(Self.isFinite))
    }

    private init(kind: Kind, primitiveVertices: [SIMD3<Float>]) {
        self.kind = kind
        let (nodes, vertices) = BVHBuilder.build(primitiveVertices, stride: kind == .triangles ? 3 : 1,
                                                 leafSize: Self.leafSize)
        self.nodes = nodes
        self.vertices = vertices
    }

    @inline(__always)
    static func isFinite(_ p: SIMD3<Float>) -> Bool { p.x.isFinite && p.y.isFinite && p.z.isFinite }

    /// The indexed point nearest to `query` and its distance, or nil when the index is empty.
    public func closestPoint(to query: SIMD3<Float>) -> (point: SIMD3<Float>, distance: Float)? {
        guard !isEmpty else { return nil }
        return withSearch { search in
            let (point, distance2) = search.nearest(query)
            return (point, distance2.squareRoot())
        }
    }

    /// Distance from `query` to the nearest indexed triangle or point; +∞ when the index is empty.
    public func distance(to query: SIMD3<Float>) -> Float {
        closestPoint(to: query)?.distance ?? .infinity
    }

    /// Distances from every query point to the nearest indexed triangle or point (+∞ when the
    /// index is empty, NaN for a non-finite query), on up to `workers` threads, in query order.
    ///
    /// Queries are visited in a space-filling-curve order, each search starting from the previous
    /// query's nearest point, so neighbouring queries share cached boxes and prune early.
    public func distances(from queries: [SIMD3<Float>], workers: Int) -> [Float] {
        guard !isEmpty else { return [Float](repeating: .infinity, count: queries.count) }
        let order = SpatialOrder.indices(of: queries)
        let chunk = 4096
        let chunkCount = (order.count + chunk - 1) / chunk
        let parts = parallelMap(chunkCount, workers: workers) { c -> [Float] in
            let range = (c * chunk)..<min(order.count, (c + 1) * chunk)
            return withSearch { search in
                queries.withUnsafeBufferPointer { q in
                    var previous = SIMD3<Float>(repeating: .nan)
                    return range.map { k in
                        let p = q[Int(order[k])]
                        guard Self.isFinite(p) else { return .nan }
                        let (nearest, distance2) = search.nearest(p, upperBoundPoint: previous)
                        previous = nearest
                        return distance2.squareRoot()
                    }
                }
            }
        }
        var result = [Float](repeating: .nan, count: queries.count)
        var k = 0
        for part in parts {
            for d in part {
                result[Int(order[k])] = d
                k += 1
            }
        }
        return result
    }

    /// Runs `body` with a search over this index's buffers (valid only inside `body`).
    private func withSearch<R>(_ body: (inout Search) -> R) -> R {
        nodes.withUnsafeBufferPointer { nodeBuffer in
            vertices.withUnsafeBufferPointer { vertexBuffer in
                withUnsafeTemporaryAllocation(of: Search.Entry.self, capacity: Search.stackCapacity) { stack in
                    var search = Search(nodes: nodeBuffer, vertices: vertexBuffer, triangles: kind == .triangles,
                                        stack: stack)
                    return body(&search)
                }
            }
        }
    }
}

extension SurfaceDistanceIndex {
    /// Nearest-primitive search over raw buffers, nearer child first, pruning boxes no nearer
    /// than the best distance so far.
    struct Search {
        struct Entry {
            var node: Int32
            var distance2: Float
        }

        /// Enough for any tree the builder makes (depth ≤ log2(n) + 2).
        static let stackCapacity = 128

        let nodes: UnsafeBufferPointer<Node>
        let vertices: UnsafeBufferPointer<SIMD3<Float>>
        let triangles: Bool
        let stack: UnsafeMutableBufferPointer<Entry>

        /// Nearest point of the primitives to `p` and its squared distance (index non-empty).
        /// - Parameter upperBoundPoint: a point known to lie on the primitives (or NaN): its
        ///   distance starts the search as the best so far.
        @inline(__always)
        func nearest(_ p: SIMD3<Float>, upperBoundPoint: SIMD3<Float> = SIMD3(repeating: .nan))
            -> (point: SIMD3<Float>, distance2: Float)
        {
            var best = upperBoundPoint
            var bestDistance2 = simdDot(p - best, p - best)
            if !(bestDistance2 < .infinity) {  // NaN or ∞: no usable bound
                bestDistance2 = .infinity
                best = SIMD3(repeating: .nan)
            }
            let base = nodes.baseAddress!, corners = vertices.baseAddress!
            stack[0] = Entry(node: 0, distance2: base[0].distance2(p))
            var top = 1
            while top > 0 {
                top -= 1
                let entry = stack[top]
                if entry.distance2 >= bestDistance2 { continue }
                var index = Int(entry.node)
                while true {
                    let node = base[index]
                    if node.count > 0 {
                        let first = Int(node.first), end = first + Int(node.count)
                        if triangles {
                            for t in first..<end {
                                let q = closestPointOnTriangle(to: p, corners[3 * t], corners[3 * t + 1],
                                                               corners[3 * t + 2])
                                let d2 = simdDot(p - q, p - q)
                                if d2 < bestDistance2 {
                                    bestDistance2 = d2
                                    best = q
                                }
                            }
                        } else {
                            for i in first..<end {
                                let d2 = simdDot(p - corners[i], p - corners[i])
                                if d2 < bestDistance2 {
                                    bestDistance2 = d2
                                    best = corners[i]
                                }
                            }
                        }
                        break
                    }
                    let left = index + 1, right = Int(node.first)
                    let dLeft = base[left].distance2(p), dRight = base[right].distance2(p)
                    let nearLeft = dLeft <= dRight
                    let near = nearLeft ? left : right, dNear = nearLeft ? dLeft : dRight
                    let far = nearLeft ? right : left, dFar = nearLeft ? dRight : dLeft
                    if dFar < bestDistance2 {
                        stack[top] = Entry(node: Int32(far), distance2: dFar)
                        top += 1
                    }
                    if dNear >= bestDistance2 { break }
                    index = near
                }
            }
            return (best, bestDistance2)
        }
    }
}
