extension SparseScene {
    /// The scene with every length multiplied by `factor` (camera centres and points; rotations
    /// unchanged), e.g. to metres once depth data fixed the scale.
    public func scaled(by factor: Double) -> SparseScene {
        var out = self
        for i in out.images.indices {
            if let pose = out.images[i].cameraFromWorld {
                out.images[i].cameraFromWorld = RigidTransform(rotation: pose.rotation, translation: pose.translation * factor)
            }
        }
        for i in out.points.indices { out.points[i].position = out.points[i].position * factor }
        return out
    }
}
