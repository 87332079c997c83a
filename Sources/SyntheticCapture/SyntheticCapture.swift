import Foundation
import ReconstructionCore
import Rendering

/// A synthetic Object Capture-style capture with exact truth: an object on a plain floor, photographed
/// from orbits at three heights (and, for objects to be flipped, a second pass with the object upside
/// down), with masks, LiDAR-like depth, confidence and gravity per view.
///
/// Views are rendered on demand by `view(at:)`, deterministically from the settings and the view's
/// index alone, so callers may render them in any order and in parallel (`parallelMap`) and need not
/// hold a whole capture in memory. Poses are in the object's frame (metres, z up, resting on z = 0 in
/// the first pass); gravity is the physical one.
public struct SyntheticCapture: Sendable {
    public let settings: Settings
    /// Intrinsics of the photos: pinhole, fx = fy, principal point at the image centre, no distortion.
    public let intrinsics: CameraIntrinsics
    /// Intrinsics of the LiDAR depth maps (same camera and pose, lower resolution).
    public let depthIntrinsics: CameraIntrinsics
    /// The ground-truth object surface in its own frame, with vertex normals (no colours).
    public let objectMesh: TriangleMesh
    /// Axis-aligned bounds of the object in its own frame, metres.
    public let objectBounds: BoundingBox
    /// Per pass, the object's physical placement: physical world (z up, floor z = 0) from object frame.
    public let worldFromObjectPerPass: [RigidTransform]
    /// Every view's pose, gravity, pass and name, in capture order.
    public let shots: [SyntheticShot]
    /// Mean distance of the cameras from the object's centre, metres: the bounding sphere's radius
    /// then fills `Settings.frameFill` of the photo's shorter half-side.
    public let meanCameraDistance: Double

    private let passScenes: [PassScene]

    /// Everything a pass renders, in the object's frame.
    private struct PassScene: Sendable {
        /// The object's triangles first, then the floor's.
        var mesh: TriangleMesh
        var faceNormals: [SIMD3<Float>]
        var photoRenderer: MeshRasterizer
        var depthRenderer: MeshRasterizer
    }

    public init(settings: Settings) {
        precondition(settings.views >= 1 && settings.imageWidth >= 4 && settings.imageHeight >= 4, "a capture needs views and pixels")
        precondition(settings.ringElevationsDegrees.count == settings.ringShares.count, "one share per orbit")
        self.settings = settings
        let width = settings.imageWidth, height = settings.imageHeight
        let focal = settings.focalLengthFactor * Double(width)
        intrinsics = CameraIntrinsics(width: width, height: height, fx: focal, fy: focal,
                                      cx: Double(width) / 2, cy: Double(height) / 2)
        depthIntrinsics = intrinsics.scaled(toWidth: settings.depthWidth ?? max(1, width / 4),
                                            height: settings.depthHeight ?? max(1, height / 4))

        let object = SyntheticObject.make(settings.scene)
        objectMesh = object.mesh
        let bounds = object.mesh.bounds!
        let lo = Vector3(Double(bounds.min.x), Double(bounds.min.y), Double(bounds.min.z))
        let hi = Vector3(Double(bounds.max.x), Double(bounds.max.y), Double(bounds.max.z))
        let box = BoundingBox(centre: 0.5 * (lo + hi), halfExtents: 0.5 * (hi - lo))
        objectBounds = box

        // Pass 1 turns the object over about the x axis, yaws it by 30° and sets it back on the floor.
        var placements = [RigidTransform.identity]
        if settings.hasFlippedPass {
            let flip = Matrix3(rowMajor: [1, 0, 0, 0, -1, 0, 0, 0, -1])
            let yaw = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: Double.pi / 6).matrix
            placements.append(RigidTransform(rotation: yaw * flip, translation: Vector3(0, 0, hi.z)))
        }
        worldFromObjectPerPass = placements

        // Cameras: distance such that the bounding sphere fills `frameFill` of the shorter half-side.
        let radius = box.halfExtents.length
        let halfAngle = atan(settings.frameFill * min(Double(width) / (2 * focal), Double(height) / (2 * focal)))
        let distance = radius / sin(halfAngle)
        meanCameraDistance = distance
        let targets = placements.map { $0.apply(box.centre) }
        let rig = OrbitRig.placements(settings: settings, passes: placements.count, targets: targets, distance: distance)
        let digits = max(4, String(rig.count).count)
        shots = rig.enumerated().map { index, placement in
            let worldFromObject = placements[placement.pass]
            let cameraFromObject = placement.cameraFromWorld * worldFromObject
            let number = String(index + 1)
            return SyntheticShot(
                index: index, name: String(repeating: "0", count: max(0, digits - number.count)) + number,
                pass: placement.pass, ring: placement.ring, worldFromCamera: cameraFromObject.inverse,
                gravity: placement.cameraFromWorld.rotation * Vector3(0, 0, -1))
        }

        let objectTriangles = object.mesh.triangleCount
        let objectAlbedo = object.albedo
        let floorAlbedo = CaptureStudio.floorAlbedo
        let surroundings = settings.surroundings
        passScenes = placements.map { worldFromObject in
            let objectFromWorld = worldFromObject.inverse
            var mesh = object.mesh
            // The object's normals, then the surroundings'.
            let around: TriangleMesh, normals: [SIMD3<Float>]
            switch surroundings {
            case .studio:
                around = CaptureStudio.floor(objectFromWorld: objectFromWorld)
                let up = objectFromWorld.rotation.column(2)  // physical up in the object's frame
                normals = object.mesh.normals + Array(repeating: SIMD3(Float(up.x), Float(up.y), Float(up.z)), count: around.vertexCount)
            case .room:
                around = CaptureStudio.room(objectFromWorld: objectFromWorld)
                normals = object.mesh.normals + around.normals
            }
            mesh.append(around)
            mesh.normals = normals
            var photo = MeshRasterizer.Options()
            photo.supersampling = settings.supersampling
            photo.lighting = CaptureStudio.lighting(objectFromWorld: objectFromWorld)
            photo.background = CaptureStudio.background
            photo.albedo = .procedural { point in
                guard point.triangleIndex >= objectTriangles else { return objectAlbedo(point) }
                switch surroundings {
                case .studio: return floorAlbedo
                case .room:
                    let p = worldFromObject.apply(Vector3(Double(point.position.x), Double(point.position.y), Double(point.position.z)))
                    return CaptureStudio.roomAlbedo(at: SIMD3(Float(p.x), Float(p.y), Float(p.z)), footprint: point.surfaceFootprint)
                }
            }
            var depth = MeshRasterizer.Options()
            depth.supersampling = 1
            let faceNormals = mesh.triangles.map { t in
                let a = mesh.positions[Int(t.x)], b = mesh.positions[Int(t.y)], c = mesh.positions[Int(t.z)]
                let n = simdCross(b - a, c - a)
                return n / simdLength(n)
            }
            return PassScene(mesh: mesh, faceNormals: faceNormals, photoRenderer: MeshRasterizer(options: photo),
                             depthRenderer: MeshRasterizer(options: depth))
        }
    }

    /// Convenience: the capture of `scene` with default settings but for views, seed and size.
    public init(scene: SyntheticSceneKind, views: Int = 40, seed: UInt64 = 1, imageWidth: Int = 1024, imageHeight: Int = 768) {
        self.init(settings: Settings(scene: scene, views: views, seed: seed, imageWidth: imageWidth, imageHeight: imageHeight))
    }

    /// Number of views over all passes.
    public var viewCount: Int { shots.count }

    /// Number of triangles of `objectMesh` (the rendered scene's first triangles).
    public var objectTriangleCount: Int { objectMesh.triangleCount }

    /// Renders view `index`: photo, mask, LiDAR depth and confidence. Deterministic; thread-safe.
    public func view(at index: Int) -> SyntheticView { view(of: shots[index]) }

    /// Renders any shot of this scene (e.g. a camera path of one's own): photo, mask, LiDAR depth
    /// and confidence. The LiDAR noise is seeded by the settings' seed and `shot.index`; `shot.pass`
    /// must be a pass of this capture. Deterministic; thread-safe.
    public func view(of shot: SyntheticShot) -> SyntheticView {
        precondition(passScenes.indices.contains(shot.pass), "shot of a pass this capture does not have")
        let index = shot.index
        let scene = passScenes[shot.pass]
        let cameraFromObject = shot.worldFromCamera.inverse
        let photo = scene.photoRenderer.render(scene.mesh, intrinsics: intrinsics, cameraFromWorld: cameraFromObject)
        let objectTriangles = objectMesh.triangleCount
        let mask = photo.geometry.mask { $0 < objectTriangles }
        let exact = scene.depthRenderer.geometry(of: scene.mesh, intrinsics: depthIntrinsics, cameraFromWorld: cameraFromObject)
        var random = SplitMix64(seed: settings.seed, view: index, stream: 2)
        let lidar = LiDARSimulator.simulate(
            geometry: exact, faceNormals: scene.faceNormals, intrinsics: depthIntrinsics,
            worldFromCamera: shot.worldFromCamera, model: settings.lidar, random: &random)
        return SyntheticView(shot: shot, image: photo.color, mask: mask, depth: lidar.depth, confidence: lidar.confidence)
    }
}
