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

    /// Appends the skirt and cap of `loop` (in `boundaryLoops` order) to `mesh`; the number of
    /// triangles added to each, or nil (nothing added) when the loop, seen along the plane's
    /// normal, does not turn counter-clockwise (it does not open towards the plane's front).
    func close(_ loop: [UInt32], in mesh: inout TriangleMesh) -> (cap: Int, skirt: Int)? {
        let (u, v) = plane.basis
        let snap = 0.3 * edgeLength
        // The dropped polygon first, to check its orientation before touching the mesh.
        let dropped = loop.map { plane.projected(mesh.positions[Int($0)]) }
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
            let steps = max(1, Int((abs(drop) / edgeLength).rounded()))
            let colour = keepColours ? mesh.colors[Int(vertex)] : nil
            var column = [vertex]
            for k in 1...steps {
                let p = k == steps ? dropped[i] : top - drop * Float(k) / Float(steps) * plane.normal
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
}
