import Foundation
import Meshing
import ReconstructionCore
import Texturing

/// The model stage: a full-resolution surface and its posed photos in, a textured model at a
/// detail level out. Decimates to the level's triangle cap (meshoptimizer), lays out a UV atlas at
/// the level's texture size, bakes the level's maps (base colour from the photos; normal and
/// displacement from the full-resolution surface; ambient occlusion by ray casting; roughness from
/// view-dependent brightness) and moves the result into the model frame (Y up, metres when known).
public struct TexturedModelBuilder: Sendable {
    public struct Options: Sendable {
        /// Decimation stops early when the shape would deviate more than this (fraction of the
        /// extent); the level's cap always wins.
        public var decimationError: Float = 0.01
        /// Pieces of the decimated mesh smaller than this fraction of the largest piece's area
        /// are dropped: crumbs that decimation broke off thin parts (a few triangles each), also
        /// those that hang from the rest by one vertex (strands a viewer shows dangling). The
        /// dense stage already dropped fragments under 5 %; a surface cropped since (a request's
        /// bounds) may have cut pieces this small, and they go too.
        public var minimumPieceFraction = 0.01
        /// Atlas gutter between charts at a 2048² texture, texels (scaled with the texture size).
        public var paddingAt2048: Int = 4
        public var diffuse = DiffuseBaker.Options()
        public var detail = SurfaceDetailBaker.Options()
        public var occlusion = AmbientOcclusionBaker.Options()
        public init() {}
    }

    /// What the stage did, for logs and benchmarks.
    public struct Report: Sendable {
        public var inputTriangles = 0
        public var triangles = 0
        public var decimationError: Float = 0
        /// Crumbs dropped after decimation (`Options.minimumPieceFraction`), and their triangles.
        public var droppedCrumbs = 0
        public var droppedCrumbTriangles = 0
        public var chartCount = 0
        public var atlasUtilisation = 0.0
        /// Fraction of covered texels some photo sees.
        public var photoCoverage = 0.0
        /// Fraction of covered texels whose rays found the full-resolution surface.
        public var detailHitFraction = 0.0
        /// Seconds per step: decimation, atlas, diffuse, detail, occlusion.
        public var seconds: [String: Double] = [:]
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Builds the model of `surface` (world frame, the views' frame) within `budget`.
    /// `modelFromWorld` places it (see `ModelFrame`); `isMetric` says whether that gives metres.
    /// `progress` says what it is doing; `fraction` how far it is (0…1, from worker threads too).
    public func build(surface: TriangleMesh, views: [BakingView], budget: DetailBudget, modelFromWorld: SimilarityTransform,
                      isMetric: Bool, rays: RayCasterFactory = RayScene.factory,
                      progress: @Sendable (String) -> Void = { _ in },
                      fraction: @Sendable (Double) -> Void = { _ in }) throws -> (model: TexturedModel, report: Report) {
        guard surface.triangleCount > 0 else { throw ModelBuildError.emptySurface }
        let maps = budget.textureMaps
        let bakesColour = maps.contains(.diffuseColor) || maps.contains(.roughness)
        let bakesDetail = maps.contains(.normal) || maps.contains(.displacement)
        let shares = StepShares<String>([("decimation", 0.05), ("atlas", 0.05),
                                         ("diffuse", bakesColour ? 0.5 : 0), ("detail", bakesDetail ? 0.3 : 0),
                                         ("occlusion", maps.contains(.ambientOcclusion) ? 0.1 : 0)])
        @Sendable func step(_ name: String, _ done: Double) { fraction(shares.fraction(name, done)) }
        var report = Report()
        report.inputTriangles = surface.triangleCount
        var clock = Date()
        func lap(_ step: String) {
            report.seconds[step] = Date().timeIntervalSince(clock)
            clock = Date()
        }

        progress(surface.triangleCount > budget.maximumTriangleCount
                 ? "decimating \(surface.triangleCount) triangles to at most \(budget.maximumTriangleCount)"
                 : "keeping all \(surface.triangleCount) triangles (within the cap of \(budget.maximumTriangleCount))")
        let decimated = try MeshSimplifier.simplify(surface, maximumTriangles: budget.maximumTriangleCount,
                                                    targetError: options.decimationError)
        var kept = decimated.mesh
        let pieces = kept.removingSmallComponents(minimumFraction: options.minimumPieceFraction, byArea: true, alongEdges: true)
        if pieces.removedComponents > 0 {
            report.droppedCrumbs = pieces.removedComponents
            report.droppedCrumbTriangles = kept.triangleCount - pieces.mesh.triangleCount
            kept = pieces.mesh.removingUnreferencedVertices()
        }
        report.triangles = kept.triangleCount
        report.decimationError = decimated.relativeError
        lap("decimation")
        step("atlas", 0)

        let size = budget.textureDimension.rawValue
        progress("UV atlas for \(kept.triangleCount) triangles at \(size)²")
        var atlasOptions = UVAtlasBuilder.Options()
        atlasOptions.textureSize = size
        atlasOptions.paddingTexels = max(2, options.paddingAt2048 * size / 2048)
        let atlas = UVAtlasBuilder(options: atlasOptions).build(kept)
        report.chartCount = atlas.chartCount
        report.atlasUtilisation = atlas.utilisation
        lap("atlas")
        step("diffuse", 0)

        let texels = TexelSurface(mesh: atlas.mesh, texels: AtlasTexelMap(mesh: atlas.mesh, width: size, height: size))
        var textures = ModelTextures()
        if bakesColour {
            progress("baking \(maps.contains(.diffuseColor) ? "the base colour" : "roughness") from \(views.count) photos")
            let diffuse = DiffuseBaker(options: options.diffuse).bake(surface: texels, views: views, roughness: maps.contains(.roughness),
                                                                      progress: { step("diffuse", $0) })
            if maps.contains(.diffuseColor) { textures.diffuseColor = diffuse.diffuse }
            textures.roughness = diffuse.roughness
            report.photoCoverage = diffuse.seenFraction
        }
        lap("diffuse")
        step("detail", 0)
        if bakesDetail {
            progress("baking surface detail from \(surface.triangleCount) triangles")
            let detailed = surface.hasNormals ? surface : TriangleMesh(positions: surface.positions, triangles: surface.triangles,
                                                                         colors: surface.colors, normals: surface.computedVertexNormals())
            let baked = try SurfaceDetailBaker(options: options.detail).bake(
                surface: texels, detailed: detailed, detailedRays: try rays(detailed),
                normalMap: maps.contains(.normal), displacementMap: maps.contains(.displacement),
                progress: { step("detail", $0) })
            textures.normal = baked.normal
            textures.displacement = baked.displacement
            textures.displacementRange = baked.displacementRange * Float(modelFromWorld.scale)
            report.detailHitFraction = baked.hitFraction
        }
        lap("detail")
        step("occlusion", 0)
        if maps.contains(.ambientOcclusion) {
            progress("baking ambient occlusion")
            textures.ambientOcclusion = try AmbientOcclusionBaker(options: options.occlusion)
                .bake(mesh: atlas.mesh, size: size, rays: try rays(atlas.mesh.triangleMesh))
        }
        lap("occlusion")
        fraction(1)
        let mesh = atlas.mesh.transformed(by: modelFromWorld)
        return (TexturedModel(mesh: mesh, textures: textures, metersPerUnit: 1, isMetric: isMetric), report)
    }
}

/// Why the model stage could not run.
public enum ModelBuildError: Error, CustomStringConvertible, Equatable {
    case emptySurface

    public var description: String {
        switch self {
        case .emptySurface: return "the surface has no triangles: nothing to build a model from"
        }
    }
}

