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
    /// right for a closed object, wrong for a scene around the sensor. Points with too few
    /// neighbours get the direction to their viewpoint (or from the centroid). Existing normals
    /// are replaced.
    public func withEstimatedNormals(neighbours: Int = 12, towards viewpoints: [SIMD3<Float>] = [],
                                     workers: Int = ProcessInfo.processInfo.activeProcessorCount) -> PointCloud {
        guard let grid = Self.grid(positions) else { return self }
        var centroid = SIMD3<Double>(repeating: 0)
        for p in positions where p.x.isFinite && p.y.isFinite && p.z.isFinite { centroid += SIMD3<Double>(p) }
        let centre = SIMD3<Float>(centroid / Double(max(1, positions.count)))
        let positions = self.positions
        let chunk = 4096
        let chunks = (positions.count + chunk - 1) / chunk
        let k = max(3, neighbours)
        let parts: [[SIMD3<Float>]] = parallelMap(chunks, workers: workers) { c in
            (c * chunk..<min(positions.count, (c + 1) * chunk)).map { i in
                let p = positions[i]
                var outward = p - centre
                if let nearestView = viewpoints.min(by: { simdDot($0 - p, $0 - p) < simdDot($1 - p, $1 - p) }) {
                    outward = nearestView - p
                }
                let near = grid.nearest(k, to: p)
                var normal = near.count >= 3 ? Self.leastSpread(near.map { positions[Int($0)] }) : nil
                if normal == nil {
                    let length = simdLength(outward)
                    normal = length > 0 ? outward / length : SIMD3(0, 0, 1)
                }
                return simdDot(normal!, outward) < 0 ? -normal! : normal!
            }
        }
        var cloud = self
        cloud.normals = parts.flatMap { $0 }
        return cloud
    }

    /// Unit direction of least spread of the points, nil when they do not span a plane.
    static func leastSpread(_ points: [SIMD3<Float>]) -> SIMD3<Float>? {
        Plane.fitted(to: points)?.plane.normal
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
