import ReconstructionCore
import Texturing
import XCTest

/// Independent checks of an atlas: texel coverage counted with an exact top-left fill rule (a
/// texel centre on an edge shared by two triangles counts once), chart gutters, orientation,
/// stretch and the sharing of UVs.
enum AtlasInspection {
    /// Per texel (rows top to bottom): how many UV triangles cover its centre, and the chart of
    /// the last one (−1 for none).
    static func coverage(_ mesh: TexturedMesh, charts: [Int32], size: Int) -> (count: [UInt8], chart: [Int32]) {
        var count = [UInt8](repeating: 0, count: size * size)
        var chart = [Int32](repeating: -1, count: size * size)
        let scale = Double(size)
        for (k, t) in mesh.uvTriangles.enumerated() {
            var p = [t.x, t.y, t.z].map { SIMD2<Double>(mesh.uvs[Int($0)]) * scale }
            var area = orient(p[0], p[1], p[2])
            if area == 0 { continue }
            if area < 0 { p.swapAt(1, 2); area = -area }
            let x0 = max(0, Int((p.map(\.x).min()! - 0.5).rounded(.up)))
            let x1 = min(size - 1, Int((p.map(\.x).max()! - 0.5).rounded(.down)))
            let y0 = max(0, Int((p.map(\.y).min()! - 0.5).rounded(.up)))
            let y1 = min(size - 1, Int((p.map(\.y).max()! - 0.5).rounded(.down)))
            if x0 > x1 || y0 > y1 { continue }
            for y in y0...y1 {
                for x in x0...x1 {
                    let s = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                    var inside = true
                    for e in 0..<3 where inside {
                        let a = p[e], b = p[(e + 1) % 3]
                        let value = edgeFunction(a, b, s)
                        if value < 0 { inside = false }
                        if value == 0 {
                            // On the edge: keep it only for "left or top" edges, whose inward
                            // normal (−dy, dx) points to +x, or to +y when vertical.
                            let nx = -(b.y - a.y), ny = b.x - a.x
                            inside = nx > 0 || (nx == 0 && ny > 0)
                        }
                    }
                    if inside {
                        count[y * size + x] &+= 1
                        chart[y * size + x] = charts[k]
                    }
                }
            }
        }
        return (count, chart)
    }

    /// (b − a) × (s − a), evaluated from the lexicographically smaller endpoint so that the two
    /// triangles sharing an edge get exactly opposite values.
    private static func edgeFunction(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ s: SIMD2<Double>) -> Double {
        if (a.x, a.y) <= (b.x, b.y) { return orient(a, b, s) }
        return -orient(b, a, s)
    }

    private static func orient(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ s: SIMD2<Double>) -> Double {
        (b.x - a.x) * (s.y - a.y) - (b.y - a.y) * (s.x - a.x)
    }

    /// Texels of one chart that have a texel of another chart within `padding` texels
    /// (Chebyshev distance, so diagonal neighbours count).
    static func gutterViolations(chart: [Int32], size: Int, padding: Int) -> Int {
        // Smallest and largest chart index within the window, by separable passes.
        func pass(_ input: [Int32], horizontal: Bool, fold: (Int32, Int32) -> Int32, neutral: Int32) -> [Int32] {
            var output = input
            for y in 0..<size {
                for x in 0..<size {
                    var v = neutral
                    for d in -padding...padding {
                        let xx = horizontal ? x + d : x, yy = horizontal ? y : y + d
                        if xx < 0 || yy < 0 || xx >= size || yy >= size { continue }
                        v = fold(v, input[yy * size + xx])
                    }
                    output[y * size + x] = v
                }
            }
            return output
        }
        let forMin = chart.map { $0 < 0 ? Int32.max : $0 }
        let low = pass(pass(forMin, horizontal: true, fold: min, neutral: .max), horizontal: false, fold: min, neutral: .max)
        let high = pass(pass(chart, horizontal: true, fold: max, neutral: -1), horizontal: false, fold: max, neutral: -1)
        var violations = 0
        for k in 0..<(size * size) where chart[k] >= 0 && (low[k] != chart[k] || high[k] != chart[k]) { violations += 1 }
        return violations
    }

    /// Whether a triangle is too thin to have a meaningful orientation (height below a millionth
    /// of its longest edge).
    static func isDegenerate(_ mesh: TriangleMesh, _ t: Int) -> Bool {
        let (a, b, c) = mesh.corners(of: t)
        let twice = Double(simdLength(simdCross(b - a, c - a)))
        let longest = Double(max(simdDot(b - a, b - a), simdDot(c - b, c - b), simdDot(a - c, a - c)))
        return !(twice > 1e-5 * longest)
    }

    /// Asserts every property the atlas promises for `input`, built with `options`.
    static func assertValid(_ result: UVAtlasBuilder.Result, for input: TriangleMesh, options: UVAtlasBuilder.Options,
                            file: StaticString = #filePath, line: UInt = #line) {
        let mesh = result.mesh
        let size = options.textureSize
        // Geometry untouched, atlas consistent.
        XCTAssertNil(mesh.inconsistency, file: file, line: line)
        XCTAssertEqual(mesh.positions, input.positions, file: file, line: line)
        XCTAssertEqual(mesh.triangles, input.triangles, "triangle order and count", file: file, line: line)
        XCTAssertEqual(mesh.normals, input.hasNormals ? input.normals : input.computedVertexNormals(), file: file, line: line)
        XCTAssertEqual(mesh.uvTriangles.count, input.triangleCount, file: file, line: line)
        XCTAssertTrue(mesh.uvTriangles.allSatisfy { $0.max() < UInt32(mesh.uvs.count) }, file: file, line: line)
        XCTAssertEqual(result.chartIndices.count, input.triangleCount, file: file, line: line)
        XCTAssertEqual(Set(result.chartIndices), Set((0..<Int32(result.chartCount))), "every chart used", file: file, line: line)

        // One UV per (chart, position); a UV belongs to one chart and one position.
        var uvOf: [Int64: UInt32] = [:]
        var ownerOf: [UInt32: Int64] = [:]
        var unshared = 0, shared = 0
        for t in 0..<input.triangleCount {
            for k in 0..<3 {
                let key = Int64(result.chartIndices[t]) << 32 | Int64(input.triangles[t][k])
                let uv = mesh.uvTriangles[t][k]
                if uvOf[key, default: uv] != uv { unshared += 1 }
                if ownerOf[uv, default: key] != key { shared += 1 }
                uvOf[key] = uv
                ownerOf[uv] = key
            }
        }
        XCTAssertEqual(unshared, 0, "corners at one position in one chart share a UV", file: file, line: line)
        XCTAssertEqual(shared, 0, "a UV serves one chart and one position", file: file, line: line)

        // Inside the texture, clear of the border by the padding.
        let margin = Float(result.paddingTexels) / Float(size)
        XCTAssertEqual(result.paddingTexels, options.resolvedPaddingTexels, file: file, line: line)
        let outside = mesh.uvs.filter { !($0.x >= margin && $0.x <= 1 - margin && $0.y >= margin && $0.y <= 1 - margin) }
        XCTAssertEqual(outside.count, 0, "UVs within the border margin, first: \(outside.prefix(1))", file: file, line: line)

        // Not mirrored, not flipped, stretch bounded, one density for all charts.
        let texelsPerMetre = 1 / result.metresPerTexel
        let minimumRatio = cos(options.maximumProjectionAngleDegrees * .pi / 180) - 0.01
        var flipped = 0, overStretched = 0
        for t in 0..<input.triangleCount where !isDegenerate(input, t) {
            let u = mesh.uvTriangles[t]
            let a = SIMD2<Double>(mesh.uvs[Int(u.x)]), b = SIMD2<Double>(mesh.uvs[Int(u.y)]), c = SIMD2<Double>(mesh.uvs[Int(u.z)])
            // Signed area in (u, 1 − v) texels².
            let uvArea = -((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2 * Double(size * size)
            if uvArea <= 0 { flipped += 1 }
            let worldArea = Double(input.area(of: t)) * texelsPerMetre * texelsPerMetre
            if uvArea > 0.01 {
                let ratio = uvArea / worldArea
                if ratio < minimumRatio || ratio > 1.01 { overStretched += 1 }
            }
        }
        XCTAssertEqual(flipped, 0, "flipped or mirrored UV triangles", file: file, line: line)
        XCTAssertEqual(overStretched, 0, "triangles stretched beyond the projection limit", file: file, line: line)
        XCTAssertLessThanOrEqual(chartDensities(result, for: input, size: size).max() ?? 0, 1.002,
                                 "orthographic projection never enlarges", file: file, line: line)

        // No texel centre covered twice; gutters of at least the padding between charts.
        let (count, chart) = coverage(mesh, charts: result.chartIndices, size: size)
        XCTAssertLessThanOrEqual(count.max() ?? 0, 1, "texels covered twice", file: file, line: line)
        XCTAssertEqual(gutterViolations(chart: chart, size: size, padding: result.paddingTexels), 0,
                       "texels closer than the padding to another chart", file: file, line: line)
        let covered = Double(count.reduce(0) { $0 + Int($1) }) / Double(size * size)
        XCTAssertEqual(result.utilisation, covered, accuracy: 0.02 + 0.1 * covered, "reported utilisation", file: file, line: line)
        XCTAssertEqual(Double(AtlasTexelMap(mesh: mesh, width: size, height: size).coveredCount) / Double(size * size), covered,
                       accuracy: 0.01, "AtlasTexelMap sees the same coverage", file: file, line: line)
    }

    /// Distance between two UVs, in UV units.
    static func uvLength(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Double {
        let d = SIMD2<Double>(b) - SIMD2<Double>(a)
        return (d * d).sum().squareRoot()
    }

    /// Per chart, the largest ratio of an edge's length in the atlas to its length in the world at
    /// the common density (edges over 2 texels): 1 when some edge lies in the chart's plane.
    static func chartDensities(_ result: UVAtlasBuilder.Result, for input: TriangleMesh, size: Int) -> [Double] {
        var longest = [Double](repeating: 0, count: result.chartCount)
        for t in 0..<input.triangleCount {
            let u = result.mesh.uvTriangles[t]
            for k in 0..<3 {
                let p = input.positions[Int(input.triangles[t][k])], q = input.positions[Int(input.triangles[t][(k + 1) % 3])]
                let world = Double(simdLength(q - p)) / result.metresPerTexel
                let texels = uvLength(result.mesh.uvs[Int(u[k])], result.mesh.uvs[Int(u[(k + 1) % 3])]) * Double(size)
                if world > 2 { longest[Int(result.chartIndices[t])] = max(longest[Int(result.chartIndices[t])], texels / world) }
            }
        }
        return longest
    }
}
