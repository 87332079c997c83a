import ReconstructionCore

/// Visibility at a grid of sample positions: the nearest triangle and its inverse depth.
///
/// Sample (i, j) sits at pixel coordinates ((i + 0.5) / s, (j + 0.5) / s) for `s` samples per pixel
/// along each axis, so with s = 1 samples are pixel centres.
struct SampleBuffer {
    let width: Int
    let height: Int
    let samplesPerPixel: Int
    /// 1 / depth (1/metres) of the nearest surface; 0 where empty.
    var inverseDepth: [Float]
    /// Index of the nearest triangle; −1 where empty.
    var triangle: [Int32]

    init(width: Int, height: Int, samplesPerPixel: Int) {
        self.width = width
        self.height = height
        self.samplesPerPixel = samplesPerPixel
        inverseDepth = [Float](repeating: 0, count: width * height)
        triangle = [Int32](repeating: -1, count: width * height)
    }
}

/// Scan conversion of triangles into a `SampleBuffer` with a z-buffer.
///
/// Edge functions are evaluated in doubles from coefficients that depend only on the edge (not on
/// the triangle), and a sample on a shared edge belongs to exactly one of its two triangles, so
/// meshes render without cracks or double hits. Triangles crossing the near plane are clipped.
enum TriangleRasterization {
    /// Draws every triangle of a mesh whose camera-frame vertices are `view.cameraVertices`.
    static func rasterize(
        _ triangles: [SIMD3<UInt32>], view: CameraView, samplesPerPixel s: Int,
        nearPlane: Double, cullBackFaces: Bool
    ) -> SampleBuffer {
        var buffer = SampleBuffer(width: view.width * s, height: view.height * s, samplesPerPixel: s)
        let scale = Double(s)
        let fx = view.fx * scale, fy = view.fy * scale, cx = view.cx * scale, cy = view.cy * scale
        let target = ScreenTarget(width: buffer.width, height: buffer.height)
        buffer.inverseDepth.withUnsafeMutableBufferPointer { depth in
            buffer.triangle.withUnsafeMutableBufferPointer { ids in
                view.cameraVertices.withUnsafeBufferPointer { vertices in
                    triangles.withUnsafeBufferPointer { tris in
                        for index in 0..<tris.count {
                            let t = tris[index]
                            let a = vertices[Int(t.x)], b = vertices[Int(t.y)], c = vertices[Int(t.z)]
                            let n = cross(b - a, c - a)
                            let d = dot(n, a)  // < 0: the front side faces the camera centre
                            if !(d < 0 || (!cullBackFaces && d > 0)) { continue }
                            // 1/z is affine in screen space: 1/z = n·ray / d with ray = ((x−cx)/fx, (y−cy)/fy, 1).
                            let plane = SIMD3(n.x / (fx * d), n.y / (fy * d), (n.z - n.x * cx / fx - n.y * cy / fy) / d)
                            let project = { (p: SIMD3<Double>) in SIMD2(fx * p.x / p.z + cx, fy * p.y / p.z + cy) }
                            let inFront = (a.z >= nearPlane ? 1 : 0) + (b.z >= nearPlane ? 1 : 0) + (c.z >= nearPlane ? 1 : 0)
                            if inFront == 3 {
                                target.fill(project(a), project(b), project(c), plane: plane, id: Int32(index), depth: depth, ids: ids)
                            } else if inFront > 0 {
                                let polygon = clip([a, b, c], nearPlane: nearPlane)
                                for k in 1..<(polygon.count - 1) {
                                    target.fill(project(polygon[0]), project(polygon[k]), project(polygon[k + 1]),
                                                plane: plane, id: Int32(index), depth: depth, ids: ids)
                                }
                            }
                        }
                    }
                }
            }
        }
        return buffer
    }

    /// The part of a triangle with z ≥ `nearPlane` (Sutherland–Hodgman against one plane): 3 or 4 corners.
    static func clip(_ corners: [SIMD3<Double>], nearPlane: Double) -> [SIMD3<Double>] {
        var out: [SIMD3<Double>] = []
        for k in 0..<3 {
            let p = corners[k], q = corners[(k + 1) % 3]
            let pIn = p.z >= nearPlane, qIn = q.z >= nearPlane
            if pIn { out.append(p) }
            if pIn != qIn {
                var x = p + (q - p) * ((nearPlane - p.z) / (q.z - p.z))
                x.z = nearPlane
                out.append(x)
            }
        }
        return out
    }
}

/// One edge's function E(x, y) = a·x + b·y + c, positive inside; `threshold` decides samples on the edge.
private struct EdgeFunction {
    var a: Double, b: Double, c: Double
    /// −1 / a (0 when a = 0), to find where a row crosses the edge without dividing.
    var negativeInverseA: Double
    /// 0 when samples exactly on the edge are inside, the smallest positive double when they are not.
    var threshold: Double

    /// The function of the directed edge `from` → `to`, inside on its left in a y-down image
    /// (for a triangle whose corners run with positive signed area).
    init(_ from: SIMD2<Double>, _ to: SIMD2<Double>) {
        // Coefficients come from the edge's canonical direction, so the two triangles sharing an
        // edge get exactly opposite functions and only the canonical side owns ties.
        let forward = from.x < to.x || (from.x == to.x && from.y < to.y)
        let u = forward ? from : to, v = forward ? to : from
        let a = u.y - v.y, b = v.x - u.x
        let c = -(a * u.x + b * u.y)
        if forward {
            (self.a, self.b, self.c, threshold) = (a, b, c, 0)
        } else {
            (self.a, self.b, self.c, threshold) = (-a, -b, -c, .leastNonzeroMagnitude)
        }
        negativeInverseA = self.a != 0 ? -1 / self.a : 0
    }

    /// Narrows a row's sample range [lo, hi] (sample indices) to where this edge may be inside,
    /// given the row's `rowValue` = b·y + c. Conservative by up to one sample; false if the row is out.
    @inline(__always)
    func narrow(rowValue r: Double, lo: inout Double, hi: inout Double) -> Bool {
        if a > 0 {
            lo = max(lo, (r * negativeInverseA - 0.5).rounded(.down))
        } else if a < 0 {
            hi = min(hi, (r * negativeInverseA - 0.5).rounded(.up))
        } else if r < threshold {
            return false
        }
        return true
    }
}

/// The sample grid being drawn into.
private struct ScreenTarget {
    let width: Int
    let height: Int

    /// Draws a screen-space triangle (sample units) with inverse-depth plane `plane` (1/z = px·x + py·y + pz).
    @inline(__always)
    func fill(
        _ p0: SIMD2<Double>, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>, plane: SIMD3<Double>, id: Int32,
        depth: UnsafeMutableBufferPointer<Float>, ids: UnsafeMutableBufferPointer<Int32>
    ) {
        let area = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
        guard area != 0, area.isFinite else { return }
        let (q1, q2) = area > 0 ? (p1, p2) : (p2, p1)
        let e0 = EdgeFunction(p0, q1), e1 = EdgeFunction(q1, q2), e2 = EdgeFunction(q2, p0)
        // Samples whose centre (i + 0.5) lies in the bounding box.
        let w = Double(width), h = Double(height)
        let minX = max(min(p0.x, q1.x, q2.x), -1), maxX = min(max(p0.x, q1.x, q2.x), w + 1)
        let minY = max(min(p0.y, q1.y, q2.y), -1), maxY = min(max(p0.y, q1.y, q2.y), h + 1)
        let i0 = max(0, Int((minX - 0.5).rounded(.up))), i1 = min(width - 1, Int((maxX - 0.5).rounded(.down)))
        let j0 = max(0, Int((minY - 0.5).rounded(.up))), j1 = min(height - 1, Int((maxY - 0.5).rounded(.down)))
        guard i0 <= i1, j0 <= j1 else { return }
        let edges = (e0, e1, e2)
        // Wide triangles: find each row's span first; narrow ones: testing every sample is cheaper.
        let narrowRows = i1 - i0 > 8
        for j in j0...j1 {
            let y = Double(j) + 0.5
            let r0 = edges.0.b * y + edges.0.c, r1 = edges.1.b * y + edges.1.c, r2 = edges.2.b * y + edges.2.c
            // The row's span from the three half-planes (conservative; samples are still tested exactly).
            var lo = Double(i0), hi = Double(i1)
            if narrowRows {
                guard edges.0.narrow(rowValue: r0, lo: &lo, hi: &hi), edges.1.narrow(rowValue: r1, lo: &lo, hi: &hi),
                      edges.2.narrow(rowValue: r2, lo: &lo, hi: &hi), lo <= hi
                else { continue }
            }
            let zRow = plane.y * y + plane.z
            let row = j * width
            for i in Int(lo)...Int(hi) {
                let x = Double(i) + 0.5
                if edges.0.a * x + r0 >= edges.0.threshold, edges.1.a * x + r1 >= edges.1.threshold,
                   edges.2.a * x + r2 >= edges.2.threshold
                {
                    let inverseDepth = Float(plane.x * x + zRow)
                    if inverseDepth > depth[row + i] {
                        depth[row + i] = inverseDepth
                        ids[row + i] = id
                    }
                }
            }
        }
    }
}
