/// Top-down construction of a `SurfaceDistanceIndex` hierarchy: each node splits its primitives
/// at the median of their box centres along the centres' longest axis (always a balanced split,
/// so depth ≤ log2(n) + 1 even for repeated points).
enum BVHBuilder {
    /// The nodes (depth-first, left child next to its parent) and the primitives' vertices in
    /// leaf order.
    /// - Parameters:
    ///   - vertices: `stride` consecutive vertices per primitive (3 for triangles, 1 for points).
    static func build(_ vertices: [SIMD3<Float>], stride: Int, leafSize: Int)
        -> (nodes: [SurfaceDistanceIndex.Node], vertices: [SIMD3<Float>])
    {
        let count = vertices.count / stride
        guard count > 0 else { return ([], []) }
        var nodes: [SurfaceDistanceIndex.Node] = []
        nodes.reserveCapacity(2 * (count + leafSize - 1) / leafSize + 1)
        var references = [Reference](repeating: Reference(lower: .zero, upper: .zero, index: 0), count: count)
        vertices.withUnsafeBufferPointer { v in
            references.withUnsafeMutableBufferPointer { references in
                for i in 0..<count {
                    var lower = v[stride * i], upper = lower
                    for k in 1..<stride {
                        lower = minimum(lower, v[stride * i + k])
                        upper = maximum(upper, v[stride * i + k])
                    }
                    references[i] = Reference(lower: lower, upper: upper, index: Int32(i))
                }
                Context(leafSize: leafSize, references: references).build(0, count, into: &nodes)
            }
        }
        var ordered: [SIMD3<Float>] = []
        ordered.reserveCapacity(vertices.count)
        for reference in references {
            for k in 0..<stride { ordered.append(vertices[Int(reference.index) * stride + k]) }
        }
        return (nodes, ordered)
    }

    /// A primitive's bounding box and index, moved as the primitives are partitioned so every
    /// pass over a node's primitives reads memory in order.
    struct Reference {
        var lower: SIMD3<Float>
        var upper: SIMD3<Float>
        var index: Int32
    }

    private struct Context {
        let leafSize: Int
        /// Primitive boxes, permuted into leaf order as the tree is built.
        let references: UnsafeMutableBufferPointer<Reference>

        /// Appends the subtree over `references[start..<end]` to `nodes`.
        func build(_ start: Int, _ end: Int, into nodes: inout [SurfaceDistanceIndex.Node]) {
            var lower = SIMD3<Float>(repeating: .infinity), upper = SIMD3<Float>(repeating: -.infinity)
            var centreLower = lower, centreUpper = upper
            for i in start..<end {
                let r = references[i]
                lower = minimum(lower, r.lower)
                upper = maximum(upper, r.upper)
                let centre = r.lower + r.upper  // twice the centre; only compared
                centreLower = minimum(centreLower, centre)
                centreUpper = maximum(centreUpper, centre)
            }
            let index = nodes.count
            let count = end - start
            if count <= leafSize {
                nodes.append(.init(lower: lower, upper: upper, first: Int32(start), count: Int32(count)))
                return
            }
            nodes.append(.init(lower: lower, upper: upper, first: 0, count: 0))
            let extent = centreUpper - centreLower
            let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
            let middle = (start + end) / 2
            select(start, end, middle, axis: axis)
            build(start, middle, into: &nodes)
            nodes[index].first = Int32(nodes.count)
            build(middle, end, into: &nodes)
        }

        /// Reorders `references[start..<end]` so the element at `k` is the one a sort by box
        /// centre along `axis` would put there, with no larger key before it and no smaller after
        /// (quickselect with Hoare partitioning and a median-of-three pivot).
        func select(_ start: Int, _ end: Int, _ k: Int, axis: Int) {
            var lo = start, hi = end - 1
            while hi > lo {
                let a = key(lo, axis), b = key((lo + hi) / 2, axis), c = key(hi, axis)
                let pivot = max(min(a, b), min(max(a, b), c))
                var i = lo, j = hi
                while i <= j {
                    while key(i, axis) < pivot { i += 1 }
                    while key(j, axis) > pivot { j -= 1 }
                    if i <= j {
                        references.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j {
                    hi = j
                } else if k >= i {
                    lo = i
                } else {
                    return
                }
            }
        }

        @inline(__always)
        func key(_ position: Int, _ axis: Int) -> Float {
            let r = references[position]
            return axis == 0 ? r.lower.x + r.upper.x : (axis == 1 ? r.lower.y + r.upper.y : r.lower.z + r.upper.z)
        }
    }

    @inline(__always)
    static func minimum(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(min(a.x, b.x), min(a.y, b.y), min(a.z, b.z))
    }

    @inline(__always)
    static func maximum(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(max(a.x, b.x), max(a.y, b.y), max(a.z, b.z))
    }
}
