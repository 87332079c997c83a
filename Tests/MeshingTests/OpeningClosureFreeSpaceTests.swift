import Foundation
import Meshing
import ReconstructionCore
import XCTest

/// Closing an object's underside where its seen surface overhangs a narrower foot (a vase's belly
/// above its base), with depth maps that show the space under the overhang empty: the skirt is
/// drawn in to the foot instead of dropped straight down.
final class OpeningClosureFreeSpaceTests: XCTestCase {
    typealias Fixtures = MeshingFixtures

    private let ring: [SIMD3<Float>] = (0..<12).map { k in
        let a = Float(k) * .pi / 6
        return SIMD3(1.2 * cos(a), 1.2 * sin(a), 0.25 + 0.3 * Float(k % 3))
    }
    private let floor = Plane(normal: SIMD3(0, 0, 1), offset: 0)!
    private let height: Float = 0.2

    /// The true object: radius 5 cm at the floor, widening by 5 mm per centimetre of height.
    private static func trueRadius(_ z: Float) -> Float { 0.05 + 0.5 * max(0, z) }

    /// What depth maps around the object would show: everything outside it is empty.
    private let outsideTheObject: @Sendable (SIMD3<Float>) -> Bool = { p in
        (p.x * p.x + p.y * p.y).squareRoot() > OpeningClosureFreeSpaceTests.trueRadius(p.z)
    }

    /// The object seen from a ragged rim, `low`…`high` above the floor, up to its closed top.
    private func seen(low: Float, high: Float) -> TriangleMesh {
        OpeningClosureTests.cylinder(radius: 1, height: height, segments: 96, rings: 24, bottom: { angle in
            low + (high - low) * (0.5 + 0.5 * sin(5 * angle))
        }, widening: Self.trueRadius)
    }

    /// Radii of the closed mesh's vertices within a millimetre of the floor.
    private func footRadii(_ mesh: TriangleMesh) -> [Float] {
        mesh.positions.filter { $0.z < 0.001 }.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }
    }

    func testTheSkirtIsDrawnInToTheFootWhereTheSpaceUnderTheOverhangIsEmpty() throws {
        let open = seen(low: 0.02, high: 0.04)
        let straight = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring)
        let drawnIn = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring, showsEmpty: outsideTheObject)
        for result in [straight, drawnIn] {
            XCTAssertEqual(result.report.closedOnSupport, 1)
            XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0, "watertight")
            XCTAssertEqual(Fixtures.edgeDefects(result.mesh).misoriented, 0)
        }
        // Straight down, the foot is as wide as the rim (6–7 cm); drawn in, it is the true 5 cm,
        // give or take the edge length (about 5 mm) the search steps by.
        let straightFeet = footRadii(straight.mesh), drawnInFeet = footRadii(drawnIn.mesh)
        XCTAssertGreaterThan(straightFeet.max() ?? 0, 0.068)
        let outline = try XCTUnwrap(drawnInFeet.max())
        XCTAssertLessThan(outline, 0.05 + 0.006)
        XCTAssertGreaterThan(outline, 0.05 - 0.006, "not drawn in past the foot")
        // The volume: 1.3 % too large straight down (the skirt encloses the space under the
        // overhang), within 0.5 % drawn in.
        let trueVolume = Double.pi * Double(height) * Double(0.05 * 0.05 + 0.05 * 0.15 + 0.15 * 0.15) / 3
        XCTAssertGreaterThan(Fixtures.signedVolume(straight.mesh) - trueVolume, 0.01 * trueVolume)
        XCTAssertEqual(Fixtures.signedVolume(drawnIn.mesh), trueVolume, accuracy: 0.005 * trueVolume)
    }

    func testWithFreeSpaceAHigherRaggedRimIsStillClosedOnTheSupport() {
        // 90 % of the rim lies above a quarter of the height (up to 6.5 cm of 20): dropped
        // straight, such a skirt would invent too much; drawn in, it may close.
        let open = seen(low: 0.045, high: 0.065)
        XCTAssertEqual(OpeningClosure().close(open, supportPlane: floor, viewpoints: ring).report.closedOnSupport, 0)
        let drawnIn = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring, showsEmpty: outsideTheObject)
        XCTAssertEqual(drawnIn.report.closedOnSupport, 1)
        XCTAssertEqual(Fixtures.edgeDefects(drawnIn.mesh).openOrNonManifold, 0)
        XCTAssertLessThan(footRadii(drawnIn.mesh).max() ?? 1, 0.05 + 0.006)
    }

    func testAHigherRimNeedsAFootDrawnIn() {
        // The same rim as above, but nothing shown empty: the strict limit holds, as without depth.
        let open = seen(low: 0.045, high: 0.065)
        let unseen = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring, showsEmpty: { _ in false })
        let withoutDepth = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring)
        XCTAssertEqual(unseen.report, withoutDepth.report)
        XCTAssertEqual(unseen.report.closedOnSupport, 0)
    }

    func testALobedFootIsFollowedAndNoFootLeavesItsStraightDrop() {
        // Five lobes (radius × 1 ± 0.2), widening upwards: each foot is drawn in to the true
        // outline at its angle, within the step, and none is pushed out beyond straight below.
        let lobes = { (angle: Float) in 1 + 0.2 * sin(5 * angle) }
        let open = OpeningClosureTests.cylinder(radius: 1, height: height, segments: 120, rings: 24, bottom: { _ in 0.03 },
                                                shape: lobes, widening: Self.trueRadius)
        let inside: @Sendable (SIMD3<Float>) -> Bool = { p in
            let angle = atan2(p.y, p.x)
            return (p.x * p.x + p.y * p.y).squareRoot() > (1 + 0.2 * sin(5 * angle)) * Self.trueRadius(p.z)
        }
        let result = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring, showsEmpty: inside)
        XCTAssertEqual(result.report.closedOnSupport, 1)
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).openOrNonManifold, 0, "watertight")
        XCTAssertEqual(Fixtures.edgeDefects(result.mesh).misoriented, 0)
        let rimRadius = Self.trueRadius(0.03)
        var outline = 0
        for p in result.mesh.positions where p.z < 0.001 {
            let r = (p.x * p.x + p.y * p.y).squareRoot(), shape = 1 + 0.2 * sin(5 * atan2(p.y, p.x))
            // Cap vertices lie inside; the outline's lie on the true foot (5 cm × shape).
            if r > 0.8 * 0.05 * shape {
                outline += 1
                XCTAssertLessThan(r, 0.05 * shape + 0.006, "foot on the true outline")
            }
            XCTAssertLessThanOrEqual(r, rimRadius * shape + 1e-4, "never beyond straight below")
        }
        XCTAssertGreaterThanOrEqual(outline, 100)
    }

    func testWhereNothingIsShownEmptyTheSkirtDropsStraightDown() {
        let open = seen(low: 0.02, high: 0.04)
        let straight = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring)
        let unseen = OpeningClosure().close(open, supportPlane: floor, viewpoints: ring, showsEmpty: { _ in false })
        XCTAssertEqual(unseen.mesh.positions, straight.mesh.positions)
        XCTAssertEqual(unseen.mesh.triangles, straight.mesh.triangles)
    }
}
