import Foundation
import ReconstructionCore

/// Builds a texture atlas for a triangle mesh: charts that project orthographically onto their
/// own plane (no flips, no fold-overs, bounded tilt), all at one texel density, packed into a
/// square texture with empty gutters between them and at the border.
///
/// Positions, normals and triangles (order and count) are kept; only `uvs` and `uvTriangles` are
/// added. Within a chart, corners at the same position share one UV; seams duplicate UVs. UVs
/// follow `TexturedMesh`'s convention (u right, v down) and charts are never mirrored, so the
/// (u, 1 − v) tangent frame is right-handed. Deterministic: the same input gives the same atlas.
public struct UVAtlasBuilder: Sendable {
    public struct Options: Sendable, Equatable {
        /// Side of the square texture, texels (any size from 16; the pipeline uses 1024…16384).
        public var textureSize = 2048
        /// Empty texels between charts and between a chart and the texture's border; nil: one texel
        /// per 512 of `textureSize`, at least 2 (4 at 2048), so the gutter survives the same number
        /// of mip levels at every size.
        public var paddingTexels: Int? = nil
        /// Half-angle of the cone, degrees, within which a triangle's normal must stay of its
        /// chart's running mean normal for the chart to grow over it.
        public var maximumChartNormalAngleDegrees = 65.0
        /// Steepest angle, degrees, between a triangle's normal and the plane normal its chart is
        /// projected along (bounds the stretch to 1 / cos of it). Also the limit for merging.
        public var maximumProjectionAngleDegrees = 75.0
        /// Charts with fewer triangles than this join a neighbouring chart whose plane they fit.
        public var smallChartTriangleCount = 16
        /// How strongly charts prefer to grow round rather than along the flattest direction:
        /// weight of a triangle's distance from the chart's centroid, in units of the square root
        /// of the chart's area, against its normal's deviation (1 − cos) when choosing what to
        /// grow over next (0: flattest first). Round charts pack tighter and have shorter seams.
        public var chartCompactness = 1.0
        /// Cells across the packing grid at most: larger textures pack in cells of several texels,
        /// so packing time does not grow with the texture (gutters are rounded up to whole cells).
        public var maximumPackingGridCells = 2048

        public init() {}

        /// The padding used: `paddingTexels` or its default.
        public var resolvedPaddingTexels: Int { paddingTexels ?? max(2, textureSize / 512) }
    }

    public struct Result: Sendable {
        /// The input geometry with its atlas.
        public var mesh: TexturedMesh
        /// Chart of each triangle, 0..<`chartCount`.
        public var chartIndices: [Int32]
        public var chartCount: Int
        /// Fraction of the texture's area covered by UV triangles (≈ covered texels / all texels).
        public var utilisation: Double
        /// World units (metres) per texel, the same for every chart. 0 for a mesh without area, and
        /// when the charts could not be packed at all (more charts than the texture has cells even
        /// without gutters): every UV then collapses onto one point.
        public var metresPerTexel: Double
        /// Gutter actually kept, texels (less than asked only when the charts fit no other way).
        public var paddingTexels: Int
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The atlas of `mesh` (normals are computed when it has none). Triangle indices must be valid.
    public func build(_ mesh: TriangleMesh) -> Result {
        precondition(options.textureSize >= 16, "UVAtlasBuilder needs a texture of at least 16 texels")
        let normals = mesh.hasNormals ? mesh.normals : mesh.computedVertexNormals()
        let n = mesh.triangleCount
        guard n > 0 else {
            return Result(mesh: TexturedMesh(positions: mesh.positions, normals: normals, triangles: [], uvs: [], uvTriangles: []),
                          chartIndices: [], chartCount: 0, utilisation: 0, metresPerTexel: 0,
                          paddingTexels: options.resolvedPaddingTexels)
        }
        let adjacency = TriangleAdjacency(triangles: mesh.triangles, vertexCount: mesh.vertexCount)
        let degrees = Double.pi / 180
        let parameters = ChartSegmentation.Parameters(
            growthCosine: cos(min(89, max(1, options.maximumChartNormalAngleDegrees)) * degrees),
            projectionCosine: cos(min(89, max(1, options.maximumProjectionAngleDegrees, options.maximumChartNormalAngleDegrees)) * degrees),
            smallChartTriangles: options.smallChartTriangleCount, compactness: max(0, options.chartCompactness))
        let segmentation = ChartSegmentation(positions: mesh.positions, triangles: mesh.triangles,
                                             adjacency: adjacency, parameters: parameters)
        let charts = ChartSet(positions: mesh.positions, triangles: mesh.triangles, adjacency: adjacency,
                              chartOf: segmentation.chartOf, frames: segmentation.frames)

        // Pack; if the charts cannot fit with the asked gutter (absurdly many), halve it.
        var padding = options.resolvedPaddingTexels
        var packer = ChartPacker(textureSize: options.textureSize, paddingTexels: padding,
                                 maximumGridSize: max(16, options.maximumPackingGridCells))
        var packing = packer.pack(charts)
        while packing == nil && padding > 0 {
            padding /= 2
            packer = ChartPacker(textureSize: options.textureSize, paddingTexels: padding,
                                 maximumGridSize: max(16, options.maximumPackingGridCells))
            packing = packer.pack(charts)
        }
        let placed = packing ?? ChartPacker.Packing(
            scale: 0, placements: Array(repeating: ChartPacker.Placement(quarterTurns: 0, column: 0, row: 0, width: 1, height: 1),
                                        count: charts.count))

        // Texels (y up) to UVs (v down).
        let size = Double(options.textureSize)
        var chartOfUV = [Int32](repeating: 0, count: charts.points.count)
        for c in 0..<charts.count {
            for t in charts.chartTriangles[charts.chartStart[c]..<charts.chartStart[c + 1]] {
                chartOfUV[Int(t.x)] = Int32(c); chartOfUV[Int(t.y)] = Int32(c); chartOfUV[Int(t.z)] = Int32(c)
            }
        }
        var uvs = [SIMD2<Float>](repeating: .zero, count: charts.points.count)
        for k in 0..<uvs.count {
            let t = packer.texel(of: charts.points[k], placement: placed.placements[Int(chartOfUV[k])], scale: placed.scale)
            uvs[k] = SIMD2(Float(t.x / size), Float(1 - t.y / size))
        }
        var covered = 0.0
        for t in charts.uvTriangles {
            let a = SIMD2<Double>(uvs[Int(t.x)]), b = SIMD2<Double>(uvs[Int(t.y)]), c = SIMD2<Double>(uvs[Int(t.z)])
            let twice: Double = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            covered += abs(twice) / 2
        }
        let textured = TexturedMesh(positions: mesh.positions, normals: normals, triangles: mesh.triangles,
                                    uvs: uvs, uvTriangles: charts.uvTriangles)
        return Result(mesh: textured, chartIndices: segmentation.chartOf, chartCount: charts.count,
                      utilisation: covered, metresPerTexel: placed.scale > 0 && covered > 0 ? 1 / placed.scale : 0,
                      paddingTexels: padding)
    }
}
