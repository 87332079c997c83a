import ReconstructionCore

/// Keeps the depths that other views confirm: a pixel survives when its matching cost is low and
/// enough of its neighbour views see the same surface there (forward-backward reprojection).
public struct DepthConsistencyFilter: Sendable {
    public struct Options: Sendable, Equatable {
        /// Depths with a matching cost above this are dropped (1 − NCC units plus the geometric term).
        public var maxCost: Float = 0.6
        /// Neighbour views that must agree with a depth.
        public var minConsistentViews = 2
        /// Agreement: the neighbour's surface point seen back in this view lands within this
        /// many pixels …
        public var maxReprojectionErrorPixels: Float = 1
        /// … and within this relative depth difference.
        public var maxRelativeDepthDifference: Float = 0.01
        /// Confidence reaches 1 when this many neighbours agree (and the cost is 0).
        public var viewsForFullConfidence = 3
        public init() {}
    }

    /// A neighbour view's camera and its (unfiltered) depth map.
    public struct Neighbour: Sendable {
        public var intrinsics: CameraIntrinsics
        public var worldFromCamera: RigidTransform
        public var depth: DepthMap
        public init(intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform, depth: DepthMap) {
            self.intrinsics = intrinsics
            self.worldFromCamera = worldFromCamera
            self.depth = depth
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Filters `view` (raw depths and normals, `costs` per pixel) against its neighbours' depth
    /// maps (unfiltered depths are fine: agreement needs both to be right). Returns the view with
    /// dropped depths set to 0, their normals zeroed and a confidence per pixel. Rows are shared
    /// among `workers` threads.
    public func filter(_ view: ViewDepth, costs: [Float], neighbours: [Neighbour], workers: Int = 1) -> ViewDepth {
        let reference = PinholeProjector(intrinsics: view.intrinsics, worldFromCamera: view.worldFromCamera)
        let others = neighbours.map {
            (projector: PinholeProjector(intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera), depth: $0.depth.metres)
        }
        let width = view.depth.width, height = view.depth.height
        let depths = view.depth.metres
        let maxError2 = options.maxReprojectionErrorPixels * options.maxReprojectionErrorPixels
        let fullViews = Float(max(1, options.viewsForFullConfidence))
        let options = self.options
        // Per row: the confidence of each pixel (0 = dropped).
        let rows = parallelMap(height, workers: workers) { row -> [Float] in
            var confidence = [Float](repeating: 0, count: width)
            for column in 0..<width {
                let i = row * width + column
                let d = depths[i]
                guard d > 0, costs[i] <= options.maxCost else { continue }
                let world = reference.toWorld(reference.backProject(column: column, row: row, depth: d))
                let pixel = SIMD2<Float>(Float(column) + 0.5, Float(row) + 0.5)
                var agreeing = 0
                for other in others {
                    let inOther = other.projector.toCamera(world)
                    guard let q = other.projector.project(inOther), let j = other.projector.pixelIndex(q) else { continue }
                    let dj = other.depth[j]
                    guard dj > 0 else { continue }
                    let back = reference.toCamera(other.projector.toWorld(other.projector.backProject(x: q.x, y: q.y, depth: dj)))
                    guard let p = reference.project(back) else { continue }
                    let e = p - pixel
                    if (e * e).sum() <= maxError2, abs(back.z - d) <= options.maxRelativeDepthDifference * d {
                        agreeing += 1
                    }
                }
                if agreeing >= options.minConsistentViews {
                    // Never exactly 0 for a kept depth (0 marks a dropped one).
                    confidence[column] = max(1e-3, min(1, 1 - costs[i]) * min(1, Float(agreeing) / fullViews))
                }
            }
            return confidence
        }
        var result = view
        result.confidence = rows.flatMap { $0 }
        var normals = view.normalsInCamera.count == width * height ? view.normalsInCamera : []
        for i in 0..<(width * height) where result.confidence[i] == 0 {
            result.depth.metres[i] = 0
            if !normals.isEmpty { normals[i] = .zero }
        }
        result.normalsInCamera = normals
        return result
    }
}
