import Foundation
import Meshing
import ReconstructionCore
import XCTest

/// Closing unseen openings: an object's open underside is capped (watertight, right volume);
/// open sheets and openings a camera looked through are not.
final class OpeningClosureTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    /// Cameras on a ring above the ground, looking at the origin.
    private let ring: [SIMD3<Float>] = (0..<12).map { k in
        let a = Float(k) * .pi / 6
        return SIMD3(1.2 * cos(a), 1.2 * sin(a), 0.25 + 0.3 * Float(k % 3))
    }

    func testAnOpenBottomBoxIsClosedOnItsOwnPlane() {
        let size = SIMD3<Float>(0.34, 0.24, 0.30)
        let open = Self.latticeBox(cells: SIMD3(34, 24, 30), size: size, withBottom: false)
        XCTAssertGreaterThan(Fixtures.edgeDefects(open).openOrNonManifold, 0)
        let result = OpeningClosure().close(open, viewpoints: ring)
        XCTAssertEqual(result.report.closedOpenings, 1)
        XCTAssertEqual(result.report.closedOnSupport, 0)
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0, "watertight")
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).misoriented, 0)
        let trueVolume = Double(size.x * size.y * size.z)
        XCTAssertEqual(Fixtures.signedVolume(result.mesh), trueVolume, accuracy: 0.01 * trueVolume)
        // The cap is refined to the mesh's edge length (1 cm), not one sliver fan.
        let capEdges = Self.edgeLengths(result.mesh, where: { $0.z == 0 && $1.z == 0 })
        XCTAssertLessThanOrEqual(capEdges.max() ?? 0, 0.01 * 4 / 3 + 1e-4)
        XCTAssertGreaterThan(result.report.capTriangles, 34 * 24)
    }

    func testARaggedOpenCylinderIsClosedDownToItsSupportPlane() {
        // Walls seen down to 1–3 cm above the floor, as when the lowest strip is never observed.
        let radius: Float = 0.1, height: Float = 0.2, segments = 96
        let open = Self.cylinder(radius: radius, height: height, segments: segments, rings: 20) { angle in
            0.01 + 0.02 * (0.5 + 0.5 * sin(5 * angle))
        }
        let floor = Plane(normal: SIMD3(0, 0, 1), offset: 0)!
        let result = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring)
        XCTAssertEqual(result.report.closedOpenings, 1)
        XCTAssertEqual(result.report.closedOnSupport, 1)
        XCTAssertGreaterThan(result.report.skirtTriangles, segments)
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0, "watertight")
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).misoriented, 0)
        let polygonArea = Double(segments) / 2 * Double(radius * radius) * sin(2 * .pi / Double(segments))
        let trueVolume = polygonArea * Double(height)
        XCTAssertEqual(Fixtures.signedVolume(result.mesh), trueVolume, accuracy: 0.02 * trueVolume)
        XCTAssertEqual(result.mesh.positions.map(\.z).min() ?? 1, 0, accuracy: 1e-6)
    }

    func testAStarShapedOpeningIsCappedExactly() {
        // A concave (star-shaped) outline: the cap must follow it, not its convex hull.
        let segments = 120, height: Float = 0.15
        let shape = { (angle: Float) in 1 + 0.35 * sin(5 * angle) }
        let open = Self.cylinder(radius: 0.1, height: height, segments: segments, rings: 15, bottom: { _ in 0 }, shape: shape)
        let result = OpeningClosure().close(open, viewpoints: ring)
        XCTAssertEqual(result.report.closedOpenings, 1)
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0)
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).misoriented, 0)
        let outline = open.positions.prefix(segments)
        var area = 0.0
        for (a, b) in zip(outline, outline.dropFirst() + [outline.first!]) { area += Double(a.x * b.y - a.y * b.x) / 2 }
        XCTAssertEqual(Fixtures.signedVolume(result.mesh), area * Double(height), accuracy: 0.005 * area * Double(height))
        XCTAssertTrue(result.mesh.positions.allSatisfy { $0.z >= -1e-6 })
    }

    func testAWavySheetIsNotCapped() {
        let sheet = Self.sheet(cells: 40, size: 1) { x, y in 0.12 * sin(6 * x) * cos(5 * y) + 0.1 * sin(9 * y) }
        let result = OpeningClosure().close(sheet, viewpoints: ring.map { $0 + SIMD3(0, 0, 0.5) })
        XCTAssertEqual(result.report.closedOpenings, 0)
        XCTAssertEqual(result.report.keptOpen, 1)
        XCTAssertEqual(result.mesh, sheet)
        // Nor with a support plane under it.
        let floor = Plane(normal: SIMD3(0, 0, 1), offset: -0.3)!
        XCTAssertEqual(OpeningClosure().close(sheet, supportPlane: floor, viewpoints: ring).report.closedOpenings, 0)
    }

    func testAFloorAroundAnObjectIsNotDoubled() {
        // A box standing on a fused floor sheet (an open scene): the floor's border is planar and
        // unseen from below, but a cap there would lie on the floor itself.
        let scene = Self.sheet(cells: 60, size: 1.2) { x, y in abs(x) < 0.1 && abs(y) < 0.1 ? 0.3 : 0 }
        let result = OpeningClosure().close(scene, viewpoints: ring)
        XCTAssertEqual(result.report.closedOpenings, 0)
        XCTAssertEqual(result.report.keptOpen, 1)
        // It is the on-plane test that keeps it open.
        var lenient = OpeningClosure.Options()
        lenient.maximumOnPlaneFraction = 1
        XCTAssertEqual(OpeningClosure(options: lenient).close(scene, viewpoints: ring).report.closedOpenings, 1)
    }

    func testAFlatSheetIsNotFoldedShut() {
        let sheet = Self.sheet(cells: 20, size: 0.5) { _, _ in 0 }
        XCTAssertEqual(OpeningClosure().close(sheet, viewpoints: ring).report.closedOpenings, 0)
        XCTAssertEqual(OpeningClosure().close(sheet).report.closedOpenings, 0)
    }

    func testAnOpeningACameraLooksIntoStaysOpen() {
        // A cup: closed bottom, open top, a camera above its mouth.
        let open = Self.latticeBox(cells: SIMD3(10, 10, 10), size: SIMD3(0.1, 0.1, 0.1), withBottom: false)
        var cup = open
        cup.positions = open.positions.map { SIMD3($0.x, $0.y, 0.1 - $0.z) }  // upside down: the opening on top
        cup.triangles = open.triangles.map { SIMD3($0.x, $0.z, $0.y) }
        let above = OpeningClosure().close(cup, viewpoints: ring + [SIMD3(0.05, 0.05, 0.6)])
        XCTAssertEqual(above.report.closedOpenings, 0)
        // Seen only from below, the same opening was never visible and is closed.
        XCTAssertEqual(OpeningClosure().close(cup, viewpoints: [SIMD3(0.05, 0.05, -0.5)]).report.closedOpenings, 1)
    }

    func testLoopsTouchingAtAVertexAreSeparate() {
        // Two triangles sharing only vertex 0: two loops, each without repeats.
        let mesh = TriangleMesh(positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, -1, 0)],
                                triangles: [SIMD3(0, 1, 2), SIMD3(0, 3, 4)])
        let loops = mesh.boundaryLoops()
        XCTAssertEqual(loops.count, 2)
        XCTAssertTrue(loops.allSatisfy { $0.count == 3 && Set($0).count == 3 })
        // Walked against the triangles: the first loop closes triangle (0, 1, 2) from behind.
        let first = loops.first { $0.contains(1) }!
        let start = first.firstIndex(of: 0)!
        XCTAssertEqual(first[(start + 1) % 3], 2)
    }

    func testPlaneFitAndSides() throws {
        let points: [SIMD3<Float>] = [SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(0, 1, 1), SIMD3(1, 1, 1)]
        let (plane, rms) = try XCTUnwrap(Plane.fitted(to: points))
        XCTAssertEqual(abs(plane.normal.z), 1, accuracy: 1e-5)
        XCTAssertEqual(rms, 0, accuracy: 1e-6)
        let up = try XCTUnwrap(Plane(through: SIMD3(0, 0, 1), normal: SIMD3(0, 0, 2)))
        XCTAssertEqual(up.signedDistance(SIMD3(3, 4, 3)), 2, accuracy: 1e-6)
        XCTAssertEqual(up.flipped.signedDistance(SIMD3(3, 4, 3)), -2, accuracy: 1e-6)
        let (u, v) = up.basis
        XCTAssertEqual(simdDot(simdCross(u, v), up.normal), 1, accuracy: 1e-6)
        XCTAssertNil(Plane(normal: .zero, offset: 1))
        XCTAssertNil(Plane.fitted(to: [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(2, 2, 2)]))
    }

    // MARK: - Fixtures

    /// An axis-aligned box from the origin corner (x, y centred on 0, z from 0 up), each face a
    /// grid of `cells`, triangles counter-clockwise from outside; the bottom face optional.
    static func latticeBox(cells: SIMD3<Int32>, size: SIMD3<Float>, withBottom: Bool) -> TriangleMesh {
        var index: [SIMD3<Int32>: UInt32] = [:]
        var mesh = TriangleMesh()
        func vertex(_ p: SIMD3<Int32>) -> UInt32 {
            if let i = index[p] { return i }
            let f = SIMD3<Float>(p) / SIMD3<Float>(cells)
            mesh.positions.append(SIMD3((f.x - 0.5) * size.x, (f.y - 0.5) * size.y, f.z * size.z))
            index[p] = UInt32(mesh.positions.count - 1)
            return index[p]!
        }
        for k in 0..<3 {
            let i = (k + 1) % 3, j = (k + 2) % 3  // e_i × e_j = e_k
            for side in [Int32(0), cells[k]] {
                if k == 2 && side == 0 && !withBottom { continue }
                for a in 0..<cells[i] {
                    for b in 0..<cells[j] {
                        func p(_ da: Int32, _ db: Int32) -> UInt32 {
                            var q = SIMD3<Int32>(repeating: 0)
                            q[k] = side
                            q[i] = a + da
                            q[j] = b + db
                            return vertex(q)
                        }
                        let (p00, p10, p11, p01) = (p(0, 0), p(1, 0), p(1, 1), p(0, 1))
                        if side == 0 {
                            mesh.triangles += [SIMD3(p00, p11, p10), SIMD3(p00, p01, p11)]
                        } else {
                            mesh.triangles += [SIMD3(p00, p10, p11), SIMD3(p00, p11, p01)]
                        }
                    }
                }
            }
        }
        return mesh
    }

    /// An open-bottomed cylinder around the z axis with a closed top at `height`, its lower rim at
    /// `bottom(angle)`, its radius `radius · shape(angle) · widening(z)`, triangles
    /// counter-clockwise from outside.
    static func cylinder(radius: Float, height: Float, segments: Int, rings: Int, bottom: (Float) -> Float,
                         shape: (Float) -> Float = { _ in 1 }, widening: (Float) -> Float = { _ in 1 }) -> TriangleMesh {
        var mesh = TriangleMesh()
        for r in 0...rings {
            for s in 0..<segments {
                let angle = 2 * Float.pi * Float(s) / Float(segments)
                let z0 = bottom(angle)
                let z = z0 + (height - z0) * Float(r) / Float(rings), rho = radius * shape(angle) * widening(z)
                mesh.positions.append(SIMD3(rho * cos(angle), rho * sin(angle), z))
            }
        }
        let id = { (r: Int, s: Int) in UInt32(r * segments + s % segments) }
        for r in 0..<rings {
            for s in 0..<segments {
                mesh.triangles += [SIMD3(id(r, s), id(r, s + 1), id(r + 1, s + 1)), SIMD3(id(r, s), id(r + 1, s + 1), id(r + 1, s))]
            }
        }
        let centre = UInt32(mesh.positions.count)
        mesh.positions.append(SIMD3(0, 0, height))
        for s in 0..<segments { mesh.triangles.append(SIMD3(id(rings, s), id(rings, s + 1), centre)) }
        return mesh
    }

    /// A square height-field sheet over [−size/2, size/2]², facing +z.
    static func sheet(cells: Int, size: Float, height: (Float, Float) -> Float) -> TriangleMesh {
        var mesh = TriangleMesh()
        for j in 0...cells {
            for i in 0...cells {
                let x = (Float(i) / Float(cells) - 0.5) * size, y = (Float(j) / Float(cells) - 0.5) * size
                mesh.positions.append(SIMD3(x, y, height(x, y)))
            }
        }
        let id = { (i: Int, j: Int) in UInt32(j * (cells + 1) + i) }
        for j in 0..<cells {
            for i in 0..<cells {
                mesh.triangles += [SIMD3(id(i, j), id(i + 1, j), id(i + 1, j + 1)), SIMD3(id(i, j), id(i + 1, j + 1), id(i, j + 1))]
            }
        }
        return mesh
    }

    /// Lengths of the mesh's edges whose end points satisfy `filter`.
    static func edgeLengths(_ mesh: TriangleMesh, where filter: (SIMD3<Float>, SIMD3<Float>) -> Bool) -> [Float] {
        var out: [Float] = []
        for t in mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                let p = mesh.positions[Int(a)], q = mesh.positions[Int(b)]
                if filter(p, q) { out.append(simdLength(p - q)) }
            }
        }
        return out
    }
}
