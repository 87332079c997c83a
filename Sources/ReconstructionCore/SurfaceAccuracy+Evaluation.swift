extension SurfaceAccuracy {
    /// A surface accuracy with the per-sample distances behind it (for histograms).
    public struct Measurement: Sendable {
        public var accuracy: SurfaceAccuracy
        /// Distance of each reconstruction sample to the ground truth, in metres.
        public var reconstructionToGroundTruthMetres: [Float]
        /// Distance of each ground-truth sample to the reconstruction, in metres.
        public var groundTruthToReconstructionMetres: [Float]
    }

    /// Scores a reconstructed mesh against a ground-truth mesh; both are sampled by area.
    /// - Throws: `SurfaceAccuracyError` when either surface is empty (after cropping).
    public static func evaluate(reconstruction: TriangleMesh, groundTruth: TriangleMesh,
                                options: Options = Options()) throws -> SurfaceAccuracy {
        try measure(reconstruction: reconstruction, groundTruth: groundTruth, options: options).accuracy
    }

    /// Scores a reconstructed point cloud (every point a sample) against a ground-truth mesh.
    /// - Throws: `SurfaceAccuracyError` when either is empty (after cropping).
    public static func evaluate(reconstruction: PointCloud, groundTruth: TriangleMesh,
                                options: Options = Options()) throws -> SurfaceAccuracy {
        try measure(reconstruction: reconstruction, groundTruth: groundTruth, options: options).accuracy
    }

    /// As `evaluate`, keeping every sample's distance.
    public static func measure(reconstruction: TriangleMesh, groundTruth: TriangleMesh,
                               options: Options = Options()) throws -> Measurement {
        let reference = try GroundTruth(groundTruth, options: options)
        var surface = reconstruction
        if let box = reference.cropBox {
            let positions = reconstruction.positions
            let n = UInt32(positions.count)
            surface.triangles = reconstruction.triangles.filter { t in
                guard t.x < n, t.y < n, t.z < n else { return false }
                let a = positions[Int(t.x)], b = positions[Int(t.y)], c = positions[Int(t.z)]
                return box.intersects(lower: pointwiseMin(pointwiseMin(a, b), c),
                                      upper: pointwiseMax(pointwiseMax(a, b), c))
            }
        }
        let count = options.sampleCount ?? surface.sampleCount(spacing: reference.spacing, maxCount: options.maxSampleCount)
        let samples = surface.sampledPoints(count: count, seed: options.seed &+ 1, workers: options.workers)
        let index = SurfaceDistanceIndex(mesh: surface)
        var measurement = try reference.score(samples: samples, index: index, options: options)
        if let box = reference.cropBox { measurement.accuracy.outsideCropFraction = reconstruction.areaFraction { !box.contains($0) } }
        return measurement
    }

    /// As `evaluate`, keeping every sample's distance.
    public static func measure(reconstruction: PointCloud, groundTruth: TriangleMesh,
                               options: Options = Options()) throws -> Measurement {
        let reference = try GroundTruth(groundTruth, options: options)
        let points = reconstruction.positions.filter(SurfaceDistanceIndex.isFinite)
        let kept = reference.cropBox.map { box in points.filter(box.contains) } ?? points
        var measurement = try reference.score(samples: points, index: SurfaceDistanceIndex(points: kept), options: options)
        if reference.cropBox != nil, !points.isEmpty { measurement.accuracy.outsideCropFraction = 1 - Double(kept.count) / Double(points.count) }
        return measurement
    }
}

/// The ground-truth side of an evaluation: threshold, crop box, samples and distance index.
private struct GroundTruth {
    let diagonal: Double
    let threshold: Double
    /// Mesh sample spacing, in metres.
    let spacing: Double
    let cropBox: AxisBox?
    let samples: [SIMD3<Float>]
    let index: SurfaceDistanceIndex

    init(_ mesh: TriangleMesh, options: SurfaceAccuracy.Options) throws {
        index = SurfaceDistanceIndex(mesh: mesh)
        guard mesh.surfaceArea > 0, !index.isEmpty else { throw SurfaceAccuracyError.emptyGroundTruth }
        // Bounds of the vertices that triangles use (stray vertices do not count).
        var lower = SIMD3<Float>(repeating: .infinity), upper = SIMD3<Float>(repeating: -.infinity)
        for p in index.vertices {
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        diagonal = Double(simdLength(upper - lower))
        threshold = options.thresholdMetres ?? options.thresholdFraction * diagonal
        spacing = options.sampleSpacingFraction * threshold
        if let margin = options.cropMarginFraction {
            let grow = SIMD3<Float>(repeating: Float(max(0, margin) * diagonal))
            cropBox = AxisBox(lower: lower - grow, upper: upper + grow)
        } else {
            cropBox = nil
        }
        let count = options.sampleCount ?? mesh.sampleCount(spacing: spacing, maxCount: options.maxSampleCount)
        samples = mesh.sampledPoints(count: count, seed: options.seed, workers: options.workers)
    }

    /// Scores reconstruction `samples` (cropped here) against the ground truth, and the ground
    /// truth's samples against the reconstruction's `index`.
    func score(samples reconstructionSamples: [SIMD3<Float>], index reconstructionIndex: SurfaceDistanceIndex,
               options: SurfaceAccuracy.Options) throws -> SurfaceAccuracy.Measurement {
        let kept = cropBox.map { box in reconstructionSamples.filter(box.contains) } ?? reconstructionSamples
        guard !kept.isEmpty, !reconstructionIndex.isEmpty else {
            throw SurfaceAccuracyError.emptyReconstruction(cropped: cropBox != nil)
        }
        let forward = index.distances(from: kept, workers: options.workers)
        let backward = reconstructionIndex.distances(from: samples, workers: options.workers)
        let accuracy = SurfaceAccuracy.DirectedDistances(forward, threshold: threshold)
        let completeness = SurfaceAccuracy.DirectedDistances(backward, threshold: threshold)
        let precision = accuracy.fractionWithinThreshold, recall = completeness.fractionWithinThreshold
        let result = SurfaceAccuracy(
            thresholdMetres: threshold, groundTruthDiagonalMetres: diagonal,
            precision: precision, recall: recall,
            fScore: precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0,
            chamferDistanceMetres: (accuracy.meanMetres + completeness.meanMetres) / 2,
            reconstructionToGroundTruth: accuracy, groundTruthToReconstruction: completeness,
            cropBox: cropBox.map { box in
                let lower = SIMD3<Double>(box.lower), upper = SIMD3<Double>(box.upper)
                let centre = (lower + upper) / 2, half = (upper - lower) / 2
                return BoundingBox(centre: Vector3(centre.x, centre.y, centre.z),
                                   halfExtents: Vector3(half.x, half.y, half.z))
            },
            samplesOutsideCrop: reconstructionSamples.count - kept.count)
        return SurfaceAccuracy.Measurement(accuracy: result, reconstructionToGroundTruthMetres: forward,
                                           groundTruthToReconstructionMetres: backward)
    }
}

extension SurfaceAccuracy.DirectedDistances {
    /// Summary of `distances` (metres, non-empty) against `threshold` (metres).
    init(_ distances: [Float], threshold: Double) {
        let sorted = distances.sorted()
        var sum = 0.0
        var within = 0
        for d in sorted {
            sum += Double(d)
            if Double(d) <= threshold { within += 1 }
        }
        func quantile(_ q: Double) -> Double {
            // Linear interpolation between order statistics (the median of an even count is the
            // mean of the two middle values).
            let position = q * Double(sorted.count - 1)
            let i = Int(position.rounded(.down)), j = min(i + 1, sorted.count - 1)
            let f = position - Double(i)
            return Double(sorted[i]) * (1 - f) + Double(sorted[j]) * f
        }
        self.init(sampleCount: sorted.count, meanMetres: sum / Double(sorted.count), medianMetres: quantile(0.5),
                  percentile90Metres: quantile(0.9), maxMetres: Double(sorted.last!),
                  fractionWithinThreshold: Double(within) / Double(sorted.count))
    }
}
