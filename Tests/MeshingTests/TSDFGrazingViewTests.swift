import Meshing
import ReconstructionCore
import XCTest

/// Surfaces seen only at grazing angles (a floor from standing height, a wall turning away) and
/// depth edges: the first are fused, the second are not bridged.
final class TSDFGrazingViewTests: XCTestCase {
    private typealias Fixtures = MeshingFixtures
    private let k = CameraIntrinsics(width: 160, height: 120, fx: 240, fy: 240, cx: 80, cy: 60)

    private func options() -> TSDFVolume.Options {
        var options = TSDFVolume.Options()
        options.voxelSize = 0.01  // truncation 4 cm
        return options
    }

    /// A floor z = 0 seen from 0.3 m above it, 2 m away: about 80° from the normal, so neighbouring
    /// pixels differ by about 5 cm in depth, more than the 2 cm a depth edge is told by.
    func testAFloorSeenOnlyAtAGrazingAngleIsFusedOntoThePlane() throws {
        var volume = TSDFVolume(options: options())
        for centre in [Vector3(0, -2, 0.3), Vector3(0.3, -2.1, 0.3), Vector3(-0.3, -2.05, 0.32)] {
            let pose = Fixtures.worldFromCamera(centre: centre, lookingAt: Vector3(centre.x, 0, 0), up: Vector3(0, 0, 1))
            let depth = Fixtures.renderDepth(k, pose, hit: Fixtures.planeHit(normal: Vector3(0, 0, 1), offset: 0))
            try volume.integrate(depth: depth, intrinsics: k, worldFromCamera: pose)
        }
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 1000, "the floor is a surface")
        let near = mesh.positions.filter { abs($0.y) < 0.3 && abs($0.x) < 0.3 }  // about 2 m from the cameras
        XCTAssertGreaterThan(near.count, 50)
        let worst = near.map { abs($0.z) }.max() ?? .infinity
        XCTAssertLessThan(worst, 0.5 * options().voxelSize, "vertices on the floor, metres")
    }

    /// A depth map with a step, 1 m on the left and 1.1 m on the right (more than the 4 cm
    /// truncation, so the voxels between are in the band): two surfaces and nothing between them.
    func testADepthEdgeIsNotBridged() throws {
        // A wide lens, so a pixel (2.5 cm at 1 m) spans more than a voxel and a bridge could form.
        let wide = CameraIntrinsics(width: 160, height: 120, fx: 40, fy: 40, cx: 80, cy: 60)
        var volume = TSDFVolume(options: options())
        var depth = DepthMap(width: wide.width, height: wide.height)
        for y in 0..<wide.height {
            for x in 0..<wide.width { depth[x, y] = x < 80 ? 1.0 : 1.1 }
        }
        try volume.integrate(depth: depth, intrinsics: wide, worldFromCamera: .identity)
        let mesh = MarchingCubes().extractMesh(from: volume)
        XCTAssertGreaterThan(mesh.triangleCount, 1000)
        let between = mesh.positions.filter { $0.z > 1.02 && $0.z < 1.08 }
        XCTAssertEqual(between.count, 0, "no surface joins the two depths")
    }
}
