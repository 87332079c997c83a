import Foundation
/// Where the object of an object capture is, found from the cameras and the sparse points alone
/// (no masks): the region nearly every photo frames.
///
/// A capture is taken to be of an object when its cameras look at one place from around it: the
/// point their optical axes pass closest to (the focus) lies in front of nearly every camera, near
/// the middle of its photo, and the cameras' directions from it, seen along the up direction,
/// leave no gap wider than `Options.maximumAzimuthGapDegrees`. A facade photographed from the
/// street, a courtyard photographed from inside or a walk-through fails these tests and has no
/// object region. The region is then the box around the sparse points that nearly every photo has
/// in frame: the object and the patch of its support around it, but not the room behind it, which
/// only the photos facing that way frame.
public struct ObjectRegion: Sendable, Equatable {
    /// The point the cameras' optical axes pass closest to (least squares), world frame.
    public var focus: Vector3
    /// Box around the sparse points in the region (world frame, scene units).
    public var box: BoundingBox
    /// Cameras that frame the focus near the middle of their photo.
    public var framingCameras: Int
    /// Cameras considered.
    public var cameraCount: Int
    /// The cameras the region was found from, and how many of them must frame a point (with
    /// what margin) for it to be where nearly every photo looks (`isFramedByNearlyEvery(_:)`).
    public var cameras: [Camera] = []
    public var framingNeeded = 0
    public var frameMarginFraction = 0.0

    public struct Options: Sendable, Equatable {
        /// Registered cameras an object capture has at least.
        public var minimumCameras = 6
        /// At least this fraction of the photos must have the focus in front of them, near their middle.
        public var focusFramingFraction = 0.8
        /// "Near the middle": within this fraction of the half-width and of the half-height from the
        /// principal point.
        public var focusCentreFraction = 0.6
        /// Largest gap allowed between the cameras' azimuths around the focus, about the up
        /// direction, degrees (180: the cameras must surround the object at least half-way).
        public var maximumAzimuthGapDegrees = 180.0
        /// A sparse point is in the region when at least this fraction of the photos frame it.
        public var pointFramingFraction = 0.8
        /// Points within this fraction of the image size of its border count as out of frame.
        public var frameMarginFraction = 0.02
        /// Sparse points the region needs; with fewer there is no region.
        public var minimumPoints = 20
        /// At most this many sparse points are examined (evenly strided).
        public var maximumPointsExamined = 20_000
        /// The box spans these quantiles of the region's points along each axis …
        public var trimmedFraction = 0.01
        /// … grown by this fraction of its size on every side.
        public var marginFraction = 0.1
        public init() {}
    }

    /// A registered camera: its pose and intrinsics.
    public struct Camera: Sendable, Equatable {
        public var cameraFromWorld: RigidTransform
        public var intrinsics: CameraIntrinsics

        public init(cameraFromWorld: RigidTransform, intrinsics: CameraIntrinsics) {
            self.cameraFromWorld = cameraFromWorld
            self.intrinsics = intrinsics
        }
    }

    /// The object region of a capture, or nil when the cameras do not surround one place (or too
    /// few points lie where they all look). `up` is the world's up direction (any length).
    public static func find(cameras: [Camera], points: [Vector3], up: Vector3, options: Options = Options()) -> ObjectRegion? {
        guard cameras.count >= max(options.minimumCameras, 2), up.length > 0,
              let focus = focus(of: cameras.map(\.cameraFromWorld)) else { return nil }
        let framing = cameras.filter { frames(focus, $0, within: options.focusCentreFraction) }.count
        guard Double(framing) >= options.focusFramingFraction * Double(cameras.count),
              let gap = largestAzimuthGap(around: focus, of: cameras.map(\.cameraFromWorld.cameraCentreInWorld), up: up),
              gap <= options.maximumAzimuthGapDegrees * .pi / 180 else { return nil }

        let step = max(1, (points.count + options.maximumPointsExamined - 1) / max(1, options.maximumPointsExamined))
        let needed = Int((options.pointFramingFraction * Double(cameras.count)).rounded(.up))
        var inside: [Vector3] = []
        for index in Swift.stride(from: 0, to: points.count, by: step) {
            let point = points[index]
            var framed = 0
            for camera in cameras where isInFrame(point, camera, margin: options.frameMarginFraction) { framed += 1 }
            if framed >= needed { inside.append(point) }
        }
        guard inside.count >= options.minimumPoints,
              let box = BoundingBox.estimate(enclosing: inside.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) },
                                             trimmedFraction: options.trimmedFraction, marginFraction: options.marginFraction)
        else { return nil }
        return ObjectRegion(focus: focus, box: box, framingCameras: framing, cameraCount: cameras.count,
                            cameras: cameras, framingNeeded: needed, frameMarginFraction: options.frameMarginFraction)
    }

    /// Whether `point` (world frame) is in frame in nearly every photo, as the region's sparse
    /// points are (`Options.pointFramingFraction` of its cameras, away from their borders).
    public func isFramedByNearlyEvery(_ point: SIMD3<Float>) -> Bool {
        let p = Vector3(Double(point.x), Double(point.y), Double(point.z))
        var framed = 0, left = cameras.count
        for camera in cameras {
            if Self.isInFrame(p, camera, margin: frameMarginFraction) { framed += 1 }
            left -= 1
            if framed >= framingNeeded { return true }
            if framed + left < framingNeeded { return false }
        }
        return framed >= framingNeeded
    }

    /// The point nearest, in least squares, to every camera's optical axis; nil when the axes are
    /// (nearly) parallel, which a capture around an object never has.
    static func focus(of cameraFromWorld: [RigidTransform]) -> Vector3? {
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [0.0, 0.0, 0.0]
        for pose in cameraFromWorld {
            let axis = pose.rotation.row(2).array  // the camera's z axis in the world
            let centre = pose.cameraCentreInWorld.array
            for i in 0..<3 {
                for j in 0..<3 {
                    let projector = (i == j ? 1 : 0) - axis[i] * axis[j]
                    a[i][j] += projector
                    b[i] += projector * centre[j]
                }
            }
        }
        let eigen = SymmetricEigen(a)
        // The smallest eigenvalue is the spread of the axes' directions about the worst direction:
        // nearly parallel axes meet nowhere in particular.
        guard let smallest = eigen.values.last, smallest > 0.02 * Double(cameraFromWorld.count) else { return nil }
        var solution = [0.0, 0.0, 0.0]
        for (value, vector) in zip(eigen.values, eigen.vectors) {
            let coefficient = zip(vector, b).reduce(0) { $0 + $1.0 * $1.1 } / value
            for i in 0..<3 { solution[i] += coefficient * vector[i] }
        }
        return Vector3(solution[0], solution[1], solution[2])
    }

    /// Whether `point` is in front of `camera` and projects within `fraction` of the half-width
    /// and half-height from its principal point.
    static func frames(_ point: Vector3, _ camera: Camera, within fraction: Double) -> Bool {
        let k = camera.intrinsics
        guard let pixel = k.project(camera.cameraFromWorld.apply(point)) else { return false }
        return abs(pixel.x - k.cx) <= fraction * Double(k.width) / 2 && abs(pixel.y - k.cy) <= fraction * Double(k.height) / 2
    }

    /// Whether `point` is in front of `camera` and inside its photo, `margin` (a fraction of the
    /// photo's size) away from the border.
    static func isInFrame(_ point: Vector3, _ camera: Camera, margin: Double) -> Bool {
        let k = camera.intrinsics
        guard let pixel = k.project(camera.cameraFromWorld.apply(point)) else { return false }
        let mx = margin * Double(k.width), my = margin * Double(k.height)
        return pixel.x >= mx && pixel.x <= Double(k.width) - mx && pixel.y >= my && pixel.y <= Double(k.height) - my
    }

    /// The widest angle (radians) between neighbouring azimuths of `centres` around the axis
    /// through `focus` along `up`; nil when fewer than two centres are off that axis.
    static func largestAzimuthGap(around focus: Vector3, of centres: [Vector3], up: Vector3) -> Double? {
        let u = up.normalized
        let helper = abs(u.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let e1 = u.cross(helper).normalized, e2 = u.cross(e1)
        var azimuths: [Double] = []
        for centre in centres {
            let v = centre - focus
            let horizontal = v - v.dot(u) * u
            guard horizontal.length > 1e-6 * max(v.length, 1e-12) else { continue }
            azimuths.append(atan2(horizontal.dot(e2), horizontal.dot(e1)))
        }
        guard azimuths.count >= 2 else { return nil }
        azimuths.sort()
        var gap = azimuths[0] + 2 * .pi - azimuths[azimuths.count - 1]
        for i in 1..<azimuths.count { gap = max(gap, azimuths[i] - azimuths[i - 1]) }
        return gap
    }
}
