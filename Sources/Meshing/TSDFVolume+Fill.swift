import ReconstructionCore

extension TSDFVolume {
    /// Gives the voxels no observation reached a prior: every unobserved voxel (weight 0) inside
    /// `box` whose `signedDistance(centre)` is non-nil and within the truncation distance, and
    /// that `accepts`, gets that distance (metres, positive outside) with `weight`. Observed voxels
    /// keep what they measured, so the prior only completes the surface where the observations
    /// left it open. `signedDistance` should change by at most about its argument's change (a
    /// distance): a block of voxels whose centre lies well beyond the truncation distance from
    /// the prior's surface is skipped whole.
    @discardableResult
    public mutating func fillUnobserved(signedDistance: @Sendable (SIMD3<Float>) -> Float?,
                                        accepts: @Sendable (SIMD3<Float>) -> Bool = { _ in true },
                                        in box: BoundingBox, weight: Float = 1) -> IntegrationReport {
        var report = IntegrationReport()
        guard weight.isFinite, weight > 0 else { return report }
        guard let (lowest, highest) = voxelRange(in: box) else { return report }
        let truncation = truncationDistance
        let volume = self
        let side = Int32(Self.blockSide)
        let blockOf = { (v: SIMD3<Int32>) in SIMD3(floorDiv(v.x, side), floorDiv(v.y, side), floorDiv(v.z, side)) }
        let firstBlock = blockOf(lowest), lastBlock = blockOf(highest)
        // A block's voxels lie within half its diagonal of its centre; 1.5 × that for slack.
        let skipBeyond = truncation + 1.5 * 0.5 * Float(3).squareRoot() * Float(side) * voxelSize
        let layers = parallelMap(Int(lastBlock.z - firstBlock.z) + 1, workers: options.workers) { n -> [(SIMD3<Int32>, Float)] in
            var found: [(SIMD3<Int32>, Float)] = []
            let bz = firstBlock.z + Int32(n)
            for by in firstBlock.y...lastBlock.y {
                for bx in firstBlock.x...lastBlock.x {
                    let block = SIMD3(bx, by, bz)
                    let middle = (SIMD3<Float>(block &* side) + Float(side) / 2) * volume.voxelSize
                    if let d = signedDistance(middle), abs(d) > skipBeyond { continue }
                    let from = pointwiseMax(block &* side, lowest), to = pointwiseMin(block &* side &+ (side - 1), highest)
                    guard all(from .<= to) else { continue }
                    for k in from.z...to.z {
                        for j in from.y...to.y {
                            for i in from.x...to.x {
                                let index = SIMD3(i, j, k)
                                let centre = volume.centre(ofVoxel: index)
                                guard let d = signedDistance(centre), d.isFinite, abs(d) <= truncation,
                                      (volume.voxel(at: index)?.weight ?? 0) == 0, accepts(centre) else { continue }
                                found.append((index, d))
                            }
                        }
                    }
                }
            }
            return found
        }
        let samples = layers.flatMap { $0 }
        let before = blockCount
        let blocks = allocateBlocks(samples.map { BlockKey.pack(blockOf($0.0)) })
        report.newBlocks = blockCount - before
        report.touchedBlocks = Set(blocks).count
        report.usedObservations = samples.count
        let storage = uniqueStorage()
        for (n, sample) in samples.enumerated() {
            let local = sample.0 &- blockOf(sample.0) &* side
            let voxel = storage.block(Int(blocks[n])) + Int(local.x + side * (local.y + side * local.z))
            voxel.pointee.distance = sample.1
            voxel.pointee.weight = weight
        }
        return report
    }
}

extension TSDFVolume {
    /// Makes the negative side of `plane` outside: every observed voxel there gets at least its
    /// distance from the plane (capped at the truncation distance), so a surface that the
    /// observations carried a little past the plane closes on it instead.
    public mutating func clip(below plane: Plane) {
        let truncation = truncationDistance
        let storage = uniqueStorage()
        let side = Int32(Self.blockSide)
        for (b, block) in blockCoordinates.enumerated() {
            let voxels = storage.block(b)
            for z in 0..<side {
                for y in 0..<side {
                    for x in 0..<side {
                        let index = block &* side &+ SIMD3(x, y, z)
                        let below = -plane.signedDistance(centre(ofVoxel: index))
                        guard below > 0 else { continue }
                        let voxel = voxels + Int(x + side * (y + side * z))
                        guard voxel.pointee.weight > 0 else { continue }
                        voxel.pointee.distance = max(voxel.pointee.distance, min(below, truncation))
                    }
                }
            }
        }
    }
}
