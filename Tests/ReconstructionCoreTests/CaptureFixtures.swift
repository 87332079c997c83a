import Foundation
import ReconstructionCore

/// Shared scenes for the capture-session tests: a mug-sized box at the origin and a camera orbiting it.
enum CaptureFixtures {
    static let directory = "/captures/mug"
    /// 0.2 × 0.2 × 0.3 m, standing on the floor; diagonal ≈ 0.41 m.
    static let box = BoundingBox(centre: Vector3(0, 0, 0.15), halfExtents: Vector3(0.1, 0.1, 0.15))

    /// A frame from `azimuthDegrees` about the box's vertical axis, `radius` metres out and
    /// `height` metres above the box centre, turned to match the azimuth; good in every respect by default.
    static func frame(time: Double, azimuthDegrees: Double, radius: Double = 1, height: Double = 0.3,
                      luminance: Double = 0.5, sharpness: Double = 500, texture: Double = 0.6,
                      boxFractionInView: Double? = 1) -> CaptureFrame {
        let radians = azimuthDegrees * Double.pi / 180
        let centre = box.centre + Vector3(radius * cos(radians), radius * sin(radians), height)
        let rotation = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: radians).matrix
        return CaptureFrame(timestamp: time, worldFromCamera: RigidTransform(rotation: rotation, translation: centre),
                            meanLuminance: luminance, sharpness: sharpness, textureScore: texture,
                            boxFractionInView: boxFractionInView)
    }

    /// One orbit: `count` frames spaced evenly in azimuth (starting half a step past 0°), `secondsApart` apart.
    static func orbit(startTime: Double = 0, count: Int = 72, secondsApart: Double = 0.5,
                      texture: Double = 0.6) -> [CaptureFrame] {
        let step = 360 / Double(count)
        return (0..<count).map { i in
            frame(time: startTime + Double(i) * secondsApart, azimuthDegrees: step / 2 + Double(i) * step, texture: texture)
        }
    }

    /// A session in `capturing` around `box`, started with `configuration`.
    static func capturingSession(_ configuration: CaptureSession.Configuration = .init()) throws -> CaptureSession {
        var session = CaptureSession()
        _ = try session.start(imagesDirectory: directory, configuration: configuration)
        _ = try session.startDetecting()
        _ = try session.startCapturing(box: box)
        return session
    }
}

extension CaptureSession {
    /// Feeds frames in order and returns all their effects.
    mutating func feed(_ frames: [CaptureFrame]) -> [CaptureEffect] {
        frames.flatMap { frameArrived($0) }
    }
}

extension Array where Element == CaptureEffect {
    var savedShotIDs: [Int] {
        compactMap { if case .saveShot(let id, _, _) = $0 { return id } else { return nil } }
    }

    var completedPasses: [Int] {
        compactMap { if case .scanPassCompleted(let pass) = $0 { return pass } else { return nil } }
    }
}
