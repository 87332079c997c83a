import ReconstructionCore
import Rendering
import XCTest

final class MeshRasterizerTests: XCTestCase {
    func testFrontalQuadCoversExactlyThePixelsWhoseCentresAreInsideAtItsDepth() {
        // x ∈ [−0.5, 0.5], y ∈ [−0.3, 0.3] at z = 2 project to pixels x ∈ [25, 75], y ∈ [25, 55].
        let quad = frontalQuad(x0: -0.5, x1: 0.5, y0: -0.3, y1: 0.3, z: 2)
        let g = MeshRasterizer().geometry(of: quad, intrinsics: smallCamera, cameraFromWorld: .identity)
        var covered = 0
        for y in 0..<g.height {
            for x in 0..<g.width {
                let inside = (25..<75).contains(x) && (25..<55).contains(y)
                let k = y * g.width + x
                XCTAssertEqual(g.triangleIndex[k] >= 0, inside, "pixel (\(x), \(y))")
                if inside {
                    covered += 1
                    XCTAssertEqual(g.depth[k], 2, accuracy: 1e-6)
                } else {
                    XCTAssertEqual(g.depth[k], 0)
                }
            }
        }
        XCTAssertEqual(covered, 50 * 30)
        // The diagonal from corner 0 (top left) to corner 2 (bottom right) splits the two triangles.
        XCTAssertEqual(g.hit(x: 73, y: 26)?.triangle, 0)  // near the top-right corner
        XCTAssertEqual(g.hit(x: 26, y: 53)?.triangle, 1)  // near the bottom-left corner
    }

    func testDepthOnATiltedPlaneIsTheRayIntersectionAndBarycentricsReproduceIt() throws {
        // The plane z = 2 + 0.5 x, as a large quad.
        let positions: [SIMD3<Float>] = [SIMD3(-1, -1, 1.5), SIMD3(1, -1, 2.5), SIMD3(1, 1, 2.5), SIMD3(-1, 1, 1.5)]
        let plane = TriangleMesh(positions: positions, triangles: [SIMD3(0, 2, 1), SIMD3(0, 3, 2)])
        let g = MeshRasterizer().geometry(of: plane, intrinsics: smallCamera, cameraFromWorld: .identity)
        for (x, y) in [(3, 5), (50, 40), (85, 60), (20, 66), (81, 12)] {
            let u = (Double(x) + 0.5 - 50) / 100, v = (Double(y) + 0.5 - 40) / 100
            let expected = 2 / (1 - 0.5 * u)
            XCTAssertEqual(Double(g.depth[y * g.width + x]), expected, accuracy: 1e-6 * expected)
            let p = try XCTUnwrap(g.surfacePoint(x: x, y: y, in: plane))
            XCTAssertEqual(Double(p.x), u * expected, accuracy: 1e-5)
            XCTAssertEqual(Double(p.y), v * expected, accuracy: 1e-5)
            XCTAssertEqual(Double(p.z), expected, accuracy: 1e-5)
        }
    }

    func testCubeShowsOnlyFacesTurnedToTheCameraAtTheAnalyticDepth() {
        let cube = unitCube()
        let centre = Vector3(2.2, 1.7, 1.4)
        let cameraFromWorld = lookAt(centre: centre, target: Vector3(0.05, -0.03, 0.02))
        let intrinsics = CameraIntrinsics(width: 160, height: 120, fx: 150, fy: 150, cx: 80, cy: 60)
        let g = MeshRasterizer().geometry(of: cube, intrinsics: intrinsics, cameraFromWorld: cameraFromWorld)
        let worldFromCamera = cameraFromWorld.inverse
        var hits = 0, mismatches = 0
        var seenFaces = Set<Int>()
        for y in 0..<g.height {
            for x in 0..<g.width {
                let k = y * g.width + x
                let rayInCamera = Vector3((Double(x) + 0.5 - 80) / 150, (Double(y) + 0.5 - 60) / 150, 1)
                let direction = worldFromCamera.rotation * rayInCamera
                let analytic = slabIntersection(origin: centre, direction: direction, halfSize: 0.5)
                let t = g.triangleIndex[k]
                switch (analytic, t >= 0) {
                case let ((entry, _)?, true):
                    hits += 1
                    // The ray has camera-z component 1, so its parameter at the entry point is the depth.
                    XCTAssertEqual(Double(g.depth[k]), entry, accuracy: 1e-5)
                    seenFaces.insert(Int(t) / 2)
                case let ((entry, exit)?, false):
                    if exit - entry > 1e-3 { mismatches += 1 }  // missed although well inside the silhouette
                case (nil, true):
                    mismatches += 1
                case (nil, false):
                    break
                }
            }
        }
        XCTAssertGreaterThan(hits, 3000)
        XCTAssertEqual(mismatches, 0)
        // Faces in unitCube order: +x, −x, +y, −y, +z, −z; the camera sees +x, +y and +z.
        XCTAssertEqual(seenFaces, [0, 2, 4])
    }

    func testBackFacesAreCulledUnlessCullingIsOff() {
        var quad = frontalQuad(x0: -0.5, x1: 0.5, y0: -0.3, y1: 0.3, z: 2)
        quad.triangles = quad.triangles.map { SIMD3($0.x, $0.z, $0.y) }  // now facing away
        let culled = MeshRasterizer().geometry(of: quad, intrinsics: smallCamera, cameraFromWorld: .identity)
        XCTAssertTrue(culled.triangleIndex.allSatisfy { $0 < 0 })
        var options = MeshRasterizer.Options()
        options.culling = .none
        let both = MeshRasterizer(options: options).geometry(of: quad, intrinsics: smallCamera, cameraFromWorld: .identity)
        XCTAssertEqual(both.triangleIndex.filter { $0 >= 0 }.count, 50 * 30)
    }

    func testNearerSurfaceWinsWhateverTheDrawingOrder() {
        let near = frontalQuad(x0: -0.5, x1: 0.1, y0: -0.3, y1: 0.3, z: 2)
        let far = frontalQuad(x0: -0.2, x1: 0.6, y0: -0.3, y1: 0.3, z: 3)
        for nearFirst in [true, false] {
            var mesh = nearFirst ? near : far
            mesh.append(nearFirst ? far : near)
            let nearTriangles: Set<Int32> = nearFirst ? [0, 1] : [2, 3]
            let g = MeshRasterizer().geometry(of: mesh, intrinsics: smallCamera, cameraFromWorld: .identity)
            // Pixel x = 45 is inside both (near: x < 55, far from 43.3): the near quad wins.
            XCTAssertTrue(nearTriangles.contains(g.triangleIndex[40 * 100 + 45]))
            XCTAssertEqual(g.depth[40 * 100 + 45], 2, accuracy: 1e-6)
            // Pixel x = 60 is only inside the far quad.
            XCTAssertFalse(nearTriangles.contains(g.triangleIndex[40 * 100 + 60]))
            XCTAssertEqual(g.depth[40 * 100 + 60], 3, accuracy: 1e-6)
        }
    }

    func testGroundPlanePassingBehindTheCameraIsClippedAndKeepsExactDepth() {
        // The plane y = 1 (1 m below a camera looking along +z), from 10 m behind to 10 m ahead.
        let positions: [SIMD3<Float>] = [SIMD3(-10, 1, -10), SIMD3(10, 1, -10), SIMD3(10, 1, 10), SIMD3(-10, 1, 10)]
        let ground = TriangleMesh(positions: positions, triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
        let g = MeshRasterizer().geometry(of: ground, intrinsics: smallCamera, cameraFromWorld: .identity)
        for y in 0..<g.height {
            let v = (Double(y) + 0.5 - 40) / 100
            for x in 0..<g.width {
                let k = y * g.width + x
                if v <= 0 {
                    XCTAssertLessThan(g.triangleIndex[k], 0, "above the horizon at (\(x), \(y))")
                } else if 1 / v < 9.9 {
                    XCTAssertEqual(Double(g.depth[k]), 1 / v, accuracy: 1e-5 / v, "at (\(x), \(y))")
                }
            }
        }
    }

    func testAGridOfTrianglesWithEdgesThroughPixelCentresLeavesNoHoles() throws {
        // Vertices every half pixel at depth 1, so many edges and corners pass exactly through pixel centres.
        let n = 80, m = 60
        var positions: [SIMD3<Float>] = []
        for j in 0...m {
            for i in 0...n {
                positions.append(SIMD3(Float(i - n / 2) * 0.005, Float(j - m / 2) * 0.005, 1))
            }
        }
        var triangles: [SIMD3<UInt32>] = []
        for j in 0..<m {
            for i in 0..<n {
                let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
                triangles += (i + j) % 2 == 0 ? [SIMD3(a, b, d), SIMD3(a, d, c)] : [SIMD3(a, b, c), SIMD3(b, d, c)]
            }
        }
        let grid = TriangleMesh(positions: positions, triangles: triangles)
        var options = MeshRasterizer.Options()
        options.culling = .none
        let g = MeshRasterizer(options: options).geometry(of: grid, intrinsics: smallCamera, cameraFromWorld: .identity)
        // The grid spans pixels x ∈ [30, 70], y ∈ [25, 55]; centres on its border are excluded.
        for y in 25..<55 {
            for x in 30..<70 {
                let (t, b) = try XCTUnwrap(g.hit(x: x, y: y), "hole at (\(x), \(y))")
                XCTAssertLessThan(t, triangles.count)
                XCTAssertGreaterThanOrEqual(b.min(), -1e-5, "pixel (\(x), \(y)) drawn by a triangle not containing it")
            }
        }
    }

    func testSupersamplingAntialiasesEdgesWithoutMovingGeometry() {
        // Symmetric about the principal point (50, 40), edges at fractional pixel positions:
        // x ∈ [25.63, 74.37], y ∈ [25.19, 54.81]. Samples placed symmetrically in each pixel keep the
        // intensity centroid at (50, 40) exactly; a biased sample pattern would move it.
        let quad = frontalQuad(x0: -0.4874, x1: 0.4874, y0: -0.2962, y1: 0.2962, z: 2)
        let exactArea = 48.74 * 29.62, perimeter = 2 * (48.74 + 29.62)
        var geometries: [GeometryBuffer] = []
        for s in [1, 2, 4] {
            var options = MeshRasterizer.Options()
            options.supersampling = s
            options.lighting = .unlit
            options.albedo = .uniform(SIMD3(repeating: 1))
            let view = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity)
            geometries.append(view.geometry)
            var area = 0.0, sx = 0.0, sy = 0.0
            for y in 0..<view.color.height {
                for x in 0..<view.color.width {
                    let coverage = linear(view.color.pixels[3 * (y * view.color.width + x)])
                    area += coverage
                    sx += coverage * (Double(x) + 0.5)
                    sy += coverage * (Double(y) + 0.5)
                }
            }
            // Each edge pixel's coverage is quantised to 1/s (at most 1/(2s) off).
            XCTAssertEqual(area, exactArea, accuracy: perimeter / Double(2 * s), "area with \(s)×\(s) samples")
            XCTAssertEqual(sx / area, 50, accuracy: 1e-3)
            XCTAssertEqual(sy / area, 40, accuracy: 1e-3)
        }
        XCTAssertEqual(geometries[0], geometries[1])
        XCTAssertEqual(geometries[0], geometries[2])
        // Pixel 74 is covered from 74 to 74.37: 1 of 2 samples is inside with 2×2, 1 of 4 with 4×4.
        var options = MeshRasterizer.Options()
        options.lighting = .unlit
        options.albedo = .uniform(SIMD3(repeating: 1))
        for (s, coverage) in [(2, 0.5), (4, 0.25)] {
            options.supersampling = s
            let image = MeshRasterizer(options: options).render(quad, intrinsics: smallCamera, cameraFromWorld: .identity).color
            XCTAssertEqual(linear(image.pixels[3 * (40 * 100 + 74)]), coverage, accuracy: 0.003)
            XCTAssertEqual(linear(image.pixels[3 * (40 * 100 + 60)]), 1, accuracy: 0.003)
        }
    }
}

/// Entry and exit distances of the ray origin + t·direction through the cube [−h, h]³, if it hits.
private func slabIntersection(origin: Vector3, direction: Vector3, halfSize h: Double) -> (entry: Double, exit: Double)? {
    var entry = -Double.infinity, exit = Double.infinity
    for (o, d) in [(origin.x, direction.x), (origin.y, direction.y), (origin.z, direction.z)] {
        let t0 = (-h - o) / d, t1 = (h - o) / d
        entry = max(entry, min(t0, t1))
        exit = min(exit, max(t0, t1))
    }
    return entry < exit && entry > 0 ? (entry, exit) : nil
}
