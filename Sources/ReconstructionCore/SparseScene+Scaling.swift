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

extension SparseScene {
    /// The scene expressed in the frame `newFromWorld` maps to: points moved by it, each camera
    /// re-posed so it sees the moved points where it saw the old ones (lengths scale with it).
    public func transformed(by newFromWorld: SimilarityTransform) -> SparseScene {
        var out = self
        let r = newFromWorld.rotation, t = newFromWorld.translation, s = newFromWorld.scale
        for i in out.images.indices {
            guard let pose = out.images[i].cameraFromWorld else { continue }
            // p_cam · s = Rc Rᵀ (p_new − t) + s tc: a rigid camera in the new frame's units.
            let rotation = pose.rotation * r.transposed
            out.images[i].cameraFromWorld = RigidTransform(rotation: rotation, translation: pose.translation * s - rotation * t)
        }
        for i in out.points.indices { out.points[i].position = newFromWorld.apply(out.points[i].position) }
        return out
    }
}
