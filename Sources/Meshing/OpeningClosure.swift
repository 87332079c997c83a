import Foundation
import ReconstructionCore

/// Closes the openings of an object's surface that no camera could have seen — above all the
/// underside of an object standing on a table or the floor, which depth fusion leaves open (no
/// view looks through the support) — so the surface becomes watertight.
///
/// Each boundary loop (`TriangleMesh.boundaryLoops`) of at least `minimumLoopEdges` edges is a
/// candidate. It gets a cap plane, with the normal pointing out of the object:
/// - with a support plane (the surface the object rests on, e.g. from `SupportPlaneEstimator`),
///   when the loop faces it (its outward normal within `maximumTiltDegrees` of the direction into
///   the support) and runs close to it (90 % of its points lower than `maximumSkirtFraction` of
///   the component's height above the plane, `maximumSkirtFractionWithFreeSpace` when some of
///   its skirt is drawn in, see below): the support plane itself;
/// - otherwise, when the loop is nearly planar (RMS distance to its least-squares plane at most
///   `maximumPlaneDeviation` of its diameter): that plane, moved out to the loop's outermost
///   point (the unseen part lies beyond everything seen).
///
/// The loop is then closed only when all three of these hold, so open scenes and real openings
/// stay open:
/// 1. no viewpoint (camera centre) lies in front of the cap plane: a camera there could have
///    looked through the opening, so it is a real opening (a vase's mouth) or a gap the cameras
///    should have filled, not an unseen underside;
/// 2. the loop's connected component lies behind the plane (at most `maximumFrontFraction` of
///    its vertices further than two edge lengths in front);
/// 3. the component reaches behind the plane by at least `minimumDepthFraction` of the loop's
///    diameter, so a flat or gently curved open sheet is never folded shut, and at most
///    `maximumOnPlaneFraction` of its vertices lie within two edge lengths of the plane, so a cap
///    never doubles a surface that was seen (a floor fused around the object).
/// A wall-like or wavy open surface fails the planarity test or (3); a scene surrounding the
/// cameras fails (1).
///
/// Closing builds a skirt and a cap: each loop vertex is dropped onto the cap plane along its
/// normal (vertices closer than 0.3 edge lengths stay where they are) or, where the depth maps
/// show that straight drop in free space (the seen surface overhangs a narrower foot), onto a
/// foot drawn in under it (`CapBuilder.feet`); the gap between the loop
/// and its dropped copy is filled by strips subdivided at the target edge length (for an object
/// on a support, this continues walls that stop short of the floor down to it), and the dropped
/// polygon is triangulated by ear clipping in the plane and refined to the target edge length
/// (`PlanarTriangulation`). New triangles are oriented like the rest of the surface; new vertices
/// take their loop vertex's colour (cap interior: the loop's mean colour); normals, when the
/// mesh has them, are recomputed. Pure geometry: no image or camera data beyond the viewpoints
/// and the `showsEmpty` question.
public struct OpeningClosure: Sendable {
    public struct Options: Sendable, Equatable {
        /// Target edge length of skirts and caps, metres; nil uses the mesh's median edge length.
        public var edgeLength: Float? = nil
        /// Loops with fewer edges are left alone (small holes are for `fillingHoles`).
        public var minimumLoopEdges = 8
        /// Without a support plane: largest RMS distance of a loop's points from their
        /// least-squares plane, as a fraction of the loop's diameter.
        public var maximumPlaneDeviation: Float = 0.05
        /// With a support plane: largest angle between a loop's outward normal and the direction
        /// into the support, degrees.
        public var maximumTiltDegrees: Float = 45
        /// With a support plane: 90 % of a loop's points must be lower above the plane than this
        /// fraction of the component's height above it.
        public var maximumSkirtFraction: Float = 0.25
        /// The same when the depth maps show some of the loop's straight skirt in free space
        /// (`close`'s `showsEmpty`): that skirt is drawn in where the seen surface overhangs a
        /// narrower foot instead of invented straight down, so the loop may run higher (a
        /// 24-photo turntable capture's loop, ragged where stereo thinned out on the vase's lower
        /// third, reached 28 %). Without a foot drawn in, the stricter limit holds.
        public var maximumSkirtFractionWithFreeSpace: Float = 0.35
        /// When set, a loop closes on the support plane only if 90 % of its points also lie
        /// within this many edge lengths of it: for a support that is where the walls end
        /// (`RimFloor`), on which only the rim rests; a hole higher up the wall stays as seen.
        public var maximumSkirtEdges: Float? = nil
        /// The component must reach behind the cap plane by at least this fraction of the loop's diameter.
        public var minimumDepthFraction: Float = 0.1
        /// Largest fraction of the component's vertices allowed more than two edge lengths in
        /// front of the cap plane.
        public var maximumFrontFraction: Float = 0.02
        /// Largest fraction of the component's vertices allowed within two edge lengths of the cap plane.
        public var maximumOnPlaneFraction: Float = 0.25
        /// With depth maps to show free space: farthest a skirt's foot is drawn in towards the
        /// loop's centre, as a fraction of its distance from it.
        public var maximumSkirtPullFraction: Float = 0.5
        /// Most vertices one cap may add (a memory guard; refinement stops there).
        public var maximumCapVertices = 2_000_000
        public init() {}
    }

    /// What the closure did.
    public struct Report: Sendable, Equatable {
        /// Openings closed.
        public var closedOpenings = 0
        /// Of those, closed on the support plane.
        public var closedOnSupport = 0
        /// Candidate loops (at least `minimumLoopEdges` edges) left open.
        public var keptOpen = 0
        /// Triangles added in caps and in skirts.
        public var capTriangles = 0
        public var skirtTriangles = 0
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

    /// `mesh` with its unseen openings closed.
    /// - Parameters:
    ///   - supportPlane: the plane the object rests on, its normal pointing towards the object; nil if unknown.
    ///   - viewpoints: camera centres (world, metres); with none, test 1 is skipped.
    ///   - showsEmpty: whether the capture's depth shows a point to be empty (`FreeSpace`); where
    ///     it shows a skirt's lower part empty, the skirt's foot is drawn in (`CapBuilder.feet`).
    public func close(_ mesh: TriangleMesh, supportPlane: Plane? = nil, viewpoints: [SIMD3<Float>] = [],
                      showsEmpty: (@Sendable (SIMD3<Float>) -> Bool)? = nil) -> Result {
        var report = Report()
        let loops = mesh.boundaryLoops().filter { $0.count >= max(3, options.minimumLoopEdges) }
        guard !loops.isEmpty else { return Result(mesh: mesh, report: report) }
        let edgeLength = options.edgeLength.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? mesh.medianEdgeLength()
        guard edgeLength > 0 else { return Result(mesh: mesh, report: report) }
        let components = VertexComponents(mesh)
        var out = mesh
        for loop in loops {
            // A rim too high for straight skirts may still close on the support if some of its
            // skirt is drawn in; failing that, it is treated as the strict limit treats it.
            var candidates: [(plane: Plane, onSupport: Bool, requiresDrawIn: Bool)] = []
            let strict = capPlane(for: loop, in: mesh, components: components, supportPlane: supportPlane,
                                  maximumSkirtFraction: options.maximumSkirtFraction, edgeLength: edgeLength)
            if showsEmpty != nil, strict?.1 != true,
               let relaxed = capPlane(for: loop, in: mesh, components: components, supportPlane: supportPlane,
                                      maximumSkirtFraction: options.maximumSkirtFractionWithFreeSpace, edgeLength: edgeLength), relaxed.1 {
                candidates.append((relaxed.0, true, true))
            }
            if let strict { candidates.append((strict.0, strict.1, false)) }
            var closed: (cap: Int, skirt: Int, onSupport: Bool)?
            for candidate in candidates where closed == nil {
                guard accepts(candidate.plane, loop: loop, mesh: mesh, components: components, viewpoints: viewpoints,
                              edgeLength: edgeLength) else { continue }
                let builder = CapBuilder(plane: candidate.plane, edgeLength: edgeLength, maximumVertices: options.maximumCapVertices,
                                         showsEmpty: showsEmpty, maximumPullFraction: options.maximumSkirtPullFraction,
                                         requiresDrawIn: candidate.requiresDrawIn)
                closed = builder.close(loop, in: &out).map { ($0.cap, $0.skirt, candidate.onSupport) }
            }
            guard let added = closed else {
                report.keptOpen += 1
                continue
            }
            report.closedOpenings += 1
            if added.onSupport { report.closedOnSupport += 1 }
            report.capTriangles += added.cap
            report.skirtTriangles += added.skirt
        }
        if report.closedOpenings > 0, out.hasNormals { out.normals = out.computedVertexNormals() }
        return Result(mesh: out, report: report)
    }

    /// The plane to close `loop` on (normal out of the object), and whether it is the support plane.
    func capPlane(for loop: [UInt32], in mesh: TriangleMesh, components: VertexComponents,
                  supportPlane: Plane?, maximumSkirtFraction: Float, edgeLength: Float) -> (Plane, Bool)? {
        let points = loop.map { mesh.positions[Int($0)] }
        guard let outward = Self.newellNormal(points) else { return nil }
        if let support = supportPlane {
            if simdDot(outward, -support.normal) >= cos(options.maximumTiltDegrees * .pi / 180) {
                let component = components.vertices(of: loop[0])
                let height = component.reduce(Float(0)) { max($0, support.signedDistance(mesh.positions[Int($1)])) }
                let heights = points.map { support.signedDistance($0) }.sorted()
                let high = heights[min(heights.count - 1, Int(Float(heights.count) * 0.9))]
                let resting = options.maximumSkirtEdges.map { high <= $0 * edgeLength } ?? true
                if height > 0, high <= maximumSkirtFraction * height, resting { return (support.flipped, true) }
            }
        }
        guard let (fit, rms) = Plane.fitted(to: points), rms <= options.maximumPlaneDeviation * Self.diameter(points) else {
            return nil
        }
        let normal = simdDot(fit.normal, outward) >= 0 ? fit.normal : -fit.normal
        let outermost = points.reduce(-Float.infinity) { max($0, simdDot(normal, $1)) }
        return Plane(normal: normal, offset: outermost).map { ($0, false) }
    }

    /// Tests 1–3 of the type's description.
    func accepts(_ plane: Plane, loop: [UInt32], mesh: TriangleMesh, components: VertexComponents,
                 viewpoints: [SIMD3<Float>], edgeLength: Float) -> Bool {
        guard viewpoints.allSatisfy({ plane.signedDistance($0) < 0 }) else { return false }
        let component = components.vertices(of: loop[0])
        var inFront = 0, onPlane = 0
        var deepest: Float = 0
        for v in component {
            let d = plane.signedDistance(mesh.positions[Int(v)])
            if d > 2 * edgeLength { inFront += 1 } else if d >= -2 * edgeLength { onPlane += 1 }
            deepest = min(deepest, d)
        }
        let diameter = Self.diameter(loop.map { mesh.positions[Int($0)] })
        let count = Float(component.count)
        return Float(inFront) <= options.maximumFrontFraction * count
            && Float(onPlane) <= options.maximumOnPlaneFraction * count
            && -deepest >= options.minimumDepthFraction * diameter
    }

    /// The direction around which the closed polygon turns counter-clockwise, unit length
    /// (Newell's method); nil for a polygon without area.
    static func newellNormal(_ points: [SIMD3<Float>]) -> SIMD3<Float>? {
        guard let first = points.first else { return nil }
        var sum = SIMD3<Float>.zero
        for i in points.indices {
            sum += simdCross(points[i] - first, points[(i + 1) % points.count] - first)
        }
        let length = simdLength(sum)
        return length > 0 && length.isFinite ? sum / length : nil
    }

    /// Largest extent of the points' bounding box.
    static func diameter(_ points: [SIMD3<Float>]) -> Float {
        guard let first = points.first else { return 0 }
        var lower = first, upper = first
        for p in points {
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        return simdLength(upper - lower)
    }
}
