import ReconstructionCore

/// Turns a raw extracted mesh into a clean one: coincident vertices welded, degenerate and
/// repeated triangles removed, cropped to a box, small floating components removed, small
/// holes filled, unused vertices dropped.
public struct MeshCleanup: Sendable {
    public struct Options: Sendable, Equatable {
        /// Components smaller than this fraction of the largest component are removed (0 keeps all).
        public var minimumComponentFraction: Double = 0.05
        /// Measure components by surface area (true) or by triangle count (false).
        public var measuresComponentsByArea = true
        /// Optional world box (metres): triangles with a corner outside it are removed.
        public var crop: BoundingBox? = nil
        /// Merge vertices at identical positions before looking for degenerate triangles.
        public var weldsCoincidentVertices = true
        /// Boundary loops of at most this many edges are closed (0 = fill nothing). Loops around
        /// unobserved patches a few voxels wide are short; a scene's outer border is far longer.
        public var maximumHoleEdges = 16
        public init() {}
    }

    /// What the cleanup removed.
    public struct Report: Sendable, Equatable {
        /// Triangles repeating a vertex (after welding), with a non-finite corner or an out-of-range
        /// index, or repeating another triangle.
        public var degenerateTriangles = 0
        /// Triangles with a corner outside the crop box.
        public var croppedTriangles = 0
        /// Components removed as too small, and their triangles.
        public var removedComponents = 0
        public var removedComponentTriangles = 0
        /// Holes closed.
        public var filledHoles = 0
        /// Vertices removed (welded or no longer used), net of those added to fill holes.
        public var removedVertices = 0
        public init() {}
    }

    public struct Result: Sendable {
        public var mesh: TriangleMesh
        public var report: Report
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    public func clean(_ input: TriangleMesh) -> Result {
        var report = Report()
        var count = input.triangleCount
        var mesh = options.weldsCoincidentVertices ? input.weldingCoincidentVertices() : input
        mesh = mesh.removingDegenerateTriangles()
        report.degenerateTriangles = count - mesh.triangleCount

        if let box = options.crop {
            count = mesh.triangleCount
            mesh = mesh.cropped(to: box)
            report.croppedTriangles = count - mesh.triangleCount
        }

        if options.minimumComponentFraction > 0 {
            count = mesh.triangleCount
            (mesh, report.removedComponents) = mesh.removingSmallComponents(
                minimumFraction: options.minimumComponentFraction, byArea: options.measuresComponentsByArea)
            report.removedComponentTriangles = count - mesh.triangleCount
        }

        if options.maximumHoleEdges >= 3 {
            (mesh, report.filledHoles) = mesh.fillingHoles(maximumEdges: options.maximumHoleEdges)
        }

        mesh = mesh.removingUnreferencedVertices()
        report.removedVertices = input.vertexCount - mesh.vertexCount
        return Result(mesh: mesh, report: report)
    }
}
