import ReconstructionCore
import XCTest

final class AtlasTexelMapTests: XCTestCase {
    /// A unit square in the plane z = 0 split into two triangles, its atlas the whole texture.
    private func square(uvScale: Float = 1) -> TexturedMesh {
        let p: [SIMD3<Float>] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]
        return TexturedMesh(positions: p, normals: Array(repeating: [0, 0, 1], count: 4),
                            triangles: [[0, 1, 2], [0, 2, 3]],
                            uvs: p.map { SIMD2($0.x, $0.y) * uvScale }, uvTriangles: [[0, 1, 2], [0, 2, 3]])
    }

    func testFullSquareCoversEveryTexelOnceWithCorrectBarycentrics() {
        let mesh = square()
        let map = AtlasTexelMap(mesh: mesh, width: 16, height: 8)
        XCTAssertEqual(map.coveredCount, 128)
        for y in 0..<8 {
            for x in 0..<16 {
                guard let (t, b) = map.hit(x: x, y: y) else { return XCTFail("texel \(x),\(y) not covered") }
                let uv = mesh.uvTriangles[t]
                let rebuilt = b.x * mesh.uvs[Int(uv.x)] + b.y * mesh.uvs[Int(uv.y)] + b.z * mesh.uvs[Int(uv.z)]
                XCTAssertEqual(rebuilt.x, (Float(x) + 0.5) / 16, accuracy: 1e-5)
                XCTAssertEqual(rebuilt.y, (Float(y) + 0.5) / 8, accuracy: 1e-5)
            }
        }
    }

    func testHalfSizedChartLeavesGutterAndPaddingFillsRings() {
        let map = AtlasTexelMap(mesh: square(uvScale: 0.5), width: 16, height: 16)
        XCTAssertEqual(map.coveredCount, 64)
        XCTAssertNil(map.hit(x: 8, y: 8))
        var pixels = [UInt8](repeating: 0, count: 256)
        let covered = map.triangle.map { $0 >= 0 }
        for k in 0..<256 where covered[k] { pixels[k] = 200 }
        AtlasPadding.dilate(&pixels, channels: 1, width: 16, height: 16, covered: covered, rings: 2)
        XCTAssertEqual(pixels[8 * 16 + 9], 200, "second ring filled")
        XCTAssertEqual(pixels[9 * 16 + 9], 200, "diagonal second ring filled")
        XCTAssertEqual(pixels[10 * 16 + 10], 0, "third ring left alone")
        XCTAssertEqual(square().inconsistency, nil)
        var broken = square()
        broken.uvTriangles[1] = [0, 2, 9]
        XCTAssertNotNil(broken.inconsistency)
    }
}
