import Foundation
import ReconstructionCore

/// Closes one boundary loop on a plane: a skirt from the loop down to the plane, and a refined
/// planar cap (see `OpeningClosure`).
struct CapBuilder {
    /// The cap plane; its normal points out of the surface being closed.
    let plane: Plane
    /// Target edge length, metres.
    let edgeLength: Float
    /// Most vertices the cap may add.
    let maximumVertices: Int
    /// Whether the depth maps show a point empty; nil: the skirt drops straight onto the plane.
    var showsEmpty: (@Sendable (SIMD3<Float>) -> Bool)? = nil
    /// Farthest a skirt's foot is drawn in, as a fraction of its distance to the loop's centre.
    var maximumPullFraction: Float = 0.5
    /// Close only if some foot is drawn in (a rim higher than straight skirts may go).
    var requiresDrawIn = false

    /// Appends the skirt and cap of `loop` (in `boundaryLoops` order) to `mesh`; the number of
    /// triangles added to each, or nil (nothing added) when the loop, seen along the plane's
    /// normal, does not turn counter-clockwise (it does not open towards the plane's front), or
    /// when `requiresDrawIn` and no foot was drawn in.
    func close(_ loop: [UInt32], in mesh: inout TriangleMesh) -> (cap: Int, skirt: Int)? {
        let (u, v) = plane.basis
        let snap = 0.3 * edgeLength
        // The dropped polygon first, to check its orientation before touching the mesh.
        let (dropped, drawnIn) = feet(of: loop.map { mesh.positions[Int($0)] }, snap: snap)
        if requiresDrawIn && !drawnIn { return nil }
        let polygon = dropped.map { SIMD2<Double>(Double(simdDot($0, u)), Double(simdDot($0, v))) }
        guard EarClipping.signedArea2(polygon) > 0 else { return nil }

        let keepColours = mesh.hasColors, keepNormals = mesh.hasNormals
        func addVertex(_ p: SIMD3<Float>, colour: SIMD3<Float>?) -> UInt32 {
            mesh.positions.append(p)
            if keepColours { mesh.colors.append(colour ?? SIMD3(repeating: 0.5)) }
            if keepNormals { mesh.normals.append(plane.normal) }
            return UInt32(mesh.positions.count - 1)
        }

        // Columns: each loop vertex and its copies stepping down to the plane.
        var columns: [[UInt32]] = []
        columns.reserveCapacity(loop.count)
        for (i, vertex) in loop.enumerated() {
            let top = mesh.positions[Int(vertex)]
            let drop = plane.signedDistance(top)  // negative: the vertex is behind the plane
            guard abs(drop) > snap else {
                columns.append([vertex])
                continue
            }
            let steps = max(1, Int((simdLength(dropped[i] - top) / edgeLength).rounded()))
            let colour = keepColours ? mesh.colors[Int(vertex)] : nil
            var column = [vertex]
            for k in 1...steps {
                let p = k == steps ? dropped[i] : top + Float(k) / Float(steps) * (dropped[i] - top)
                column.append(addVertex(p, colour: colour))
            }
            columns.append(column)
        }

        // Skirt strips between neighbouring columns: the first triangle uses loop[i] → loop[i + 1],
        // the last leaves bottom[i] → bottom[i + 1] for the cap.
        var skirt = 0
        for i in columns.indices {
            let left = columns[i], right = columns[(i + 1) % columns.count]
            var a = 0, b = 0
            while a < left.count - 1 || b < right.count - 1 {
                let advanceRight: Bool
                if a == left.count - 1 {
                    advanceRight = true
                } else if b == right.count - 1 {
                    advanceRight = false
                } else {
                    let toNextRight = simdLength(mesh.positions[Int(left[a])] - mesh.positions[Int(right[b + 1])])
                    let toNextLeft = simdLength(mesh.positions[Int(left[a + 1])] - mesh.positions[Int(right[b])])
                    advanceRight = toNextRight <= toNextLeft
                }
                if advanceRight {
                    mesh.triangles.append(SIMD3(left[a], right[b], right[b + 1]))
                    b += 1
                } else {
                    mesh.triangles.append(SIMD3(left[a], right[b], left[a + 1]))
                    a += 1
                }
                skirt += 1
            }
        }

        // The cap over the bottoms of the columns.
        let bottoms = columns.map { $0.last! }
        var triangulation = PlanarTriangulation(polygon: polygon, triangles: EarClipping.triangulate(polygon))
        triangulation.refine(targetEdgeLength: Double(edgeLength), maximumPoints: polygon.count + maximumVertices)
        var meanColour: SIMD3<Float>?
        if keepColours {
            meanColour = loop.reduce(SIMD3<Float>.zero) { $0 + mesh.colors[Int($1)] } / Float(loop.count)
        }
        var index = bottoms
        let origin = plane.normal * plane.offset
        for p in triangulation.points.dropFirst(polygon.count) {
            index.append(addVertex(origin + Float(p.x) * u + Float(p.y) * v, colour: meanColour))
        }
        for t in triangulation.triangles {
            mesh.triangles.append(SIMD3(index[Int(t.x)], index[Int(t.y)], index[Int(t.z)]))
        }
        return (triangulation.triangles.count, skirt)
    }

    /// Where each of the loop's points (`tops`) meets the plane, and whether any foot was drawn
    /// in. Straight below it, unless `showsEmpty` finds the skirt's lower part there in space the
    /// depth maps saw through (a surface that overhangs a narrower foot, such as a vase's belly
    /// above its base): then the foot is drawn in towards the loop's centre, an edge length at a
    /// time (at most `maximumPullFraction` of the way), until that part (the skirt's point four
    /// edge lengths above the plane, or halfway down for a shorter drop) is no longer shown empty.
    ///
    /// The drawn-in outline is then made star-shaped about the centre, so it never crosses
    /// itself: its distances from the centre are smoothed along the loop (a running median of 9,
    /// which on a ragged rim puts high and low vertices on the same foot), never beyond straight
    /// below, stepping in by at most an edge length per vertex (`limitSteps`), and its angles
    /// never turn back (`spreadBackwardSteps`). Feet on the plane already stay where they are.
    /// Should the outline still cross itself more often than the one straight below, turn
    /// clockwise, or the loop not wind once around its centre, the feet stay straight below.
    func feet(of tops: [SIMD3<Float>], snap: Float) -> (feet: [SIMD3<Float>], drawnIn: Bool) {
        let below = tops.map { plane.projected($0) }
        guard let showsEmpty, below.count >= 3 else { return (below, false) }
        let centre = below.reduce(SIMD3<Float>.zero, +) / Float(below.count)
        let (u, v) = plane.basis
        let onPlane = tops.map { abs(plane.signedDistance($0)) <= snap }
        let reaches = below.map { simdLength(centre - $0) }
        let pullFraction = min(max(maximumPullFraction, 0), 0.9)
        var pulled = false
        let radii = tops.indices.map { i -> Float in
            let reach = reaches[i]
            guard !onPlane[i], reach > 0 else { return reach }
            let drop = -plane.signedDistance(tops[i])
            let height = min(0.5 * drop, 4 * edgeLength)
            let inward = (centre - below[i]) / reach
            var pull: Float = 0
            let farthest = pullFraction * reach
            while pull < farthest {
                let foot = below[i] + pull * inward
                if !showsEmpty(foot + (height / drop) * (tops[i] - foot)) { break }
                pull = min(farthest, pull + edgeLength)
            }
            if pull > 0 { pulled = true }
            return reach - pull
        }
        guard pulled, var angles = Self.unwrappedAngles(below, centre: centre, u: u, v: v) else { return (below, false) }
        var smoothed = Self.runningMedian(radii, radius: 4)
        for i in smoothed.indices { smoothed[i] = onPlane[i] ? reaches[i] : min(smoothed[i], reaches[i]) }
        Self.limitSteps(&smoothed, to: edgeLength)
        for i in smoothed.indices { smoothed[i] = min(smoothed[i], reaches[i]) }
        Self.spreadBackwardSteps(angles: &angles, radii: &smoothed)
        let feet = below.indices.map { i -> SIMD3<Float> in
            if onPlane[i] { return below[i] }
            return centre + smoothed[i] * (cos(angles[i]) * u + sin(angles[i]) * v)
        }
        let flat = { (points: [SIMD3<Float>]) in points.map { SIMD2<Double>(Double(simdDot($0, u)), Double(simdDot($0, v))) } }
        let outline = flat(feet)
        guard EarClipping.signedArea2(outline) > 0, EarClipping.crossings(outline) <= EarClipping.crossings(flat(below)) else {
            return (below, false)
        }
        return (feet, true)
    }

    /// The points' angles about `centre` in the plane's basis, unwrapped along the loop; nil
    /// unless the loop winds once counter-clockwise around the centre.
    static func unwrappedAngles(_ points: [SIMD3<Float>], centre: SIMD3<Float>, u: SIMD3<Float>, v: SIMD3<Float>) -> [Float]? {
        var angles: [Float] = []
        angles.reserveCapacity(points.count)
        for p in points {
            let d = p - centre
            let angle = atan2(simdDot(d, v), simdDot(d, u))
            guard let last = angles.last else { angles.append(angle); continue }
            var step = angle - last
            step -= 2 * .pi * (step / (2 * .pi)).rounded()
            angles.append(last + step)
        }
        guard let first = angles.first, let last = angles.last else { return nil }
        var closing = first - last
        closing -= 2 * .pi * (closing / (2 * .pi)).rounded()
        return abs(last + closing - first - 2 * .pi) < 0.1 ? angles : nil
    }

    /// Makes a loop's unwrapped angles (`angles[0]` first, one turn) strictly increasing and below
    /// `angles[0] + 2π`: where the loop steps back (or past the first vertex's angle a turn on),
    /// the vertices up to the next one beyond the angle already reached are spread evenly, in
    /// angle and in radius, between the two vertices around them (stacking them at one angle
    /// would leave slivers that the cap's refinement spends seconds on).
    static func spreadBackwardSteps(angles: inout [Float], radii: inout [Float]) {
        let n = angles.count
        guard n > 1 else { return }
        let turn = angles[0] + 2 * .pi
        var last = 0  // the last vertex that reached a new angle
        var i = 1
        while i <= n {
            if i < n, angles[i] > angles[last], angles[i] < turn {
                last = i
                i += 1
                continue
            }
            // Vertices last+1 ..< next stepped back; next reaches beyond (or is the first again).
            var next = i
            while next < n, angles[next] <= angles[last] || angles[next] >= turn { next += 1 }
            let endAngle = next < n ? angles[next] : turn
            let endRadius = next < n ? radii[next] : radii[0]
            let span = Float(next - last)
            for k in (last + 1)..<next {
                let t = Float(k - last) / span
                angles[k] = angles[last] + t * (endAngle - angles[last])
                radii[k] = radii[last] + t * (endRadius - radii[last])
            }
            if next >= n { break }
            last = next
            i = next + 1
        }
    }

    /// Raises values around a closed loop until neighbours differ by at most `step` (the least
    /// upper envelope with that slope): the drawn-in outline steps in by at most an edge length
    /// per vertex, so no side of the cap grows long enough to leave slivers its refinement
    /// cannot split (a side over twice the longest edge it aims for).
    static func limitSteps(_ values: inout [Float], to step: Float) {
        let n = values.count
        guard n > 1 else { return }
        for _ in 0..<2 {
            for i in 0..<n { values[i] = max(values[i], values[(i + n - 1) % n] - step) }
            for i in stride(from: n - 1, through: 0, by: -1) { values[i] = max(values[i], values[(i + 1) % n] - step) }
        }
    }

    /// The median of each value and its `radius` neighbours either side, around a closed loop.
    static func runningMedian(_ values: [Float], radius: Int) -> [Float] {
        guard values.count > 2 * radius else { return values }
        return values.indices.map { i in
            let window = (-radius...radius).map { values[(i + $0 + values.count) % values.count] }.sorted()
            return window[radius]
        }
    }
}
