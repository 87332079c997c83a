import ReconstructionCore

/// Turns a raw extracted mesh into a clean one: coincident vertices welded, degenerate and
/// repeated triangles removed, cropped to a box, small floating components removed, unused
/// vertices dropped.
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
        /// Vertices removed (welded or no longer used).
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
            let before = mesh.triangleComponents().count
            mesh = mesh.removingSmallComponents(minimumFraction: options.minimumComponentFraction,
                                                byArea: options.measuresComponentsByArea)
            report.removedComponentTriangles = count - mesh.triangleCount
            report.removedComponents = before - mesh.removingUnreferencedVertices().triangleComponents().count
        }

        mesh = mesh.removingUnreferencedVertices()
        report.removedVertices = input.vertexCount - mesh.vertexCount
        return Result(mesh: mesh, report: report)
    }
}
