/// A triangulation in the plane refined towards a target edge length, for capping openings.
///
/// The first `fixedCount` points are the polygon's corners: they never move and the polygon's
/// edges (between consecutive corners) are never split, so the result still shares exactly the
/// opening's edges with the mesh it closes. Refinement repeats three steps until no edge is too
/// long: Delaunay edge flips (an interior edge is flipped when the opposite corner of one
/// triangle lies inside the other's circumcircle and the flip keeps both triangles positive),
/// splitting every interior edge longer than 4/3 of the target at its midpoint (longest first),
/// and again flips. Finally, inner points move a few times towards the mean of their neighbours
/// (a move that would fold a triangle is not made), followed by flips. The result has about
/// one vertex per 0.43 · target² of area and interior edges of 2/3…4/3 of the target, so later
/// decimation and texturing treat the cap like the rest of the surface.
struct PlanarTriangulation {
    private(set) var points: [SIMD2<Double>]
    private(set) var triangles: [SIMD3<Int32>]
    let fixedCount: Int
    /// Directed edge `a → b` (key `a << 32 | b`) → the triangle using it.
    private var owner: [Int64: Int32] = [:]

    /// Starts from a counter-clockwise triangulation `triangles` of the counter-clockwise polygon `polygon`.
    init(polygon: [SIMD2<Double>], triangles: [SIMD3<Int32>]) {
        points = polygon
        self.triangles = triangles
        fixedCount = polygon.count
        owner.reserveCapacity(triangles.count * 3)
        for (i, t) in triangles.enumerated() { register(t, as: Int32(i)) }
    }

    @inline(__always) private static func key(_ a: Int32, _ b: Int32) -> Int64 { Int64(a) << 32 | Int64(b) }

    private mutating func register(_ t: SIMD3<Int32>, as index: Int32) {
        owner[Self.key(t.x, t.y)] = index
        owner[Self.key(t.y, t.z)] = index
        owner[Self.key(t.z, t.x)] = index
    }

    private mutating func unregister(_ t: SIMD3<Int32>) {
        owner[Self.key(t.x, t.y)] = nil
        owner[Self.key(t.y, t.z)] = nil
        owner[Self.key(t.z, t.x)] = nil
    }

    /// Corner of triangle `t` opposite its edge `a → b`.
    @inline(__always) private static func opposite(_ t: SIMD3<Int32>, _ a: Int32, _ b: Int32) -> Int32 {
        t.x ^ t.y ^ t.z ^ a ^ b
    }

    /// Refines until interior edges are at most 4/3 of `targetEdgeLength`, or the triangulation
    /// holds `maximumPoints` points.
    mutating func refine(targetEdgeLength: Double, maximumPoints: Int, smoothingIterations: Int = 4) {
        guard targetEdgeLength > 0, targetEdgeLength.isFinite else { return }
        let longest = targetEdgeLength * 4 / 3
        flipToDelaunay()
        for _ in 0..<200 {
            var long: [(length: Double, a: Int32, b: Int32)] = []
            for t in triangles {
                for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] where a < b && owner[Self.key(b, a)] != nil {
                    let length = simdLengthSquared(points[Int(a)] - points[Int(b)])
                    if length > longest * longest { long.append((length, a, b)) }
                }
            }
            if long.isEmpty || points.count >= maximumPoints { break }
            long.sort { $0.length > $1.length }
            for edge in long where points.count < maximumPoints {
                split(edge.a, edge.b)
            }
            flipToDelaunay()
        }
        for _ in 0..<smoothingIterations { smooth() }
        flipToDelaunay()
    }

    /// Splits the interior edge `a – b` at its midpoint (nothing when it no longer exists).
    private mutating func split(_ a: Int32, _ b: Int32) {
        guard let t1 = owner[Self.key(a, b)], let t2 = owner[Self.key(b, a)] else { return }
        let c = Self.opposite(triangles[Int(t1)], a, b), d = Self.opposite(triangles[Int(t2)], b, a)
        let m = Int32(points.count)
        points.append((points[Int(a)] + points[Int(b)]) / 2)
        unregister(triangles[Int(t1)])
        unregister(triangles[Int(t2)])
        let replacements = [SIMD3(a, m, c), SIMD3(b, m, d)]
        let added = [SIMD3(m, b, c), SIMD3(m, a, d)]
        triangles[Int(t1)] = replacements[0]
        triangles[Int(t2)] = replacements[1]
        register(replacements[0], as: t1)
        register(replacements[1], as: t2)
        for t in added {
            triangles.append(t)
            register(t, as: Int32(triangles.count - 1))
        }
    }

    /// Flips interior edges until every one is locally Delaunay (bounded number of passes).
    private mutating func flipToDelaunay() {
        var stack: [(Int32, Int32)] = []
        for t in triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] where a < b { stack.append((a, b)) }
        }
        var budget = stack.count * 20 + 1000
        while let (a, b) = stack.popLast(), budget > 0 {
            budget -= 1
            guard let t1 = owner[Self.key(a, b)], let t2 = owner[Self.key(b, a)] else { continue }
            let c = Self.opposite(triangles[Int(t1)], a, b), d = Self.opposite(triangles[Int(t2)], b, a)
            guard c != d, owner[Self.key(c, d)] == nil, owner[Self.key(d, c)] == nil else { continue }
            let pa = points[Int(a)], pb = points[Int(b)], pc = points[Int(c)], pd = points[Int(d)]
            guard Self.inCircle(pa, pb, pc, pd) > 1e-12 * scale(pa, pb, pc, pd),
                  EarClipping.orientation(pa, pd, pc) > 0, EarClipping.orientation(pd, pb, pc) > 0 else { continue }
            unregister(triangles[Int(t1)])
            unregister(triangles[Int(t2)])
            triangles[Int(t1)] = SIMD3(a, d, c)
            triangles[Int(t2)] = SIMD3(d, b, c)
            register(triangles[Int(t1)], as: t1)
            register(triangles[Int(t2)], as: t2)
            stack.append((min(a, d), max(a, d)))
            stack.append((min(d, b), max(d, b)))
            stack.append((min(b, c), max(b, c)))
            stack.append((min(c, a), max(c, a)))
        }
    }

    /// Fourth power of the quad's size, the scale of `inCircle`'s determinant.
    private func scale(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Double {
        let s = max(simdLengthSquared(a - b), simdLengthSquared(c - d))
        return s * s
    }

    /// Positive when `d` lies inside the circumcircle of the counter-clockwise triangle `a, b, c`.
    private static func inCircle(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Double {
        let ad = a - d, bd = b - d, cd = c - d
        let a2 = simdLengthSquared(ad), b2 = simdLengthSquared(bd), c2 = simdLengthSquared(cd)
        return ad.x * (bd.y * c2 - b2 * cd.y) - ad.y * (bd.x * c2 - b2 * cd.x) + a2 * (bd.x * cd.y - bd.y * cd.x)
    }

    /// Moves every inner point halfway to the mean of its neighbours, unless that folds a triangle.
    private mutating func smooth() {
        guard points.count > fixedCount else { return }
        var neighbourSum = [SIMD2<Double>](repeating: .zero, count: points.count)
        var neighbourCount = [Int](repeating: 0, count: points.count)
        var incident = [[Int32]](repeating: [], count: points.count - fixedCount)
        for (i, t) in triangles.enumerated() {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                // Each undirected edge once from each side: count a's neighbour b via a → b.
                neighbourSum[Int(a)] += points[Int(b)]
                neighbourCount[Int(a)] += 1
                if owner[Self.key(b, a)] == nil {  // boundary edge: b would miss a
                    neighbourSum[Int(b)] += points[Int(a)]
                    neighbourCount[Int(b)] += 1
                }
            }
            for v in [t.x, t.y, t.z] where Int(v) >= fixedCount { incident[Int(v) - fixedCount].append(Int32(i)) }
        }
        for v in fixedCount..<points.count where neighbourCount[v] > 0 {
            let old = points[v]
            points[v] = (old + neighbourSum[v] / Double(neighbourCount[v])) / 2
            let folds = incident[v - fixedCount].contains { i in
                let t = triangles[Int(i)]
                return EarClipping.orientation(points[Int(t.x)], points[Int(t.y)], points[Int(t.z)]) <= 0
            }
            if folds { points[v] = old }
        }
    }
}

@inline(__always)
func simdLengthSquared(_ v: SIMD2<Double>) -> Double { v.x * v.x + v.y * v.y }
