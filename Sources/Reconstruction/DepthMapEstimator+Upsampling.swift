import ReconstructionCore

extension DepthMapEstimator.Estimate {
    /// This estimate, made for a camera with `coarse` intrinsics, carried to the same camera at a
    /// finer resolution: each fine pixel takes the plane of the coarse pixel it lies in (same
    /// normal, depth where its own ray meets that plane). Costs are carried unchanged.
    public func upsampled(from coarse: CameraIntrinsics, to fine: CameraIntrinsics) -> DepthMapEstimator.Estimate {
        let width = fine.width, height = fine.height
        var depth = [Float](repeating: 0, count: width * height)
        var normals = [SIMD3<Float>](repeating: .zero, count: width * height)
        var costs = [Float](repeating: 2, count: width * height)
        let sx = Double(coarse.width) / Double(width), sy = Double(coarse.height) / Double(height)
        let coarseWidth = self.depth.width, coarseHeight = self.depth.height
        for y in 0..<height {
            let cy = min(coarseHeight - 1, Int((Double(y) + 0.5) * sy))
            let rayY = Float((Double(y) + 0.5 - fine.cy) / fine.fy)
            let coarseRayY = Float((Double(cy) + 0.5 - coarse.cy) / coarse.fy)
            for x in 0..<width {
                let cx = min(coarseWidth - 1, Int((Double(x) + 0.5) * sx))
                let c = cy * coarseWidth + cx
                let d = self.depth.metres[c]
                guard d > 0 else { continue }
                let n = normalsInCamera[c]
                let coarseRay = SIMD3<Float>(Float((Double(cx) + 0.5 - coarse.cx) / coarse.fx), coarseRayY, 1)
                let ray = SIMD3<Float>(Float((Double(x) + 0.5 - fine.cx) / fine.fx), rayY, 1)
                let denominator = (n * ray).sum()
                var fineDepth = d
                if denominator < -1e-3 {
                    let transferred = d * (n * coarseRay).sum() / denominator
                    if transferred > 0.5 * d, transferred < 2 * d { fineDepth = transferred }
                }
                let i = y * width + x
                depth[i] = fineDepth
                normals[i] = n
                costs[i] = self.costs[c]
            }
        }
        return DepthMapEstimator.Estimate(depth: DepthMap(width: width, height: height, metres: depth),
                                          normalsInCamera: normals, costs: costs)
    }
}
