import Foundation
import Reconstruction
import ReconstructionCore
import XCTest

/// Fusion and consistency filtering on exact depth maps of a known scene.
final class DepthMapFusionTests: XCTestCase {
    /// Exact depth maps, normals and images of every camera of the box-corner scene.
    static func exactViews(_ scene: StereoTestScene) -> [ViewDepth] {
        scene.cameraFromWorld.indices.map { c in
            let k = scene.intrinsics
            let rotation = scene.cameraFromWorld[c].rotation
            var normals = [SIMD3<Float>](repeating: .zero, count: k.width * k.height)
            for y in 0..<k.height {
                for x in 0..<k.width {
                    guard let hit = scene.hit(camera: c, x: Double(x) + 0.5, y: Double(y) + 0.5) else { continue }
                    let n = rotation * hit.normalInWorld
                    normals[y * k.width + x] = SIMD3(Float(n.x), Float(n.y), Float(n.z))
                }
            }
            return ViewDepth(name: "view\(c)", intrinsics: k, worldFromCamera: scene.cameraFromWorld[c].inverse,
                             depth: scene.trueDepth(camera: c), normalsInCamera: normals, image: scene.renderRGB(camera: c),
                             neighbours: scene.cameraFromWorld.indices.filter { $0 != c })
        }
    }

    /// Distance of a world point to the nearest plane of the scene, metres.
    static func distanceToScene(_ p: SIMD3<Float>, _ scene: StereoTestScene) -> Double {
        let point = Vector3(Double(p.x), Double(p.y), Double(p.z))
        return scene.planes.map { abs($0.normal.dot(point) - $0.offset) }.min()!
    }

    func testFusedPointsOfExactDepthMapsLieOnTheSurfaceWithNormalsAndColours() {
        let scene = StereoTestScene.boxCorner(width: 120, height: 90)
        let cloud = DepthMapFusion().fuse(Self.exactViews(scene))
        XCTAssertGreaterThan(cloud.count, 3000, "most pixels are seen by three or more views")
        XCTAssertTrue(cloud.hasNormals)
        XCTAssertTrue(cloud.hasColors)
        let worst = cloud.positions.map { Self.distanceToScene($0, scene) }.max() ?? 1
        XCTAssertLessThan(worst, 0.03, "within the 1 % depth tolerance of points ~5 m away")
        // Normals face the cameras (−z in world for both planes) and match the planes'.
        let facing = cloud.normals.filter { $0.z < -0.6 }.count
        XCTAssertEqual(facing, cloud.count)
        XCTAssertTrue(cloud.colors.allSatisfy { $0.x >= 0 && $0.x <= 1 && $0.z <= $0.x })
    }

    func testInconsistentOutlierDepthsInOneViewAreRejected() {
        let scene = StereoTestScene.boxCorner(width: 120, height: 90)
        var views = Self.exactViews(scene)
        // A block of view 0 pushed 15 % closer: no other view agrees with it.
        var outlier = Set<Int>()
        for y in 20..<60 {
            for x in 20..<70 {
                let i = y * 120 + x
                views[0].depth.metres[i] *= 0.85
                outlier.insert(i)
            }
        }
        let cloud = DepthMapFusion().fuse(views)
        let offSurface = cloud.positions.filter { Self.distanceToScene($0, scene) > 0.05 }
        XCTAssertEqual(offSurface.count, 0, "no fused point comes from the outlier block")
        XCTAssertGreaterThan(cloud.count, 3000)

        // The consistency filter drops the block from view 0 and keeps the rest of it.
        let neighbours = views[1...].map {
            DepthConsistencyFilter.Neighbour(intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera, depth: $0.depth)
        }
        let filtered = DepthConsistencyFilter().filter(views[0], costs: [Float](repeating: 0.1, count: 120 * 90),
                                                       neighbours: neighbours, workers: 2)
        let keptOutliers = outlier.filter { filtered.depth.metres[$0] > 0 }.count
        XCTAssertEqual(keptOutliers, 0)
        let kept = filtered.depth.metres.indices.filter { !outlier.contains($0) && filtered.depth.metres[$0] > 0 }.count
        XCTAssertGreaterThan(kept, (120 * 90 - outlier.count) * 8 / 10)
        XCTAssertTrue(filtered.confidence.indices.allSatisfy { (filtered.confidence[$0] > 0) == (filtered.depth.metres[$0] > 0) })
    }

    /// A smooth surface only one neighbour confirms is kept while no other neighbour sees past it
    /// (they have it hidden, as under a vase's belly), and dropped when one does; one neighbour
    /// alone is never enough.
    func testADepthOneNeighbourConfirmsIsKeptUnlessAnotherSeesPastIt() {
        let scene = StereoTestScene.boxCorner(width: 120, height: 90)
        let views = Self.exactViews(scene)
        XCTAssertGreaterThanOrEqual(views.count, 3)
        func neighbour(_ view: ViewDepth, depthScale: Float) -> DepthConsistencyFilter.Neighbour {
            var depth = view.depth
            depth.metres = depth.metres.map { $0 * depthScale }
            return DepthConsistencyFilter.Neighbour(intrinsics: view.intrinsics, worldFromCamera: view.worldFromCamera, depth: depth)
        }
        let measured = views[0].depth.metres.filter { $0 > 0 }.count
        func keptFraction(_ neighbours: [DepthConsistencyFilter.Neighbour], options: DepthConsistencyFilter.Options = .init()) -> Double {
            let filtered = DepthConsistencyFilter(options: options).filter(
                views[0], costs: [Float](repeating: 0.1, count: 120 * 90), neighbours: neighbours, workers: 2)
            return Double(filtered.depth.metres.filter { $0 > 0 }.count) / Double(measured)
        }
        let confirming = neighbour(views[1], depthScale: 1)
        let hidden = keptFraction([confirming, neighbour(views[2], depthScale: 0.5)])    // view 2 sees something nearer
        let seenPast = keptFraction([confirming, neighbour(views[2], depthScale: 1.5)])  // view 2 saw a surface beyond it
        let alone = keptFraction([confirming])
        var strict = DepthConsistencyFilter.Options()
        strict.acceptsOneUncontradicted = false
        let strictHidden = keptFraction([confirming, neighbour(views[2], depthScale: 0.5)], options: strict)
        print(String(format: "kept: hidden %.3f, seen past %.3f, one neighbour alone %.3f, hidden with two required %.3f",
                     hidden, seenPast, alone, strictHidden))
        XCTAssertGreaterThan(hidden, 0.8)
        XCTAssertLessThan(seenPast, 0.2, "a view that sees past the point drops it where it looks")
        XCTAssertEqual(alone, 0, "one confirmation and no other view is not enough")
        XCTAssertEqual(strictHidden, 0)
    }
}
