import Foundation

/// How well a reconstructed surface matches a ground-truth mesh, in the style of the Tanks and
/// Temples benchmark: precision (share of the reconstruction within τ of the ground truth),
/// recall (share of the ground truth within τ of the reconstruction), their F-score, and the
/// chamfer distance. Distances are exact point-to-triangle distances (point-to-point towards a
/// point-cloud reconstruction), in metres (the ground truth's unit).
///
/// Computed by `SurfaceAccuracy.evaluate(reconstruction:groundTruth:options:)`.
public struct SurfaceAccuracy: Sendable, Codable, Equatable {
    /// Distances from one surface's samples to the other surface.
    public struct DirectedDistances: Sendable, Codable, Equatable {
        /// Number of sample points measured.
        public var sampleCount: Int
        /// Mean distance, in metres.
        public var meanMetres: Double
        /// Median distance, in metres.
        public var medianMetres: Double
        /// 90th-percentile distance, in metres.
        public var percentile90Metres: Double
        /// Largest distance, in metres.
        public var maxMetres: Double
        /// Fraction (0...1) of the samples within the threshold τ.
        public var fractionWithinThreshold: Double

        public init(sampleCount: Int, meanMetres: Double, medianMetres: Double, percentile90Metres: Double,
                    maxMetres: Double, fractionWithinThreshold: Double) {
            self.sampleCount = sampleCount
            self.meanMetres = meanMetres
            self.medianMetres = medianMetres
            self.percentile90Metres = percentile90Metres
            self.maxMetres = maxMetres
            self.fractionWithinThreshold = fractionWithinThreshold
        }
    }

    /// Settings of the evaluation. Defaults follow Tanks and Temples' convention of a threshold
    /// relative to the object's size.
    public struct Options: Sendable, Equatable {
        /// The threshold τ as a fraction of the ground truth's bounding-box diagonal.
        public var thresholdFraction = 0.01
        /// The threshold τ in metres; when set it replaces `thresholdFraction`.
        public var thresholdMetres: Double?
        /// Mesh sample spacing as a fraction of τ: about one sample per (fraction × τ)² of surface.
        public var sampleSpacingFraction = 0.5
        /// Exact number of samples to draw on each mesh; when set it replaces the spacing.
        public var sampleCount: Int?
        /// Most samples drawn on one mesh (bounds time and memory for fine spacings).
        public var maxSampleCount = 2_000_000
        /// When set, the reconstruction is first cut to the ground truth's bounding box grown on
        /// every side by this fraction of its diagonal, so background and ground are not scored.
        public var cropMarginFraction: Double?
        /// Seed of the surface sampling (results are reproducible for a seed).
        public var seed: UInt64 = 0
        /// Worker threads for sampling and distance queries.
        public var workers = ProcessInfo.processInfo.activeProcessorCount

        public init() {}
    }

    /// The threshold τ, in metres.
    public var thresholdMetres: Double
    /// Length of the ground truth's bounding-box diagonal, in metres.
    public var groundTruthDiagonalMetres: Double
    /// Fraction (0...1) of reconstruction samples within τ of the ground truth.
    public var precision: Double
    /// Fraction (0...1) of ground-truth samples within τ of the reconstruction.
    public var recall: Double
    /// Harmonic mean of precision and recall (0 when both are 0).
    public var fScore: Double
    /// Mean of the two directions' mean distances, in metres.
    public var chamferDistanceMetres: Double
    /// Reconstruction samples to the ground-truth surface (accuracy; its fraction within τ is
    /// the precision).
    public var reconstructionToGroundTruth: DirectedDistances
    /// Ground-truth samples to the reconstruction (completeness; its fraction within τ is the
    /// recall).
    public var groundTruthToReconstruction: DirectedDistances
    /// The box the reconstruction was cut to (world frame, metres), or nil when not cropped.
    public var cropBox: BoundingBox?
    /// Reconstruction samples (points) dropped by the crop.
    public var samplesOutsideCrop: Int
    /// Fraction (0...1) of the whole reconstruction outside the crop box: of a mesh's area (by
    /// triangle centres), of a point cloud's points. What an object's model keeps of its
    /// surroundings; 0 when not cropped.
    public var outsideCropFraction: Double = 0

    public init(thresholdMetres: Double, groundTruthDiagonalMetres: Double, precision: Double, recall: Double,
                fScore: Double, chamferDistanceMetres: Double, reconstructionToGroundTruth: DirectedDistances,
                groundTruthToReconstruction: DirectedDistances, cropBox: BoundingBox?, samplesOutsideCrop: Int) {
        self.thresholdMetres = thresholdMetres
        self.groundTruthDiagonalMetres = groundTruthDiagonalMetres
        self.precision = precision
        self.recall = recall
        self.fScore = fScore
        self.chamferDistanceMetres = chamferDistanceMetres
        self.reconstructionToGroundTruth = reconstructionToGroundTruth
        self.groundTruthToReconstruction = groundTruthToReconstruction
        self.cropBox = cropBox
        self.samplesOutsideCrop = samplesOutsideCrop
    }
}
