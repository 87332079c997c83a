extension SparseScene {
    /// Every image's camera-to-world pose by name (nil where unregistered), for pose scoring.
    public var namedPoses: [NamedPose] {
        images.map { NamedPose(name: $0.name, worldFromCamera: $0.cameraFromWorld?.inverse) }
    }
}
