import Foundation
import ReconstructionCore

extension PointCloud {
    /// Median distance from a point to its nearest neighbour (over at most 5 000 points, evenly
    /// strided), metres; nil for fewer than two finite points.
    public func medianSpacing() -> Float? {
        guard let grid = Self.grid(positions) else { return nil }
        let step = max(1, positions.count / 5000)
        var distances: [Float] = []
        for i in stride(from: 0, to: positions.count, by: step) {
            let near = grid.nearest(2, to: positions[i])
            if near.count == 2 { distances.append(simdLength(positions[Int(near[1])] - positions[i])) }
        }
        guard !distances.isEmpty else { return nil }
        distances.sort()
        return distances[distances.count / 2]
    }

    /// The cloud with a unit normal per point from the plane through its `neighbours` nearest
    /// points (the direction of least spread), turned towards the nearest of `viewpoints` (the
    /// sensor positions that saw it), or without viewpoints, away from the cloud's centroid —
    /// right for a closed object, wrong for a scene around the sensor. Neighbours are searched in
    /// the point's grid cell and the 26 around it (cells about three point spacings wide), so
    /// they are approximate where points are sparse. Points with fewer than three neighbours get
    /// the direction to their viewpoint (or from the centroid). Existing normals are replaced.
    public func withEstimatedNormals(neighbours: Int = 12, towards viewpoints: [SIMD3<Float>] = [],
                                     workers: Int = ProcessInfo.processInfo.activeProcessorCount) -> PointCloud {
        guard let grid = Self.grid(positions) else { return self }
        var centroid = SIMD3<Double>(repeating: 0)
        for p in positions where p.x.isFinite && p.y.isFinite && p.z.isFinite { centroid += SIMD3<Double>(p) }
        let centre = SIMD3<Float>(centroid / Double(max(1, positions.count)))
        let positions = self.positions
        let k = max(3, neighbours)
        let cellCount = grid.occupiedCellCount
        let chunk = max(1, cellCount / (max(1, workers) * 8))
        let parts: [[(Int32, SIMD3<Float>)]] = parallelMap((cellCount + chunk - 1) / chunk, workers: workers) { c in
            var out: [(Int32, SIMD3<Float>)] = []
            var bestDistance = [Float](repeating: 0, count: k), bestIndex = [Int32](repeating: 0, count: k)
            grid.forEachCell(in: (c * chunk)..<min(cellCount, (c + 1) * chunk)) { members, candidates in
                for i in members {
                    let p = positions[Int(i)]
                    // The k nearest candidates, by insertion into a sorted list.
                    var found = 0
                    for j in candidates {
                        let d = positions[Int(j)] - p
                        let distance = simdDot(d, d)
                        if found == k && distance >= bestDistance[k - 1] { continue }
                        var slot = min(found, k - 1)
                        while slot > 0 && bestDistance[slot - 1] > distance {
                            bestDistance[slot] = bestDistance[slot - 1]
                            bestIndex[slot] = bestIndex[slot - 1]
                            slot -= 1
                        }
                        bestDistance[slot] = distance
                        bestIndex[slot] = j
                        found = min(k, found + 1)
                    }
                    var outward = p - centre
                    if let nearestView = viewpoints.min(by: { simdDot($0 - p, $0 - p) < simdDot($1 - p, $1 - p) }) {
                        outward = nearestView - p
                    }
                    var normal = found >= 3 ? Self.leastSpread(bestIndex[0..<found].map { positions[Int($0)] }) : nil
                    if normal == nil {
                        let length = simdLength(outward)
                        normal = length > 0 ? outward / length : SIMD3(0, 0, 1)
                    }
                    out.append((i, simdDot(normal!, outward) < 0 ? -normal! : normal!))
                }
            }
            return out
        }
        var cloud = self
        cloud.normals = positions.map { p in
            let length = simdLength(p - centre)
            return length > 0 && length.isFinite ? (p - centre) / length : SIMD3(0, 0, 1)
        }
        for part in parts { for (i, n) in part { cloud.normals[Int(i)] = n } }
        return cloud
    }

    /// Unit direction of least spread of the points (the eigenvector of the smallest eigenvalue
    /// of their covariance, in closed form), nil when they do not span a plane.
    static func leastSpread(_ points: [SIMD3<Float>]) -> SIMD3<Float>? {
        var mean = SIMD3<Double>(repeating: 0)
        for p in points { mean += SIMD3<Double>(p) }
        mean /= Double(points.count)
        var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0
        for p in points {
            let d = SIMD3<Double>(p) - mean
            xx += d.x * d.x; xy += d.x * d.y; xz += d.x * d.z
            yy += d.y * d.y; yz += d.y * d.z; zz += d.z * d.z
        }
        // Eigenvalues of a symmetric 3 × 3 matrix by the trigonometric method.
        let offDiagonal = xy * xy + xz * xz + yz * yz
        let q = (xx + yy + zz) / 3
        let p2 = (xx - q) * (xx - q) + (yy - q) * (yy - q) + (zz - q) * (zz - q) + 2 * offDiagonal
        guard p2 > 0, p2.isFinite else { return nil }
        let p = (p2 / 6).squareRoot()
        let b00 = (xx - q) / p, b11 = (yy - q) / p, b22 = (zz - q) / p, b01 = xy / p, b02 = xz / p, b12 = yz / p
        let determinant = b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) + b02 * (b01 * b12 - b11 * b02)
        let phi = acos(min(1, max(-1, determinant / 2))) / 3
        let largest = q + 2 * p * cos(phi)
        let smallest = q + 2 * p * cos(phi + 2 * Double.pi / 3)
        let middle = 3 * q - largest - smallest
        guard middle - smallest > 1e-9 * max(largest, 1e-300) else { return nil }  // a line or a blob: no plane
        // The null vector of (covariance − smallest · I): the longest cross product of two rows.
        let r0 = SIMD3(xx - smallest, xy, xz), r1 = SIMD3(xy, yy - smallest, yz), r2 = SIMD3(xz, yz, zz - smallest)
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        let candidates = [cross(r0, r1), cross(r0, r2), cross(r1, r2)]
        let best = candidates.max { ($0 * $0).sum() < ($1 * $1).sum() }!
        let length = (best * best).sum().squareRoot()
        guard length > 0, length.isFinite else { return nil }
        return SIMD3<Float>(best / length)
    }

    /// A grid with about eight points per occupied cell for a surface-like cloud.
    static func grid(_ positions: [SIMD3<Float>]) -> NeighbourGrid? {
        let finite = positions.filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        guard finite.count >= 2 else { return nil }
        var lower = finite[0], upper = finite[0]
        for p in finite {
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        let diagonal = simdLength(upper - lower)
        guard diagonal > 0 else { return nil }
        // n points on a surface of about diagonal² area are ~diagonal/√n apart; ~3 spacings per cell.
        let cell = max(diagonal * 3 / Float(finite.count).squareRoot(), diagonal * 1e-5)
        return NeighbourGrid(points: positions, cellSize: cell)
    }
}
