import Foundation
import ReconstructionCore
import Rendering

/// The physical surroundings of a synthetic capture: a plain grey floor at z = 0, a smooth sky-like
/// backdrop and the lights. Nothing here carries texture, so every feature is on the object (and
/// the object may move relative to the floor between passes without confusing the matching).
enum CaptureStudio {
    /// Radius of the round floor around the origin, metres: its rim lies just under the horizon,
    /// so the floor shows no corners.
    static let floorRadius: Double = 40
    /// Sides of the polygon approximating the floor's rim.
    static let floorSides = 64
    /// Linear reflectance of the floor.
    static let floorAlbedo = SIMD3<Float>(0.3, 0.3, 0.3)
    /// The backdrop where neither object nor floor is seen, linear RGB.
    static let background = Background.verticalGradient(top: SIMD3(0.62, 0.66, 0.72), bottom: SIMD3(0.38, 0.39, 0.42))
    /// Direction from the scene towards the main light, physical world frame (z up).
    static let towardsLight = SIMD3<Float>(0.45, -0.35, 0.82)

    /// The lights with the main light expressed in the object's frame.
    static func lighting(objectFromWorld: RigidTransform) -> Lighting {
        let l = objectFromWorld.rotation * Vector3(Double(towardsLight.x), Double(towardsLight.y), Double(towardsLight.z))
        return Lighting(ambient: 0.35, towardsLight: SIMD3(Float(l.x), Float(l.y), Float(l.z)),
                        directionalIntensity: 0.6, headlightIntensity: 0.25)
    }

    /// The floor (a disc facing up, as a triangle fan) in the object's frame.
    static func floor(objectFromWorld: RigidTransform) -> TriangleMesh {
        let rim = (0..<floorSides).map { i -> Vector3 in
            let angle = 2 * Double.pi * Double(i) / Double(floorSides)
            return Vector3(floorRadius * cos(angle), floorRadius * sin(angle), 0)
        }
        let positions = ([Vector3.zero] + rim).map { corner in
            let p = objectFromWorld.apply(corner)
            return SIMD3(Float(p.x), Float(p.y), Float(p.z))
        }
        let triangles = (0..<floorSides).map { i in SIMD3<UInt32>(0, UInt32(1 + i), UInt32(1 + (i + 1) % floorSides)) }
        return TriangleMesh(positions: positions, triangles: triangles)
    }
}
