import Foundation
import Meshing
import Reconstruction
import ReconstructionCore
import XCTest

/// Masked objects whose depth covers only their upper half (as stereo leaves the grazing lower
/// part of a vase seen from few photos): the visual hull of the masks completes the rest.
final class SilhouetteFillTests: XCTestCase {
    /// Depth maps (only where `keep` holds for the hit point) and full masks of an object given by
    /// its ray hit (the ray parameter of `origin + t · direction`), from rings of 12 cameras at
    /// the given elevations, 1.2 m from `target`.
    func inputs(elevations: [Double], target: Vector3, hit: (Vector3, Vector3) -> Double?,
                keep: (Vector3) -> Bool) -> [SurfaceReconstruction.DepthInput] {
        let k = CameraIntrinsics(width: 160, height: 120, fx: 150, fy: 150, cx: 80, cy: 60)
        return elevations.flatMap { elevation in
            (0..<12).map { i -> SurfaceReconstruction.DepthInput in
                let azimuth = 2 * Double.pi * (Double(i) + elevation / 40 * 0.5) / 12, e = elevation * Double.pi / 180
                let position = target + 1.2 * Vector3(cos(e) * cos(azimuth), cos(e) * sin(azimuth), sin(e))
                let forward = (target - position).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
                let down = forward.cross(right)
                let pose = RigidTransform(rotation: Matrix3(rows: Vector3(right.x, down.x, forward.x), Vector3(right.y, down.y, forward.y),
                                                            Vector3(right.z, down.z, forward.z)), translation: position)
                var depth = DepthMap(width: k.width, height: k.height)
                var mask = GrayImage(width: k.width, height: k.height, pixels: [UInt8](repeating: 0, count: k.width * k.height))
                for y in 0..<k.height {
                    for x in 0..<k.width {
                        let direction = pose.rotation * Vector3((Double(x) + 0.5 - k.cx) / k.fx, (Double(y) + 0.5 - k.cy) / k.fy, 1)
                        guard let t = hit(position, direction) else { continue }
                        mask.pixels[y * k.width + x] = 255
                        if keep(position + t * direction) { depth[x, y] = Float(t) }
                    }
                }
                // A red photo: what the hull completes takes its colour from the photos.
                let red = RGBImage(width: k.width, height: k.height, pixels: (0..<(k.width * k.height)).flatMap { _ in [UInt8(200), 30, 20] })
                return .init(depth: depth, weights: nil, intrinsics: k, worldFromCamera: pose, colour: red, mask: mask)
            }
        }
    }

    func run(_ inputs: [SurfaceReconstruction.DepthInput], fill: Bool, up: Vector3? = nil,
             progress: (Double) -> Void = { _ in }) throws -> SurfaceReconstruction.Result {
        var options = SurfaceReconstruction.Options()
        options.voxelSize = 0.01
        options.fillsFromSilhouettes = fill
        return try SurfaceReconstruction(options: options).run(inputs, up: up, progress: progress)
    }

    /// A sphere seen from below too, so its hull closes tightly underneath.
    func testTheHullCompletesTheLowerHalfTheDepthMissed() throws {
        let centre = Vector3(0, 0, 0.5), radius = 0.2
        let sphere = inputs(elevations: [-30, 10, 40], target: centre, hit: { origin, direction in
            let oc = origin - centre
            let a = direction.dot(direction), b = 2 * oc.dot(direction), c = oc.dot(oc) - radius * radius
            guard b * b - 4 * a * c >= 0 else { return nil }
            return (-b - (b * b - 4 * a * c).squareRoot()) / (2 * a)
        }, keep: { $0.z >= centre.z })
        var fractions: [Double] = []
        let filled = try run(sphere, fill: true) { fractions.append($0) }
        XCTAssertGreaterThan(filled.silhouetteVoxels, 0)
        // Progress: one report per depth map and per later step, never going back, ending at 1.
        XCTAssertGreaterThanOrEqual(fractions.count, sphere.count + 3)
        XCTAssertEqual(fractions, fractions.sorted(), "progress never goes back")
        XCTAssertEqual(fractions.last ?? 0, 1, accuracy: 1e-12)
        let lowest = Double(filled.mesh.positions.map(\.z).min()!)
        XCTAssertEqual(lowest, centre.z - radius, accuracy: 0.03, "the surface reaches the sphere's bottom")
        let distances = filled.mesh.positions.map {
            abs((Vector3(Double($0.x), Double($0.y), Double($0.z)) - centre).length - radius)
        }.sorted()
        XCTAssertLessThan(distances[distances.count / 2], 0.006, "median distance to the sphere")
        XCTAssertLessThan(distances[distances.count * 95 / 100], 0.025, "95th percentile")
        // The completed lower half is coloured from the photos, not left grey.
        let lower = filled.mesh.positions.indices.filter { Double(filled.mesh.positions[$0].z) < centre.z - 0.1 }
        XCTAssertFalse(lower.isEmpty)
        let red = lower.filter { simdLength(filled.mesh.colors[$0] - SIMD3<Float>(200, 30, 20) / 255) < 0.01 }
        XCTAssertGreaterThan(Double(red.count), 0.95 * Double(lower.count), "lower-half vertices coloured from the photos")
        // The box grew to the hull: the automatic one, from the depth, ends at the equator.
        XCTAssertLessThan(filled.bounds.centre.z - filled.bounds.halfExtents.z, centre.z - radius)

        let unfilled = try run(sphere, fill: false)
        XCTAssertEqual(unfilled.silhouetteVoxels, 0)
        XCTAssertGreaterThan(Double(unfilled.mesh.positions.map(\.z).min()!), centre.z - 0.05, "without the hull, cut near the equator")
    }

    /// A cube standing on a floor, photographed from above only, with no depth of the floor:
    /// given the up direction, the photos' lowest object pixels put the support at its foot,
    /// and the hull stops there instead of ending in a cone below the floor.
    func testTheSupportUnderAnObjectSeenFromAboveComesFromItsSilhouettes() throws {
        let low = Vector3(-0.1, -0.1, 0), high = Vector3(0.1, 0.1, 0.2)
        let cube = inputs(elevations: [10, 35, 60], target: Vector3(0, 0, 0.1), hit: { origin, direction in
            var near = -Double.infinity, far = Double.infinity
            for (o, d, l, h) in [(origin.x, direction.x, low.x, high.x), (origin.y, direction.y, low.y, high.y),
                                 (origin.z, direction.z, low.z, high.z)] {
                guard abs(d) > 1e-12 else { if o < l || o > h { return nil } else { continue } }
                near = max(near, min((l - o) / d, (h - o) / d))
                far = min(far, max((l - o) / d, (h - o) / d))
            }
            return near <= far && near > 0 ? near : nil
        }, keep: { $0.z >= 0.1 })
        let grounded = try run(cube, fill: true, up: Vector3(0, 0, 1))
        let floor = try XCTUnwrap(grounded.supportPlane)
        XCTAssertGreaterThan(floor.normal.z, 0.999)
        XCTAssertEqual(floor.offset, 0, accuracy: 0.01)
        let heights = grounded.mesh.positions.map(\.z)
        XCTAssertEqual(heights.min()!, 0, accuracy: 0.012, "the walls end at the floor")
        let outside = grounded.mesh.positions.filter { p in
            let gap = SIMD3<Float>(max(-0.1 - p.x, p.x - 0.1, 0), max(-0.1 - p.y, p.y - 0.1, 0), max(-p.z, p.z - 0.2, 0))
            return simdLength(gap) > 0.015
        }
        XCTAssertLessThan(Double(outside.count), 0.02 * Double(heights.count), "vertices more than 1.5 voxels outside the cube")
        // The bottom face, which no photo sees, takes the red of the walls around it instead of grey.
        let bottom = grounded.mesh.positions.indices.filter { grounded.mesh.positions[$0].z < heights.min()! + 0.005 }
        XCTAssertFalse(bottom.isEmpty)
        XCTAssertFalse(bottom.contains { grounded.mesh.colors[$0] == TriangleMesh.uncolouredGrey }, "no bottom vertex left grey")
        XCTAssertTrue(bottom.allSatisfy { simdLength(grounded.mesh.colors[$0] - SIMD3<Float>(200, 30, 20) / 255) < 0.01 })

        let coned = try run(cube, fill: true)
        XCTAssertNil(coned.supportPlane)
        XCTAssertLessThan(coned.mesh.positions.map(\.z).min()!, -0.03, "without up, the hull reaches below the floor")
    }
}
