import Foundation
import Meshing
import ReconstructionCore

/// Synthetic cameras, analytic depth maps and mesh measurements shared by the meshing tests.
enum MeshingFixtures {
    /// A camera at `centre` looking at `target`, with image y pointing as close to world -`up` as possible.
    static func worldFromCamera(centre: Vector3, lookingAt target: Vector3, up: Vector3 = Vector3(0, 0, 1)) -> RigidTransform {
        let forward = (target - centre).normalized
        var right = forward.cross(up)
        if right.length < 1e-6 { right = forward.cross(Vector3(1, 0, 0)) }
        right = right.normalized
        let down = forward.cross(right)
        // Columns: camera x (right), y (down), z (forward) in world coordinates.
        let rotation = Matrix3(rows: Vector3(right.x, down.x, forward.x),
                               Vector3(right.y, down.y, forward.y),
                               Vector3(right.z, down.z, forward.z))
        return RigidTransform(rotation: rotation, translation: centre)
    }

    /// `count` roughly evenly spread unit directions (a Fibonacci sphere).
    static func directions(_ count: Int) -> [Vector3] {
        let golden = Double.pi * (3 - 5.0.squareRoot())
        return (0..<count).map { i in
            let z = 1 - 2 * (Double(i) + 0.5) / Double(count)
            let r = (1 - z * z).squareRoot()
            let phi = golden * Double(i)
            return Vector3(r * cos(phi), r * sin(phi), z)
        }
    }

    /// Depth along the camera's z axis of the first hit of each pixel's ray; 0 where `hit` returns nil.
    /// `hit(origin, direction)` returns the ray parameter of the hit for `origin + t · direction`.
    static func renderDepth(_ k: CameraIntrinsics, _ worldFromCamera: RigidTransform,
                            hit: (Vector3, Vector3) -> Double?) -> DepthMap {
        var map = DepthMap(width: k.width, height: k.height)
        let origin = worldFromCamera.translation
        for y in 0..<k.height {
            for x in 0..<k.width {
                // Ray with camera z component 1, so t is the depth along z.
                let ray = Vector3((Double(x) + 0.5 - k.cx) / k.fx, (Double(y) + 0.5 - k.cy) / k.fy, 1)
                let direction = worldFromCamera.rotation * ray
                if let t = hit(origin, direction), t > 0 { map[x, y] = Float(t) }
            }
        }
        return map
    }

    /// Nearest positive ray parameter where `origin + t · direction` meets the sphere.
    static func sphereHit(centre: Vector3, radius: Double) -> (Vector3, Vector3) -> Double? {
        { origin, direction in
            let oc = origin - centre
            let a = direction.dot(direction), b = 2 * oc.dot(direction), c = oc.dot(oc) - radius * radius
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return nil }
            let t0 = (-b - disc.squareRoot()) / (2 * a)
            return t0 > 0 ? t0 : nil
        }
    }

    /// Ray parameter where the ray meets the plane `dot(normal, p) = offset`, when in front.
    static func planeHit(normal: Vector3, offset: Double) -> (Vector3, Vector3) -> Double? {
        { origin, direction in
            let denominator = normal.dot(direction)
            guard abs(denominator) > 1e-9 else { return nil }
            let t = (offset - normal.dot(origin)) / denominator
            return t > 0 ? t : nil
        }
    }

    /// Depth maps of a sphere from `cameraCount` cameras spread around it at `distance` metres.
    static func sphereViews(centre: Vector3, radius: Double, cameraCount: Int, distance: Double,
                            intrinsics k: CameraIntrinsics) -> [(DepthMap, RigidTransform)] {
        directions(cameraCount).map { direction in
            let pose = worldFromCamera(centre: centre + distance * direction, lookingAt: centre)
            return (renderDepth(k, pose, hit: sphereHit(centre: centre, radius: radius)), pose)
        }
    }

    /// Undirected edges used by a number of triangles other than two, and directed edges used
    /// more than once (a consistently oriented closed mesh has neither).
    static func edgeDefects(_ mesh: TriangleMesh) -> (openOrNonManifold: Int, misoriented: Int) {
        var undirected: [SIMD2<UInt32>: Int] = [:]
        var directed: [SIMD2<UInt32>: Int] = [:]
        for t in mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                undirected[SIMD2(min(a, b), max(a, b)), default: 0] += 1
                directed[SIMD2(a, b), default: 0] += 1
            }
        }
        return (undirected.values.filter { $0 != 2 }.count, directed.values.filter { $0 > 1 }.count)
    }

    /// Signed volume enclosed by the mesh (positive when the triangles face outwards), cubic metres.
    static func signedVolume(_ mesh: TriangleMesh) -> Double {
        var sum = 0.0
        for i in mesh.triangles.indices {
            let (a, b, c) = mesh.corners(of: i)
            sum += Double(simdDot(a, simdCross(b, c)))
        }
        return sum / 6
    }

    static func simd(_ v: Vector3) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }

    /// A closed UV sphere mesh, triangles counter-clockwise seen from outside.
    static func uvSphere(centre: SIMD3<Float>, radius: Float, rings: Int, segments: Int) -> TriangleMesh {
        var mesh = TriangleMesh()
        mesh.positions.append(centre + SIMD3(0, 0, radius))  // north pole
        for r in 1..<rings {
            let theta = Float.pi * Float(r) / Float(rings)
            for s in 0..<segments {
                let phi = 2 * Float.pi * Float(s) / Float(segments)
                mesh.positions.append(centre + radius * SIMD3(sin(theta) * cos(phi), sin(theta) * sin(phi), cos(theta)))
            }
        }
        mesh.positions.append(centre - SIMD3(0, 0, radius))  // south pole
        let south = UInt32(mesh.positions.count - 1)
        let ring = { (r: Int, s: Int) in UInt32(1 + (r - 1) * segments + (s % segments)) }
        for s in 0..<segments {
            mesh.triangles.append(SIMD3(0, ring(1, s), ring(1, s + 1)))
            mesh.triangles.append(SIMD3(south, ring(rings - 1, s + 1), ring(rings - 1, s)))
        }
        for r in 1..<(rings - 1) {
            for s in 0..<segments {
                let a = ring(r, s), b = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1)
                mesh.triangles.append(SIMD3(a, c, d))
                mesh.triangles.append(SIMD3(a, d, b))
            }
        }
        return mesh
    }
}

/// Deterministic standard normal samples (xorshift and Box–Muller), so noisy tests repeat exactly.
struct SeededGaussian {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    private mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return (Double(state >> 11) + 0.5) / Double(1 << 53)
    }

    mutating func next() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }
}
