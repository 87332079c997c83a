import Foundation
import ReconstructionCore

/// Exact synthetic problems for estimator tests: points in front of cameras that look at them.
struct SyntheticScene {
    let intrinsics = CameraIntrinsics(width: 640, height: 480, fx: 800, fy: 800, cx: 320, cy: 240)
    var points: [Vector3]
    var cameraFromWorld: [RigidTransform]

    /// `cameraCount` cameras on an arc 5 units from a cloud of `pointCount` points.
    init(pointCount: Int, cameraCount: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        points = (0..<pointCount).map { _ in
            Vector3(rng.uniform(-1.5, 1.5), rng.uniform(-1, 1), rng.uniform(-1, 1))
        }
        cameraFromWorld = (0..<cameraCount).map { i in
            let angle = (Double(i) - Double(cameraCount - 1) / 2) * 0.25
            let centre = Vector3(5 * sin(angle), 0.3 * Double(i % 2), -5 * cos(angle))
            return SyntheticScene.lookAt(centre: centre, target: .zero)
        }
    }

    /// A camera at `centre` looking at `target` (y down).
    static func lookAt(centre: Vector3, target: Vector3) -> RigidTransform {
        let z = (target - centre).normalized
        let x = Vector3(0, -1, 0).cross(z).normalized  // camera y points roughly down the world's −y
        let y = z.cross(x)
        let rotation = Matrix3(rows: x, y, z)  // camera-from-world rows
        return RigidTransform(rotation: rotation, translation: -(rotation * centre))
    }

    func pixel(point: Int, camera: Int) -> (x: Double, y: Double) {
        intrinsics.project(cameraFromWorld[camera].apply(points[point]))!
    }

    func normalized(point: Int, camera: Int) -> (Double, Double) {
        let p = cameraFromWorld[camera].apply(points[point])
        return (p.x / p.z, p.y / p.z)
    }
}

/// The core's seeded SplitMix64 generator, under the name the tests use.
typealias SplitMix64 = SeededGenerator

extension SeededGenerator {
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() >> 11) / Double(1 << 53) }
    /// Standard normal sample (Box–Muller).
    mutating func gaussian() -> Double {
        let u = max(1e-300, uniform(0, 1)), v = uniform(0, 1)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

/// Binary PGM bytes, which the image decoder reads like any other format.
func pgm(width: Int, height: Int, pixel: (Int, Int) -> UInt8) -> Data {
    var data = Data("P5\n\(width) \(height)\n255\n".utf8)
    for y in 0..<height { for x in 0..<width { data.append(pixel(x, y)) } }
    return data
}
