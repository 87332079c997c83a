import Foundation
import ReconstructionCore

/// Camera placement in Object Capture's pattern: per pass, orbits at three heights around the
/// object, azimuths evenly spaced with a per-orbit offset, small seeded jitter, every camera upright
/// and looking at the object's centre.
enum OrbitRig {
    /// One camera of the rig, in the physical world frame (z up).
    struct Placement {
        var pass: Int
        var ring: Int
        var cameraFromWorld: RigidTransform
    }

    /// Cameras for every pass; `targets[pass]` is the object's centre in the physical world and
    /// `distance` the mean camera distance from it, metres.
    static func placements(settings: SyntheticCapture.Settings, passes: Int, targets: [Vector3], distance: Double) -> [Placement] {
        let perPass = passes == 1 ? [settings.views] : [settings.views - settings.views / 2, settings.views / 2]
        let degrees = Double.pi / 180
        var result: [Placement] = []
        for pass in 0..<passes {
            let rings = apportion(perPass[pass], shares: settings.ringShares)
            for (ring, count) in rings.enumerated() {
                for k in 0..<count {
                    var random = SplitMix64(seed: settings.seed, view: result.count, stream: 1)
                    let spacing = 2 * Double.pi / Double(count)
                    let azimuth = spacing * (Double(k) + Double(ring) / 3 + 0.5 * Double(pass))
                        + random.uniform(-1, 1) * settings.azimuthJitterDegrees * degrees
                    let elevation = (settings.ringElevationsDegrees[ring] + random.uniform(-1, 1) * settings.elevationJitterDegrees) * degrees
                    let range = distance * (1 + random.uniform(-1, 1) * settings.distanceJitter)
                    let j = settings.targetJitterMetres
                    let target = targets[pass] + Vector3(random.uniform(-j, j), random.uniform(-j, j), random.uniform(-j, j))
                    let centre = targets[pass] + range * Vector3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation))
                    let roll = random.uniform(-1, 1) * settings.rollJitterDegrees * degrees
                    result.append(Placement(pass: pass, ring: ring, cameraFromWorld: lookAt(centre: centre, target: target, roll: roll)))
                }
            }
        }
        return result
    }

    /// An upright camera (image y along world −z as far as possible) at `centre` looking at
    /// `target`, then rolled by `roll` radians about its viewing axis.
    static func lookAt(centre: Vector3, target: Vector3, roll: Double) -> RigidTransform {
        let forward = (target - centre).normalized
        let right = forward.cross(Vector3(0, 0, 1)).normalized
        let down = forward.cross(right)
        let rolled = Matrix3(rowMajor: [cos(roll), -sin(roll), 0, sin(roll), cos(roll), 0, 0, 0, 1])
        let rotation = rolled * Matrix3(rows: right, down, forward)
        return RigidTransform(rotation: rotation, translation: -(rotation * centre))
    }

    /// Splits `total` into parts proportional to `shares` (largest remainders; ties to the first).
    static func apportion(_ total: Int, shares: [Double]) -> [Int] {
        let sum = shares.reduce(0, +)
        let exact = shares.map { Double(total) * $0 / sum }
        var counts = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { a, b in
            let ra = exact[a] - Double(counts[a]), rb = exact[b] - Double(counts[b])
            return ra != rb ? ra > rb : a < b
        }
        for i in order.prefix(total - counts.reduce(0, +)) { counts[i] += 1 }
        return counts
    }
}
