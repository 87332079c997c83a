import ReconstructionCore

// Apple's names for the session's types, for code ported from RealityKit's PhotogrammetrySession.

extension PhotogrammetrySession {
    /// The type of `outputs` (Apple's `PhotogrammetrySession.Outputs`).
    public typealias Outputs = AsyncStream<Output>
    /// One registered camera of a `.poses` result (Apple's `PhotogrammetrySession.Pose`).
    public typealias Pose = Poses.Pose
}

extension PhotogrammetrySession.Output {
    /// Apple's place for the progress details of `.requestProgressInfo`.
    public typealias ProgressInfo = PhotogrammetrySession.ProgressInfo
}

extension PhotogrammetrySession.Poses.Pose {
    /// The camera's position in the world (Apple's `translation`): the same in any camera axes.
    public var translation: SIMD3<Float> {
        let t = worldFromCamera.translation
        return SIMD3(Float(t.x), Float(t.y), Float(t.z))
    }
}
