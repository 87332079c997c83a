import ReconstructionCore

/// Keeps the depths that other views confirm: a pixel survives when its matching cost is low and
/// enough of its neighbour views see the same surface there (forward-backward reprojection).
public struct DepthConsistencyFilter: Sendable {
    public struct Options: Sendable, Equatable {
        /// Depths with a matching cost above this are dropped (1 − NCC units plus the geometric term).
        public var maxCost: Float = 0.6
        /// Neighbour views that must agree with a depth …
        public var minConsistentViews = 2
        /// … or one, when the view has other neighbours, none of them sees past the point (they
        /// have it hidden behind something nearer, or out of frame) and the depth map is smooth
        /// around it: a surface few views can see, such as the underside of a bulge, and not the
        /// edge of an occluder, where a single agreement is often wrong.
        public var acceptsOneUncontradicted = true
        /// Smooth: up to this many pixels around, the depth map bends by at most
        /// `maxRelativeDepthDifference` (`isSmooth`).
        public var smoothnessRadius = 2
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
                var agreeing = 0, contradicting = 0
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
                    } else if dj > inOther.z * (1 + options.maxRelativeDepthDifference) {
                        contradicting += 1  // the neighbour saw a surface beyond the point
                    }
                }
                let uncontradicted = options.acceptsOneUncontradicted && agreeing >= 1 && others.count >= 2 && contradicting == 0
                if agreeing >= options.minConsistentViews
                    || (uncontradicted && Self.isSmooth(depths, width: width, height: height, column: column, row: row,
                                                         radius: options.smoothnessRadius,
                                                         relativeTolerance: options.maxRelativeDepthDifference)) {
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

    /// Whether the depth map is smooth at (column, row): every pixel up to `radius` away in the
    /// four directions through it is measured, and its inverse depth (affine in the pixel
    /// coordinates across a plane) bends by at most `relativeTolerance` of the centre's between
    /// each opposite pair. A depth edge bends it by the step.
    static func isSmooth(_ depths: [Float], width: Int, height: Int, column: Int, row: Int, radius: Int,
                         relativeTolerance: Float) -> Bool {
        let radius = max(1, radius)
        guard column >= radius, row >= radius, column + radius < width, row + radius < height else { return false }
        let centre = 1 / depths[row * width + column]
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for k in 1...radius {
                let a = depths[(row + k * dy) * width + column + k * dx], b = depths[(row - k * dy) * width + column - k * dx]
                guard a > 0, b > 0, abs(1 / a + 1 / b - 2 * centre) <= 2 * relativeTolerance * centre else { return false }
            }
        }
        return true
    }
}
