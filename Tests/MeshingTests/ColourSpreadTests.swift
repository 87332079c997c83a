import Meshing
import ReconstructionCore
import XCTest

final class ColourSpreadTests: XCTestCase {
    /// A strip of quads along x, vertex pairs (2i, 2i+1) at x = i.
    func strip(_ columns: Int) -> TriangleMesh {
        var positions: [SIMD3<Float>] = [], triangles: [SIMD3<UInt32>] = []
        for i in 0..<columns {
            positions += [SIMD3(Float(i), 0, 0), SIMD3(Float(i), 1, 0)]
            if i > 0 {
                let a = UInt32(2 * i - 2), b = a + 1, c = a + 2, d = a + 3
                triangles += [SIMD3(a, c, b), SIMD3(b, c, d)]
            }
        }
        return TriangleMesh(positions: positions, triangles: triangles,
                            colors: [SIMD3<Float>](repeating: TriangleMesh.uncolouredGrey, count: positions.count))
    }

    func testAnUncolouredPatchTakesTheColoursAroundItsRim() {
        var mesh = strip(6)
        let red = SIMD3<Float>(1, 0, 0), blue = SIMD3<Float>(0, 0, 1)
        mesh.colors[0] = red; mesh.colors[1] = red     // x = 0
        mesh.colors[10] = blue; mesh.colors[11] = blue  // x = 5
        XCTAssertEqual(mesh.spreadColours(into: Set(2..<10)), 8)
        XCTAssertFalse(mesh.colors.contains(TriangleMesh.uncolouredGrey))
        // Each end's colour leads on its own side.
        XCTAssertGreaterThan(mesh.colors[2].x, mesh.colors[2].z)
        XCTAssertGreaterThan(mesh.colors[8].z, mesh.colors[8].x)
        XCTAssertEqual(mesh.colors[0], red, "vertices outside the targets keep their colour")
        for colour in mesh.colors { XCTAssertEqual(colour.x + colour.z, 1, accuracy: 1e-5, "means of red and blue only") }
    }

    func testAPatchWithNoColouredVertexConnectedKeepsItsColour() {
        var mesh = strip(3)
        var island = strip(2)
        island.colors[0] = SIMD3(0, 1, 0)
        mesh.append(island)  // vertices 6…9, not connected to the first strip
        XCTAssertEqual(mesh.spreadColours(into: Set(0..<6).union([7, 8, 9])), 3)
        XCTAssertEqual(Array(mesh.colors[0..<6]), [SIMD3<Float>](repeating: TriangleMesh.uncolouredGrey, count: 6))
        XCTAssertEqual(mesh.colors[9], SIMD3(0, 1, 0))
    }
}
