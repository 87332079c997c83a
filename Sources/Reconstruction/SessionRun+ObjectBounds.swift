import Meshing
import ReconstructionCore

extension SessionRun {
    /// For an object capture whose samples have no masks, when the session isolates the object:
    /// a box around the object's sparse points and their feet on its support. Nil otherwise, or
    /// when the cameras do not surround one place.
    func objectBounds(of scene: SparseScene) -> BoundingBox? {
        guard configuration.isObjectMaskingEnabled, !samples.contains(where: { $0.objectMask != nil }) else { return nil }
        var cameras: [ObjectRegion.Camera] = [], downs: [Vector3] = []
        for (image, sample) in zip(scene.images, samples) {
            guard let pose = image.cameraFromWorld else { continue }
            cameras.append(ObjectRegion.Camera(cameraFromWorld: pose, intrinsics: image.intrinsics))
            if let gravity = sample.gravity { downs.append(pose.rotation.transposed * gravity) }
        }
        let points = scene.points.map(\.position)
        guard let up = ModelFrame.up(fromGravity: downs) ?? ModelFrame.up(fromCameras: cameras.map(\.cameraFromWorld)),
              let region = ObjectRegion.find(cameras: cameras, points: points, up: up),
              let object = ObjectIsolation().sparseObjectPoints(points, region: region, up: up) else { return nil }
        return BoundingBox.estimate(enclosing: object, trimmedFraction: 0.01, marginFraction: 0.05)
    }
}
