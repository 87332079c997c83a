import Meshing
import ReconstructionCore

extension SessionRun {
    /// For an object capture whose samples have no masks, when the session isolates the object:
    /// a box around the object's sparse points and their feet on its support. Nil otherwise, or
    /// when the cameras do not surround one place.
    func objectBounds(of scene: SparseScene) -> BoundingBox? {
        guard configuration.isObjectMaskingEnabled, !samples.contains(where: { $0.objectMask != nil }) else { return nil }
        let registered = zip(scene.images, samples).filter { $0.0.isRegistered }
        let cameras = registered.map { ObjectRegion.Camera(cameraFromWorld: $0.0.cameraFromWorld!, intrinsics: $0.0.intrinsics) }
        let points = scene.points.map(\.position)
        guard let up = scene.up(samples: samples),
              let region = ObjectRegion.find(cameras: cameras, points: points, up: up),
              let object = try? ObjectIsolation().sparseObjectPoints(points, region: region, up: up).get() else { return nil }
        return BoundingBox.estimate(enclosing: object, trimmedFraction: 0.01, marginFraction: 0.05)
    }
}

extension SparseScene {
    /// The world's up direction (`ModelFrame.up`) from the registered cameras and what their
    /// samples say of gravity and orientation; `samples` are the scene's images' samples, in order.
    public func up(samples: [PhotogrammetrySample]) -> Vector3? {
        let registered = zip(images, samples).filter { $0.0.isRegistered }
        return ModelFrame.up(cameraFromWorld: registered.map { $0.0.cameraFromWorld! }, gravityInCamera: registered.map(\.1.gravity),
                             exifOrientations: registered.map(\.1.orientation))
    }
}
