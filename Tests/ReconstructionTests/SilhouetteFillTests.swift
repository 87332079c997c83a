import Foundation
import Meshing
import Reconstruction
import ReconstructionCore
import XCTest

/// A masked object whose depth covers only its upper half (as stereo leaves the grazing lower
/// part of a vase seen from few views): the visual hull of its masks completes the rest. Cameras
/// below the sphere too, so its hull closes tightly underneath (with cameras above only it ends
/// in a cone below the object, cut only by a support plane).
final class SilhouetteFillTests: XCTestCase {
    let centre = Vector3(0, 0, 0.5)
    let radius = 0.2

    func inputs() -> [SurfaceReconstruction.DepthInput] {
        let k = CameraIntrinsics(width: 160, height: 120, fx: 150, fy: 150, cx: 80, cy: 60)
        return [-30.0, 10, 40].flatMap { elevation in
            (0..<12).map { i -> SurfaceReconstruction.DepthInput in
                let azimuth = 2 * Double.pi * (Double(i) + elevation / 40 * 0.5) / 12, e = elevation * Double.pi / 180
                let position = centre + 1.2 * Vector3(cos(e) * cos(azimuth), cos(e) * sin(azimuth), sin(e))
                let forward = (centre - position).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
                let down = forward.cross(right)
                let pose = RigidTransform(rotation: Matrix3(rows: Vector3(right.x, down.x, forward.x), Vector3(right.y, down.y, forward.y),
                                                            Vector3(right.z, down.z, forward.z)), translation: position)
                var depth = DepthMap(width: k.width, height: k.height)
                var mask = GrayImage(width: k.width, height: k.height, pixels: [UInt8](repeating: 0, count: k.width * k.height))
                for y in 0..<k.height {
                    for x in 0..<k.width {
                        let direction = pose.rotation * Vector3((Double(x) + 0.5 - k.cx) / k.fx, (Double(y) + 0.5 - k.cy) / k.fy, 1)
                        let oc = position - centre
                        let a = direction.dot(direction), b = 2 * oc.dot(direction), c = oc.dot(oc) - radius * radius
                        guard b * b - 4 * a * c >= 0 else { continue }
                        let t = (-b - (b * b - 4 * a * c).squareRoot()) / (2 * a)
                        mask.pixels[y * k.width + x] = 255
                        // Depth only on the upper half.
                        if (position + t * direction).z >= centre.z { depth[x, y] = Float(t) }
                    }
                }
                return .init(depth: depth, weights: nil, intrinsics: k, worldFromCamera: pose, mask: mask)
            }
        }
    }

    func run(fill: Bool) throws -> SurfaceReconstruction.Result {
        var options = SurfaceReconstruction.Options()
        options.voxelSize = 0.01
        options.fillsFromSilhouettes = fill
        return try SurfaceReconstruction(options: options).run(inputs())
    }

    func distancesToSphere(_ mesh: TriangleMesh) -> [Double] {
        mesh.positions.map { abs((Vector3(Double($0.x), Double($0.y), Double($0.z)) - centre).length - radius) }.sorted()
    }

    func testTheHullCompletesTheLowerHalfTheDepthMissed() throws {
        let filled = try run(fill: true)
        XCTAssertGreaterThan(filled.silhouetteVoxels, 0)
        let lowest = Double(filled.mesh.positions.map(\.z).min()!)
        XCTAssertEqual(lowest, centre.z - radius, accuracy: 0.03, "the surface reaches the sphere's bottom")
        let distances = distancesToSphere(filled.mesh)
        XCTAssertLessThan(distances[distances.count / 2], 0.006, "median distance to the sphere")
        XCTAssertLessThan(distances[distances.count * 95 / 100], 0.025, "95th percentile")
        // The box grew to the hull: the automatic one, from the depth, ends at the equator.
        XCTAssertLessThan(filled.bounds.centre.z - filled.bounds.halfExtents.z, centre.z - radius)

        let unfilled = try run(fill: false)
        XCTAssertEqual(unfilled.silhouetteVoxels, 0)
        XCTAssertGreaterThan(Double(unfilled.mesh.positions.map(\.z).min()!), centre.z - 0.05, "without the hull, cut near the equator")
    }
}
