import Meshing
import Reconstruction
import ReconstructionCore
import Texturing
import XCTest

final class TexturedModelBuilderTests: XCTestCase {
    /// A UV sphere of radius 1 at the origin, `rings` × `segments` quads split in two.
    func sphere(rings: Int, segments: Int) -> TriangleMesh {
        var positions: [SIMD3<Float>] = []
        for r in 0...rings {
            let theta = Float.pi * Float(r) / Float(rings)
            for s in 0..<segments {
                let phi = 2 * Float.pi * Float(s) / Float(segments)
                positions.append(SIMD3(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)))
            }
        }
        var triangles: [SIMD3<UInt32>] = []
        for r in 0..<rings {
            for s in 0..<segments {
                let a = UInt32(r * segments + s), b = UInt32(r * segments + (s + 1) % segments)
                let c = a + UInt32(segments), d = b + UInt32(segments)
                if r > 0 { triangles.append(SIMD3(a, b, c)) }
                if r < rings - 1 { triangles.append(SIMD3(b, d, c)) }
            }
        }
        // The poles' rings are points: weld them so the sphere is one closed piece.
        return TriangleMesh(positions: positions, triangles: triangles).weldingCoincidentVertices()
    }

    /// Crumbs (a few triangles apart from the surface, as decimation breaks them off thin parts)
    /// do not reach the model; the surface itself is kept whole.
    func testTheModelKeepsNoCrumbs() throws {
        var surface = sphere(rings: 60, segments: 80)
        let crumb = TriangleMesh(positions: [SIMD3(1.5, 0, 0), SIMD3(1.52, 0, 0), SIMD3(1.5, 0.02, 0)], triangles: [SIMD3(0, 1, 2)])
        surface.append(crumb)
        // A strand hanging from the sphere by one vertex (its north pole) is a crumb too.
        let pole = UInt32(surface.positions.firstIndex { $0.y > 0.999 }!)
        let base = UInt32(surface.positions.count)
        surface.positions += [SIMD3(0.01, 1.2, 0), SIMD3(-0.01, 1.2, 0.01)]
        surface.triangles.append(SIMD3(pole, base, base + 1))
        let camera = CameraIntrinsics(width: 64, height: 48, fx: 40, fy: 40, cx: 32, cy: 24)
        let view = BakingView(name: "front", image: RGBImage(width: 64, height: 48, fill: (200, 120, 60)), intrinsics: camera,
                              cameraFromWorld: RigidTransform(rotation: .identity, translation: Vector3(0, 0, 4)))
        let budget = DetailBudget(maximumTriangleCount: 2000, textureDimension: .oneK, textureMaps: [.diffuseColor])
        let built = try TexturedModelBuilder().build(surface: surface, views: [view], budget: budget,
                                                     modelFromWorld: SimilarityTransform(scale: 1, rotation: .identity, translation: .zero),
                                                     isMetric: false)
        let mesh = TriangleMesh(positions: built.model.mesh.positions, triangles: built.model.mesh.triangles)
        XCTAssertEqual(mesh.triangleComponentsByEdge().count, 1, "one piece: the sphere")
        XCTAssertGreaterThanOrEqual(built.report.droppedCrumbs, 2)
        XCTAssertLessThanOrEqual(built.report.triangles, 2000)
        XCTAssertGreaterThan(built.report.triangles, 1500, "the sphere itself is decimated to the cap, not dropped")
        let radii = mesh.positions.map { simdLength($0) }
        XCTAssertLessThan(radii.max()!, 1.01, "no vertex of the crumb is left")
    }
}
