import Foundation
import Meshing
import ReconstructionCore
import XCTest

/// The floor under an object no depth measured (a plain floor), taken where its walls end: level
/// across up at the rim's upper quartile; the walls cut there; only the rim closed on it.
final class RimFloorTests: XCTestCase {
    typealias Fixtures = MeshingFixtures
    private let up = SIMD3<Float>(0, 0, 1)

    /// Cameras on a ring above the floor, looking at the origin.
    private let ring: [SIMD3<Float>] = (0..<12).map { k in
        let a = Float(k) * .pi / 6
        return SIMD3(1.2 * cos(a), 1.2 * sin(a), 0.25 + 0.3 * Float(k % 3))
    }

    /// Walls carried unevenly onto a floor at z = 0: 1–3 mm below it all round, with spikes to 9 mm.
    private func overshootingCylinder(segments: Int = 96) -> TriangleMesh {
        OpeningClosureTests.cylinder(radius: 0.1, height: 0.3, segments: segments, rings: 30) { angle in
            -0.002 - 0.001 * sin(3 * angle) - 0.006 * pow(max(0, sin(5 * angle)), 8)
        }
    }

    func testTheFloorIsLevelAtTheRimsUpperQuartile() throws {
        let open = overshootingCylinder()
        let floor = try XCTUnwrap(RimFloor().estimate(open, up: up, viewpoints: ring))
        XCTAssertEqual(floor.normal, up)
        let rim = open.positions.prefix(96).map(\.z).sorted()
        XCTAssertEqual(floor.offset, rim[rim.count * 3 / 4], accuracy: 1e-6)
        // The overshoot only reaches down: the upper quartile is nearer the true floor (z = 0) than the median.
        XCTAssertGreaterThan(floor.offset, rim[rim.count / 2] + 0.0005)
        XCTAssertGreaterThan(floor.offset, -0.0015)
        XCTAssertLessThan(floor.offset, 0)
        // Any length of up: the same plane.
        XCTAssertEqual(RimFloor().estimate(open, up: 3 * up, viewpoints: ring), floor)
    }

    func testTheCutWallsCloseFlatOnTheFloor() throws {
        let open = overshootingCylinder()
        let floor = try XCTUnwrap(RimFloor().estimate(open, up: up, viewpoints: ring))
        let cut = open.clipped(below: floor)
        XCTAssertEqual(cut.positions.map(\.z).min() ?? 0, floor.offset, accuracy: 1e-6)
        var options = OpeningClosure.Options()
        options.maximumSkirtEdges = 3
        let closed = OpeningClosure(options: options).close(cut, supportPlane: floor, viewpoints: ring)
        XCTAssertEqual(closed.report.closedOpenings, 1)
        XCTAssertEqual(closed.report.closedOnSupport, 1)
        XCTAssertEqual(Fixtures.edgeDefects(closed.mesh).openOrNonManifold, 0, "watertight")
        XCTAssertEqual(Fixtures.edgeDefects(closed.mesh).misoriented, 0)
        // Flat: nothing below the floor, and the bottom is the floor.
        XCTAssertEqual(closed.mesh.positions.map(\.z).min() ?? 0, floor.offset, accuracy: 1e-6)
        let polygonArea = 96.0 / 2 * 0.01 * sin(2 * .pi / 96)
        let volume = polygonArea * Double(0.3 - floor.offset)
        XCTAssertEqual(Fixtures.signedVolume(closed.mesh), volume, accuracy: 0.01 * volume)
    }

    func testNoFloorWhereTheObjectReachesFarBelowTheRim() {
        // Half the rim hangs 10 cm lower (a part on legs, a slanted cut): not an overshoot.
        let slanted = OpeningClosureTests.cylinder(radius: 0.1, height: 0.3, segments: 96, rings: 30) { angle in
            sin(angle) > 0.3 ? -0.1 : 0
        }
        XCTAssertNil(RimFloor().estimate(slanted, up: up, viewpoints: ring))
    }

    func testNoFloorACameraLooksUpThrough() {
        XCTAssertNil(RimFloor().estimate(overshootingCylinder(), up: up, viewpoints: ring + [SIMD3(0, 0, -0.5)]))
    }

    func testNoFloorOverAnOpeningThatFacesUp() {
        // Up reversed: the opening faces the sky, and cameras are "below" it.
        XCTAssertNil(RimFloor().estimate(overshootingCylinder(), up: -up, viewpoints: ring.map { -$0 }))
    }

    func testAHoleHigherUpTheWallIsNotDroppedOntoAFloorFromTheRim() throws {
        // A vase flaring out over its lowest 10 cm (its wall faces partly down there), resting on
        // z = 0, with a hole in that wall 6–8 cm up.
        let segments = 96, rings = 40
        var cone = OpeningClosureTests.cylinder(radius: 0.1, height: 0.4, segments: segments, rings: rings,
                                                bottom: { _ in 0 }, widening: { (z: Float) -> Float in 1 + 15 * min(z, 0.1) })
        var hole = Set<Int>()
        for r in 6..<8 {
            for s in 10..<16 {
                let quad: Int = r * segments + s
                hole.formUnion([2 * quad, 2 * quad + 1])
            }
        }
        cone.triangles = cone.triangles.enumerated().filter { !hole.contains($0.offset) }.map(\.element)
        let floor = try XCTUnwrap(Plane(normal: up, offset: 0))
        // A support seen in the depth takes both openings (the hole's skirt goes to the floor)...
        XCTAssertEqual(OpeningClosure().close(cone, supportPlane: floor, viewpoints: ring).report.closedOnSupport, 2)
        // ...a floor that is only where the walls end takes the rim alone.
        var options = OpeningClosure.Options()
        options.maximumSkirtEdges = 3
        let closed = OpeningClosure(options: options).close(cone, supportPlane: floor, viewpoints: ring)
        XCTAssertEqual(closed.report.closedOnSupport, 1)
    }

    func testClippingRemovesWhatLiesBelowAndMovesCrossingCornersOntoThePlane() throws {
        let open = overshootingCylinder(segments: 48)
        let plane = try XCTUnwrap(Plane(normal: up, offset: 0.05))
        let cut = open.clipped(below: plane)
        XCTAssertTrue(cut.positions.allSatisfy { $0.z >= 0.05 - 1e-6 })
        XCTAssertLessThan(cut.positions.count, open.positions.count)
        XCTAssertLessThan(cut.triangles.count, open.triangles.count)
        XCTAssertTrue(cut.triangles.allSatisfy { Int(max($0.x, $0.y, $0.z)) < cut.positions.count })
        // The cut edge is one loop in the plane.
        let loops = cut.boundaryLoops()
        XCTAssertEqual(loops.count, 1)
        XCTAssertTrue(loops[0].allSatisfy { abs(cut.positions[Int($0)].z - 0.05) < 1e-6 })
        // A plane under everything changes nothing.
        XCTAssertEqual(open.clipped(below: try XCTUnwrap(Plane(normal: up, offset: -1))), open)
    }
}
