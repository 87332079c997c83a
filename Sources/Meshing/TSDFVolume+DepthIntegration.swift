import ReconstructionCore

extension TSDFVolume {
    /// What one integration did.
    public struct IntegrationReport: Sendable, Equatable {
        /// Observations (depth pixels or points) that passed validation and were fused.
        public var usedObservations = 0
        /// Blocks updated by this integration.
        public var touchedBlocks = 0
        /// Blocks allocated by this integration.
        public var newBlocks = 0
        public init() {}
    }

    /// Inputs that cannot be integrated.
    public enum IntegrationError: Error, Equatable, CustomStringConvertible {
        /// The intrinsics describe another image size than the depth map's.
        case intrinsicsSizeMismatch(intrinsicsWidth: Int, intrinsicsHeight: Int, depthWidth: Int, depthHeight: Int)
        /// The per-pixel weights are not one per depth pixel.
        case weightCountMismatch(weights: Int, pixels: Int)
        /// A point cloud without one normal per point cannot be splatted.
        case pointCloudWithoutNormals
        /// Focal lengths are not positive, or a camera value is not finite.
        case invalidCamera

        public var description: String {
            switch self {
            case let .intrinsicsSizeMismatch(iw, ih, dw, dh):
                return "intrinsics are for \(iw)×\(ih) pixels but the depth map is \(dw)×\(dh)"
            case let .weightCountMismatch(weights, pixels):
                return "\(weights) weights for \(pixels) depth pixels"
            case .pointCloudWithoutNormals:
                return "the point cloud needs one normal per point"
            case .invalidCamera:
                return "camera intrinsics or pose are not finite, or a focal length is not positive"
            }
        }
    }

    /// Fuses one depth map by projective TSDF integration.
    ///
    /// Every voxel of the blocks within the truncation band around the depth pixels' surface
    /// points is projected into the depth map; its signed distance is the measured depth
    /// (bilinear between the four nearest pixels) minus the voxel's depth, measured along the
    /// viewing ray (metres), clamped to the truncation distance in front and ignored further than
    /// it behind the surface. Voxels projecting next to a missing pixel or onto a depth edge (the
    /// four pixels disagree by half the truncation distance or more) are not updated, so isolated
    /// pixels contribute nothing. Blocks are updated in parallel, each by one worker.
    ///
    /// - Parameters:
    ///   - depth: depth along the camera's z axis in metres; 0, negative, NaN and infinite values are skipped.
    ///   - weights: per-pixel observation weights (e.g. from confidence), `depth.width × depth.height`
    ///     values; nil = 1 everywhere; non-positive or non-finite weights skip the pixel.
    ///   - intrinsics: the camera at the depth map's resolution.
    ///   - worldFromCamera: the camera's pose (camera frame x right, y down, z forward).
    ///   - colour: optional photo of the same view, at any resolution (sampled by scaling coordinates).
    ///   - mask: optional mask of the same view, at any resolution; pixels where it is 0 are skipped.
    @discardableResult
    public mutating func integrate(
        depth: DepthMap, weights: [Float]? = nil, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform,
        colour: RGBImage? = nil, mask: GrayImage? = nil
    ) throws(IntegrationError) -> IntegrationReport {
        let width = depth.width, height = depth.height
        guard width > 0, height > 0, depth.metres.count == width * height else { return IntegrationReport() }
        guard intrinsics.width == width, intrinsics.height == height else {
            throw .intrinsicsSizeMismatch(intrinsicsWidth: intrinsics.width, intrinsicsHeight: intrinsics.height,
                                          depthWidth: width, depthHeight: height)
        }
        if let weights, weights.count != width * height {
            throw .weightCountMismatch(weights: weights.count, pixels: width * height)
        }
        guard let camera = ProjectiveCamera(intrinsics: intrinsics, worldFromCamera: worldFromCamera) else {
            throw .invalidCamera
        }

        let prepared = DepthObservations(depth: depth, weights: weights, mask: mask, camera: camera,
                                         options: options, truncation: truncationDistance)
        guard prepared.validCount > 0 else { return IntegrationReport() }

        var report = IntegrationReport()
        report.usedObservations = prepared.validCount
        let blocksBefore = blockCount
        let touched = allocateBlocks(along: prepared, camera: camera)
        report.newBlocks = blockCount - blocksBefore
        report.touchedBlocks = touched.count

        let colourSampler = colour.flatMap { ColourSampler(image: $0, depthWidth: width, depthHeight: height) }
        updateVoxels(inBlocks: touched, from: prepared, camera: camera, colour: colourSampler)
        return report
    }

    /// Allocates every block crossed by a pixel's ray within ± the truncation distance of its
    /// depth; returns the indices of those blocks, each once.
    private mutating func allocateBlocks(along observations: DepthObservations, camera: ProjectiveCamera) -> [Int32] {
        let width = observations.width, height = observations.height
        let truncation = truncationDistance
        let blockSize = voxelSize * Float(Self.blockSide)
        let minimumDepth = options.minimumDepth
        let clip = options.bounds.map { BoxClip(box: $0, margin: voxelSize) }
        let workers = options.workers
        let bandCount = min(height, workers * 8)
        let bands: [[Int64]] = parallelMap(bandCount, workers: workers) { band in
            var seen = BlockHashMap(capacity: 4096)
            let rowStart = band * height / bandCount, rowEnd = (band + 1) * height / bandCount
            observations.depth.withUnsafeBufferPointer { depth in
                observations.rays.withUnsafeBufferPointer { rays in
                    for y in rowStart..<rowEnd {
                        for x in 0..<width {
                            let d = depth[y * width + x]
                            if d <= 0 { continue }
                            let ray = rays[y * width + x]
                            let rayCamera = SIMD3<Float>(ray.x, ray.y, 1)
                            let halfBand = truncation / simdLength(rayCamera)  // depth units
                            var t0 = max(d - halfBand, minimumDepth), t1 = d + halfBand
                            let direction = camera.worldDirection(rayCamera)
                            if let clip, !clip.clipSegment(origin: camera.centreInWorld, direction: direction, t0: &t0, t1: &t1) {
                                continue
                            }
                            let p0 = (camera.centreInWorld + t0 * direction) / blockSize
                            let p1 = (camera.centreInWorld + t1 * direction) / blockSize
                            traverseCells(from: p0, to: p1) { cell in
                                if BlockKey.isPackable(cell) { seen.insert(BlockKey.pack(cell), value: 0) }
                            }
                        }
                    }
                }
            }
            return seen.allKeys
        }
        let indices = allocateBlocks(bands.flatMap { $0 })
        var unique = [Int32]()
        unique.reserveCapacity(indices.count)
        var taken = [Bool](repeating: false, count: blockCount)
        for i in indices where !taken[Int(i)] {
            taken[Int(i)] = true
            unique.append(i)
        }
        return unique
    }

    /// Updates every voxel of the listed blocks from the depth map, blocks in parallel.
    private mutating func updateVoxels(inBlocks blocks: [Int32], from observations: DepthObservations,
                                       camera: ProjectiveCamera, colour: ColourSampler?) {
        let voxelSize = self.voxelSize
        let truncation = truncationDistance
        let minimumDepth = options.minimumDepth
        let coordinates = blockCoordinates
        let box = options.bounds.map { BoxClip(box: $0, margin: 0) }
        let workers = options.workers
        let chunk = max(1, blocks.count / (workers * 16))
        let chunkCount = (blocks.count + chunk - 1) / chunk
        let side = Self.blockSide
        let storage = uniqueStorage()
        _ = parallelMap(chunkCount, workers: workers) { c -> Bool in
            let updater = VoxelUpdater(observations: observations, camera: camera, colour: colour,
                                       truncation: truncation, minimumDepth: minimumDepth)
            for n in (c * chunk)..<min(blocks.count, (c + 1) * chunk) {
                let b = Int(blocks[n])
                let firstVoxel = SIMD3<Float>(coordinates[b] &* Int32(side)) + 0.5
                let originWorld = firstVoxel * voxelSize
                let checkBox = box.map { !$0.containsBlock(origin: originWorld, size: voxelSize * Float(side - 1)) } ?? false
                updater.update(block: storage.block(b), originWorld: originWorld, voxelSize: voxelSize,
                               box: checkBox ? box : nil)
            }
            return true
        }
    }
}
