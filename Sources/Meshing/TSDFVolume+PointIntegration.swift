import ReconstructionCore

extension TSDFVolume {
    /// Fuses an oriented point cloud (e.g. a LiDAR capture) by splatting: each point, with its
    /// outward unit normal `n`, gives every voxel centre `v` within a cylinder around it (radius
    /// `footprintRadius` across the normal, ± the truncation distance along it) the signed
    /// distance `n · (v − p)`, weighted by `weight · (1 − (lateral / radius)²)`. Point colours, when
    /// present, are averaged the same way. Points or normals with non-finite values, zero
    /// normals and points outside the volume's bounds are skipped. Blocks update in parallel.
    ///
    /// - Parameters:
    ///   - points: positions in world metres; `normals` required, `colors` optional (0…1).
    ///   - weight: weight of each point's observation (> 0).
    ///   - footprintRadius: lateral reach of a point in metres; nil = 2 voxels. Use at least the
    ///     typical spacing between neighbouring points so that splats overlap.
    @discardableResult
    public mutating func integrate(points: PointCloud, weight: Float = 1,
                                   footprintRadius: Float? = nil) throws(IntegrationError) -> IntegrationReport {
        guard !points.positions.isEmpty else { return IntegrationReport() }
        guard points.hasNormals else { throw .pointCloudWithoutNormals }
        guard weight.isFinite, weight > 0 else { return IntegrationReport() }
        let radius = footprintRadius.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 2 * voxelSize
        let truncation = truncationDistance
        let reach = max(radius, truncation)
        let blockSize = voxelSize * Float(Self.blockSide)
        let box = options.bounds.map { BoxClip(box: $0, margin: 0) }
        let hasColours = points.hasColors

        // Valid points and the blocks their splats overlap.
        var splats: [Splat] = []
        splats.reserveCapacity(points.count)
        var pairs: [(key: Int64, splat: Int32)] = []
        pairs.reserveCapacity(points.count * 2)
        for i in points.positions.indices {
            let p = points.positions[i], n = points.normals[i]
            let length = simdLength(n)
            guard isFinite(p), isFinite(n), length > 1e-6 else { continue }
            if let box, !box.contains(p) { continue }
            let lower = SIMD3<Int32>(((p - reach) / blockSize).rounded(.down))
            let upper = SIMD3<Int32>(((p + reach) / blockSize).rounded(.down))
            guard BlockKey.isPackable(lower), BlockKey.isPackable(upper) else { continue }
            let index = Int32(splats.count)
            let colour = hasColours && isFinite(points.colors[i]) ? points.colors[i] * 255 : nil
            splats.append(Splat(position: p, normal: n / length, colour: colour))
            for z in lower.z...upper.z {
                for y in lower.y...upper.y {
                    for x in lower.x...upper.x { pairs.append((BlockKey.pack(SIMD3(x, y, z)), index)) }
                }
            }
        }
        var report = IntegrationReport()
        report.usedObservations = splats.count
        guard !splats.isEmpty else { return report }

        // Allocate, then group the splats by block (counting sort keeps input order within a block).
        let before = blockCount
        let blockOfPair = allocateBlocks(pairs.map { $0.key })
        report.newBlocks = blockCount - before
        var start = [Int32](repeating: 0, count: blockCount + 1)
        for b in blockOfPair { start[Int(b) + 1] += 1 }
        for b in 0..<blockCount { start[b + 1] += start[b] }
        var fill = start
        var grouped = [Int32](repeating: 0, count: pairs.count)
        for (n, b) in blockOfPair.enumerated() {
            grouped[Int(fill[Int(b)])] = pairs[n].splat
            fill[Int(b)] += 1
        }
        let touched = (0..<blockCount).filter { start[$0 + 1] > start[$0] }
        report.touchedBlocks = touched.count

        let voxelSize = self.voxelSize, coordinates = blockCoordinates, workers = options.workers
        let side = Self.blockSide
        let chunk = max(1, touched.count / (workers * 16))
        let chunkCount = (touched.count + chunk - 1) / chunk
        let splatList = splats, groups = grouped, starts = start
        let storage = uniqueStorage()
        _ = parallelMap(chunkCount, workers: workers) { c -> Bool in
            for t in (c * chunk)..<min(touched.count, (c + 1) * chunk) {
                let b = touched[t]
                let firstVoxel = coordinates[b] &* Int32(side)
                let block = storage.block(b)
                for g in Int(starts[b])..<Int(starts[b + 1]) {
                    splatList[Int(groups[g])].update(block: block, firstVoxel: firstVoxel, voxelSize: voxelSize,
                                                     radius: radius, truncation: truncation, weight: weight, box: box)
                }
            }
            return true
        }
        return report
    }
}

/// One oriented point to splat into the volume.
struct Splat: Sendable {
    /// World position in metres.
    let position: SIMD3<Float>
    /// Outward unit normal.
    let normal: SIMD3<Float>
    /// sRGB 0…255, when the cloud has colours.
    let colour: SIMD3<Float>?

    /// Updates the voxels of one block (first voxel's global indices `firstVoxel`) inside this point's cylinder.
    func update(block: UnsafeMutablePointer<TSDFVoxel>, firstVoxel: SIMD3<Int32>, voxelSize: Float,
                radius: Float, truncation: Float, weight: Float, box: BoxClip?) {
        let side = Int32(TSDFVolume.blockSide)
        let reach = max(radius, truncation)
        // Voxel index range (global) whose centres can be within reach.
        let lower = SIMD3<Int32>(((position - reach) / voxelSize - 0.5).rounded(.up))
        let upper = SIMD3<Int32>(((position + reach) / voxelSize - 0.5).rounded(.down))
        let from = pointwiseMax(lower, firstVoxel) &- firstVoxel
        let to = pointwiseMin(upper, firstVoxel &+ (side - 1)) &- firstVoxel
        guard all(from .<= to) else { return }
        let radiusSquared = radius * radius
        for z in from.z...to.z {
            for y in from.y...to.y {
                for x in from.x...to.x {
                    let local = SIMD3(x, y, z)
                    let centre = (SIMD3<Float>(firstVoxel &+ local) + 0.5) * voxelSize
                    let offset = centre - position
                    let along = simdDot(offset, normal)
                    guard abs(along) <= truncation else { continue }
                    let lateralSquared = max(0, simdDot(offset, offset) - along * along)
                    guard lateralSquared <= radiusSquared else { continue }
                    if let box, !box.contains(centre) { continue }
                    let w = weight * (1 - lateralSquared / radiusSquared)
                    guard w > 0 else { continue }
                    let voxel = block + Int(x + side * (y + side * z))
                    let oldWeight = voxel.pointee.weight
                    voxel.pointee.distance = (voxel.pointee.distance * oldWeight + along * w) / (oldWeight + w)
                    voxel.pointee.weight = oldWeight + w
                    if let colour {
                        let previous = voxel.pointee.colourFlag != 0 ? oldWeight : 0
                        let old = SIMD3<Float>(Float(voxel.pointee.red), Float(voxel.pointee.green), Float(voxel.pointee.blue))
                        let mixed = ((old * previous + colour * w) / (previous + w) + 0.5)
                            .clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
                        voxel.pointee.red = UInt8(mixed.x)
                        voxel.pointee.green = UInt8(mixed.y)
                        voxel.pointee.blue = UInt8(mixed.z)
                        voxel.pointee.colourFlag = 1
                    }
                }
            }
        }
    }
}
