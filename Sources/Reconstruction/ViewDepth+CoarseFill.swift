import ReconstructionCore

extension ViewDepth {
    /// This view with its empty pixels filled from `coarse`, the same camera's filtered depth at a
    /// lower resolution. Weakly textured surfaces (dark doors, plain walls) often match at half
    /// resolution, where a window covers twice the surface, but not at full resolution; the full
    /// resolution's depths are kept wherever they survived filtering.
    ///
    /// Each empty pixel takes the plane of the coarse pixel it lies in (its normal, and the depth
    /// where the pixel's own ray meets that plane), with the coarse confidence times
    /// `confidenceScale`. Pixels outside `mask` (zero bytes; nil = everywhere allowed) stay empty.
    /// - Returns: the view and the number of pixels filled.
    public func fillingEmptyPixels(from coarse: ViewDepth, mask: GrayImage? = nil,
                                   confidenceScale: Float = 0.5) -> (view: ViewDepth, filled: Int) {
        let width = depth.width, height = depth.height
        guard coarse.depth.width > 0, coarse.depth.height > 0,
              coarse.confidence.count == coarse.depth.width * coarse.depth.height,
              coarse.normalsInCamera.count == coarse.confidence.count else { return (self, 0) }
        if let mask, mask.width != width || mask.height != height { return (self, 0) }
        // The plane transfer of the coarse-to-fine start, carrying confidence in the cost slot.
        let planes = DepthMapEstimator.Estimate(depth: coarse.depth, normalsInCamera: coarse.normalsInCamera,
                                                costs: coarse.confidence)
            .upsampled(from: coarse.intrinsics, to: intrinsics)
        var result = self
        let pixelCount = width * height
        if result.confidence.count != pixelCount {
            result.confidence = depth.metres.map { $0 > 0 ? 1 : 0 }
        }
        let fillsNormals = result.normalsInCamera.count == pixelCount
        var filled = 0
        for i in 0..<pixelCount where result.depth.metres[i] <= 0 && planes.depth.metres[i] > 0 {
            if let mask, mask.pixels[i] == 0 { continue }
            let confidence = planes.costs[i] * confidenceScale
            guard confidence > 0 else { continue }
            result.depth.metres[i] = planes.depth.metres[i]
            result.confidence[i] = confidence
            if fillsNormals { result.normalsInCamera[i] = planes.normalsInCamera[i] }
            filled += 1
        }
        return (result, filled)
    }
}
