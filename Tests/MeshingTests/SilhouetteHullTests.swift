import Foundation
import Meshing
import ReconstructionCore
import XCTest

/// The visual hull of a sphere from masks rendered exactly.
final class SilhouetteHullTests: XCTestCase {
    let centre = Vector3(0, 0, 0.5)
    let radius = 0.2
    let k = CameraIntrinsics(width: 160, height: 120, fx: 150, fy: 150, cx: 80, cy: 60)

    /// A sphere's mask seen from `pose`: the pixels whose ray meets it.
    func mask(_ pose: RigidTransform) -> GrayImage {
        let depth = MeshingFixtures.renderDepth(k, pose, hit: MeshingFixtures.sphereHit(centre: centre, radius: radius))
        return GrayImage(width: k.width, height: k.height, pixels: depth.metres.map { $0 > 0 ? 255 : 0 })
    }

    /// Cameras on rings at the given elevations (degrees), `perRing` each, 1.2 m from the centre.
    func views(elevations: [Double], perRing: Int, azimuthSpan: Double = 360) -> [(mask: GrayImage, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform)] {
        elevations.flatMap { elevation in
            (0..<perRing).map { i in
                let azimuth = azimuthSpan * Double(i) / Double(perRing) * Double.pi / 180, e = elevation * Double.pi / 180
                let direction = Vector3(cos(e) * cos(azimuth), cos(e) * sin(azimuth), sin(e))
                let pose = MeshingFixtures.worldFromCamera(centre: centre + 1.2 * direction, lookingAt: centre)
                return (mask(pose), k, pose)
            }
        }
    }

    func point(_ v: Vector3) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }

    func testTheHullOfASphereSeenAllAroundHugsItsSides() {
        let hull = SilhouetteHull(masks: views(elevations: [-40, 0, 40], perRing: 8), slackPixels: 0)
        XCTAssertEqual(hull.viewCount, 24)
        let inside = hull.signedDistance(point(centre))
        XCTAssertEqual(inside.seenBy, 24)
        XCTAssertLessThan(inside.distance, -0.15, "the centre is deep inside")
        // Beside the sphere, at the height of a ring: its outline there is the sphere's, 5 cm away.
        for offset in [0.25, 0.3] {
            let beside = hull.signedDistance(point(centre + Vector3(offset, 0, 0)))
            XCTAssertEqual(Double(beside.distance), offset - radius, accuracy: 0.006, "\(offset)")
        }
        let box = hull.bounds(in: BoundingBox(centre: centre, halfExtents: Vector3(0.6, 0.6, 0.6)), minViews: 12)
        let bounds = try! XCTUnwrap(box)
        XCTAssertEqual(bounds.centre.z, 0.5, accuracy: 0.03)
        for half in [bounds.halfExtents.x, bounds.halfExtents.y, bounds.halfExtents.z] {
            XCTAssertGreaterThan(half, radius)
            XCTAssertLessThan(half, radius + 0.08, "the box stays near the sphere: \(bounds)")
        }
    }

    /// Views from one side only leave the hull open along their direction: no box.
    func testViewsFromOneSideDoNotBoundTheHull() {
        let hull = SilhouetteHull(masks: views(elevations: [0, 20], perRing: 4, azimuthSpan: 40), slackPixels: 0)
        XCTAssertNil(hull.bounds(in: BoundingBox(centre: centre, halfExtents: Vector3(0.6, 0.6, 0.6)), minViews: 4))
    }

    /// A view that frames the whole object rules out what it does not see; one whose mask
    /// touches the frame's edge says nothing about what lies beyond.
    func testOnlyAViewFramingTheWholeObjectRulesOutPointsOutOfFrame() {
        let pose = MeshingFixtures.worldFromCamera(centre: centre + Vector3(1.2, 0, 0), lookingAt: centre)
        let farAside = point(centre + Vector3(0, 3, 0))
        let framed = SilhouetteHull(masks: [(mask(pose), k, pose)], slackPixels: 0)
        XCTAssertEqual(framed.signedDistance(farAside).seenBy, 1)
        XCTAssertGreaterThan(framed.signedDistance(farAside).distance, 1)
        var touching = mask(pose)
        touching.pixels[0] = 255
        let cut = SilhouetteHull(masks: [(touching, k, pose)], slackPixels: 0)
        XCTAssertEqual(cut.signedDistance(farAside).seenBy, 0)
        XCTAssertEqual(cut.signedDistance(farAside).distance, -.infinity)
    }
}
