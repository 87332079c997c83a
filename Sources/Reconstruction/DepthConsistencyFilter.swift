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

    /// One view's estimate before filtering: its raw depths, normals and costs.
    public struct Candidate: Sendable {
        public var view: ViewDepth
        /// Matching cost per pixel (lower is better).
        public var costs: [Float]
        public init(view: ViewDepth, costs: [Float]) {
            self.view = view
            self.costs = costs
        }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Filters view `index` against its neighbours' depth maps (unfiltered depths of the others
    /// are fine: agreement needs both to be right). Returns the view with dropped depths set to 0,
    /// their normals zeroed and a confidence per pixel.
    public func filter(_ index: Int, in candidates: [Candidate]) -> ViewDepth {
        let candidate = candidates[index]
        var view = candidate.view
        let reference = PinholeProjector(intrinsics: view.intrinsics, worldFromCamera: view.worldFromCamera)
        let neighbours = view.neighbours.filter { $0 != index && candidates.indices.contains($0) }.map { j in
            (projector: PinholeProjector(intrinsics: candidates[j].view.intrinsics,
                                         worldFromCamera: candidates[j].view.worldFromCamera),
             depth: candidates[j].view.depth.metres)
        }
        let width = view.depth.width, height = view.depth.height
        var depth = view.depth.metres
        var normals = view.normalsInCamera.isEmpty ? [SIMD3<Float>](repeating: .zero, count: width * height) : view.normalsInCamera
        var confidence = [Float](repeating: 0, count: width * height)
        let maxError2 = options.maxReprojectionErrorPixels * options.maxReprojectionErrorPixels
        let fullViews = Float(max(1, options.viewsForFullConfidence))
        candidate.costs.withUnsafeBufferPointer { costs in
            for row in 0..<height {
                for column in 0..<width {
                    let i = row * width + column
                    let d = depth[i]
                    guard d > 0, costs[i] <= options.maxCost else {
                        depth[i] = 0
                        normals[i] = .zero
                        continue
                    }
                    let world = reference.toWorld(reference.backProject(column: column, row: row, depth: d))
                    let pixel = SIMD2<Float>(Float(column) + 0.5, Float(row) + 0.5)
                    var agreeing = 0
                    for neighbour in neighbours {
                        let inNeighbour = neighbour.projector.toCamera(world)
                        guard let q = neighbour.projector.project(inNeighbour),
                              let j = neighbour.projector.pixelIndex(q) else { continue }
                        let dj = neighbour.depth[j]
                        guard dj > 0 else { continue }
                        let back = reference.toCamera(neighbour.projector.toWorld(
                            neighbour.projector.backProject(x: q.x, y: q.y, depth: dj)))
                        guard let p = reference.project(back) else { continue }
                        let e = p - pixel
                        if (e * e).sum() <= maxError2, abs(back.z - d) <= options.maxRelativeDepthDifference * d {
                            agreeing += 1
                        }
                    }
                    if agreeing >= options.minConsistentViews {
                        confidence[i] = max(0, min(1, 1 - costs[i])) * min(1, Float(agreeing) / fullViews)
                    } else {
                        depth[i] = 0
                        normals[i] = .zero
                    }
                }
            }
        }
        view.depth = DepthMap(width: width, height: height, metres: depth)
        view.normalsInCamera = normals
        view.confidence = confidence
        return view
    }
}
