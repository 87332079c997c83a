import ReconstructionCore

extension TSDFVolume {
    /// Fuses a signed distance function sampled at the voxel centres inside `box` (world, metres):
    /// voxels within the truncation distance of the surface receive `signedDistance(centre)`
    /// (metres, positive outside) with `weight`; voxels farther out are left alone. Useful for
    /// analytic shapes (a ground plane, a known primitive) and for testing.
    @discardableResult
    public mutating func integrate(signedDistance: (SIMD3<Float>) -> Float, in box: BoundingBox, weight: Float = 1) -> IntegrationReport {
        var report = IntegrationReport()
        guard weight.isFinite, weight > 0 else { return report }
        guard let (lowest, highest) = voxelRange(in: box) else { return report }
        let truncation = truncationDistance
        var samples: [(index: SIMD3<Int32>, distance: Float)] = []
        for k in lowest.z...highest.z {
            for j in lowest.y...highest.y {
                for i in lowest.x...highest.x {
                    let index = SIMD3(i, j, k)
                    let d = signedDistance(centre(ofVoxel: index))
                    if d.isFinite, abs(d) <= truncation { samples.append((index, d)) }
                }
            }
        }
        let side = Int32(Self.blockSide)
        let blockOf = { (v: SIMD3<Int32>) in SIMD3(floorDiv(v.x, side), floorDiv(v.y, side), floorDiv(v.z, side)) }
        let before = blockCount
        let blocks = allocateBlocks(samples.map { BlockKey.pack(blockOf($0.index)) })
        report.newBlocks = blockCount - before
        report.touchedBlocks = Set(blocks).count
        report.usedObservations = samples.count
        let storage = uniqueStorage()
        for (n, sample) in samples.enumerated() {
            let local = sample.index &- blockOf(sample.index) &* side
            let voxel = storage.block(Int(blocks[n])) + Int(local.x + side * (local.y + side * local.z))
            let w = voxel.pointee.weight
            voxel.pointee.distance = (voxel.pointee.distance * w + sample.distance * weight) / (w + weight)
            voxel.pointee.weight = w + weight
        }
        return report
    }

    /// The global indices of the first and last voxels whose centres lie inside `box`; nil when
    /// none does or the box reaches beyond the indices blocks can have.
    func voxelRange(in box: BoundingBox) -> (lowest: SIMD3<Int32>, highest: SIMD3<Int32>)? {
        let clip = BoxClip(box: box, margin: 0)
        let reach = Float(BlockKey.limit) * Float(Self.blockSide) * voxelSize * 0.99
        guard all(pointwiseMax(-clip.lower, clip.lower) .< reach), all(pointwiseMax(-clip.upper, clip.upper) .< reach) else { return nil }
        let lowest = SIMD3<Int32>((clip.lower / voxelSize - 0.5).rounded(.up))
        let highest = SIMD3<Int32>((clip.upper / voxelSize - 0.5).rounded(.down))
        return all(lowest .<= highest) ? (lowest, highest) : nil
    }
}
