extension CameraIntrinsics {
    /// Normalised image coordinates (distortion removed) of a pixel: the ray (u, v, 1) in the camera frame.
    public func normalized(x: Double, y: Double) -> (u: Double, v: Double) {
        let ud = (x - cx) / fx, vd = (y - cy) / fy
        guard hasDistortion else { return (ud, vd) }
        // Fixed-point inversion of the radial model; converges in a few steps for moderate distortion.
        var u = ud, v = vd
        for _ in 0..<20 {
            let r2 = u * u + v * v
            let d = 1 + k1 * r2 + k2 * r2 * r2
            u = ud / d
            v = vd / d
        }
        return (u, v)
    }

    /// The mean focal length in pixels.
    public var meanFocalLength: Double { (fx + fy) / 2 }
}
