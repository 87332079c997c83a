import ReconstructionCore

/// A depth map with its camera, asked whether it saw past a point: a surface measured farther
/// along the point's ray means the point lies in free space.
public struct FreeSpaceProbe: Sendable {
    let camera: ProjectiveCamera
    let depth: DepthMap

    /// Nil when the camera holds unusable values. `intrinsics` are at the depth map's resolution.
    public init?(depth: DepthMap, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform) {
        guard let camera = ProjectiveCamera(intrinsics: intrinsics, worldFromCamera: worldFromCamera) else { return nil }
        self.camera = camera
        self.depth = depth
    }

    /// Whether the depth map measured a surface more than `margin` beyond `point` (world) along
    /// its ray.
    public func seesPast(_ point: SIMD3<Float>, margin: Float) -> Bool {
        let p = camera.cameraPoint(point)
        guard p.z > 0 else { return false }
        // Pinhole, without the photo's radial distortion: the carving was measured this way
        // (Benchmarks/dense.md); with the self-calibrated k1 of the bundled example applied to
        // its LiDAR maps, far fewer voxels counted as seen past and the fill left stray sheets.
        let pixel = SIMD2(camera.fx * p.x / p.z + camera.cx, camera.fy * p.y / p.z + camera.cy)
        guard pixel.x >= 0, pixel.y >= 0, pixel.x < Float(depth.width), pixel.y < Float(depth.height) else { return false }
        let measured = depth[Int(pixel.x), Int(pixel.y)]
        return measured > 0 && measured.isFinite && p.z < measured - margin
    }
}

/// Depth maps that vote on free space: a point is shown empty when at least `minimumViews` of
/// them saw a surface more than `margin` beyond it along its ray (one stray depth does not carve).
public struct FreeSpace: Sendable {
    public let probes: [FreeSpaceProbe]
    public let margin: Float
    public let minimumViews: Int

    public init(probes: [FreeSpaceProbe], margin: Float, minimumViews: Int = 2) {
        self.probes = probes
        self.margin = margin
        self.minimumViews = max(1, minimumViews)
    }

    /// Whether at least `minimumViews` probes see past `point`.
    public func showsEmpty(_ point: SIMD3<Float>) -> Bool {
        var seenPast = 0
        for probe in probes where probe.seesPast(point, margin: margin) {
            seenPast += 1
            if seenPast >= minimumViews { return true }
        }
        return false
    }
}
