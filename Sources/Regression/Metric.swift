/// Names of the metrics a regression run produces (keys of thresholds and reports).
public enum Metric {
    /// Registered images / all images.
    public static let registeredFraction = "poses.registered_fraction"
    /// Camera-centre error after similarity alignment, metres.
    public static let positionErrorMedian = "poses.position_error_median_m"
    public static let positionErrorMax = "poses.position_error_max_m"
    /// Camera-centre error divided by the scene size (diagonal of the true camera centres' bounding box).
    public static let positionErrorMedianRelative = "poses.position_error_median_relative"
    /// Rotation error after alignment, degrees.
    public static let rotationErrorMedian = "poses.rotation_error_median_deg"
    public static let rotationErrorMax = "poses.rotation_error_max_deg"
    /// Wall time of the pose stage, seconds (recorded, not a good threshold on shared machines).
    public static let posesSeconds = "poses.seconds"

    /// Dense surface against the true mesh at 1 % of its box diagonal (synthetic captures).
    public static let surfacePrecision = "surface.precision"
    public static let surfaceRecall = "surface.recall"
    public static let surfaceFScore = "surface.fscore"
    /// Fraction of the dense surface's area outside the true mesh's box (grown by 5 % of its
    /// diagonal): surroundings kept in an object's model.
    public static let surfaceOutsideFraction = "surface.outside_fraction"
    /// Mean PSNR (dB) of the reduced model's base colour rendered from held-out photos' cameras.
    public static let texturePSNR = "model.texture_psnr_db"
    /// Triangles of the reduced model.
    public static let modelTriangles = "model.triangles"
    /// Wall times of the dense stages and of the model stages, seconds (recorded).
    public static let denseSeconds = "dense.seconds"
    public static let modelSeconds = "model.seconds"

    public static let all: Set<String> = [
        registeredFraction, positionErrorMedian, positionErrorMax, positionErrorMedianRelative,
        rotationErrorMedian, rotationErrorMax, posesSeconds, surfacePrecision, surfaceRecall, surfaceFScore, surfaceOutsideFraction,
        texturePSNR, modelTriangles, denseSeconds, modelSeconds,
    ]
}
