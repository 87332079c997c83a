/// How well a sparse model fits its photos: the figures COLMAP's `model_analyzer` prints, per
/// image and overall, computed afresh from the poses, intrinsics, points and keypoints.
public struct SparseSceneFit: Sendable, Equatable {
    /// One image's share of the model.
    public struct ImageFit: Sendable, Equatable {
        /// Observations of reconstructed points in this image (0 when it is not registered).
        public var observations: Int
        /// Mean distance between an observation and its point's projection, pixels; nil without
        /// an observation that projects (a point behind the camera does not count).
        public var meanReprojectionErrorPixels: Double?

        public init(observations: Int, meanReprojectionErrorPixels: Double?) {
            self.observations = observations
            self.meanReprojectionErrorPixels = meanReprojectionErrorPixels
        }
    }

    /// Parallel to the scene's images.
    public var images: [ImageFit]
    public var points: Int
    /// Observations in registered images, over all points.
    public var observations: Int
    /// Observations per point; 0 without points.
    public var meanTrackLength: Double
    /// Mean over the points of each point's mean error over its observations that project,
    /// pixels (as COLMAP's `model_analyzer` and pycolmap's `compute_mean_reprojection_error`
    /// average it); nil if no observation projects.
    public var meanReprojectionErrorPixels: Double?
}

extension SparseScene {
    /// Reprojection errors and counts of the model, per image and overall.
    public func fit() -> SparseSceneFit {
        var count = [Int](repeating: 0, count: images.count)
        var projected = [Int](repeating: 0, count: images.count)
        var errorSum = [Double](repeating: 0, count: images.count)
        var pointErrorSum = 0.0, pointsProjected = 0
        for point in points {
            var sum = 0.0, projections = 0
            defer {
                if projections > 0 {
                    pointErrorSum += sum / Double(projections)
                    pointsProjected += 1
                }
            }
            for observation in point.track {
                let image = images[observation.imageIndex]
                guard let cameraFromWorld = image.cameraFromWorld else { continue }
                count[observation.imageIndex] += 1
                guard let uv = image.intrinsics.project(cameraFromWorld.apply(point.position)) else { continue }
                let keypoint = image.keypoints[observation.keypointIndex]
                let dx = uv.x - Double(keypoint.x), dy = uv.y - Double(keypoint.y)
                let error = (dx * dx + dy * dy).squareRoot()
                errorSum[observation.imageIndex] += error
                projected[observation.imageIndex] += 1
                sum += error
                projections += 1
            }
        }
        let imageFits = images.indices.map { i in
            SparseSceneFit.ImageFit(observations: count[i],
                                    meanReprojectionErrorPixels: projected[i] > 0 ? errorSum[i] / Double(projected[i]) : nil)
        }
        let observations = count.reduce(0, +)
        return SparseSceneFit(
            images: imageFits, points: points.count, observations: observations,
            meanTrackLength: points.isEmpty ? 0 : Double(observations) / Double(points.count),
            meanReprojectionErrorPixels: pointsProjected > 0 ? pointErrorSum / Double(pointsProjected) : nil)
    }
}
