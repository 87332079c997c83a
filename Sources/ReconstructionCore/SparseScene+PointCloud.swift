extension SparseScene {
    /// The triangulated points as a point cloud (positions in the scene's world frame, colours
    /// from the keypoints, sRGB in 0…1, no normals).
    public var pointCloud: PointCloud {
        PointCloud(
            positions: points.map { SIMD3<Float>(Float($0.position.x), Float($0.position.y), Float($0.position.z)) },
            colors: points.map { SIMD3<Float>(Float($0.rgb.0), Float($0.rgb.1), Float($0.rgb.2)) / 255 })
    }
}
