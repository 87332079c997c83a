import Foundation
import ReconstructionCore

/// A synthetic guided-capture frame stream with exact truth: a camera circling the object once at
/// one height, one frame per `frameIntervalSeconds`, as a phone would stream frames to a capture
/// session, with chosen frames spoiled — under-exposed, blurred, or turned away from the object.
///
/// Frames are rendered on demand by `view(at:)`, deterministically, in any order. Poses are in the
/// object's frame (metres, z up, the object resting on z = 0), which is also the physical frame
/// (there is no flipped pass).
public struct SyntheticFrameStream: Sendable {
    public let settings: Settings
    /// The renderer, intrinsics and object truth (its own views are not used).
    public let capture: SyntheticCapture
    /// Every frame's time, kind and pose, in stream order.
    public let frames: [SyntheticFrame]

    public init(settings: Settings) {
        precondition(settings.problem == nil, settings.problem ?? "")
        self.settings = settings
        var captureSettings = SyntheticCapture.Settings(scene: settings.scene, views: 1, seed: settings.seed,
                                                        imageWidth: settings.imageWidth, imageHeight: settings.imageHeight)
        captureSettings.flippedPass = false
        captureSettings.supersampling = settings.supersampling
        let capture = SyntheticCapture(settings: captureSettings)
        self.capture = capture

        let degrees = Double.pi / 180
        let target = capture.objectBounds.centre
        let step = 360.0 / Double(settings.frames)
        let halfFieldOfView = atan(Double(settings.imageWidth) / 2 / capture.intrinsics.fx)
        let digits = max(4, String(settings.frames).count)
        frames = (0..<settings.frames).map { index in
            var random = SplitMix64(seed: settings.seed, view: index, stream: 3)
            let azimuth = (step * (Double(index) + 0.5) + random.uniform(-1, 1) * settings.azimuthJitterDegrees) * degrees
            let elevation = (settings.elevationDegrees + random.uniform(-1, 1) * settings.elevationJitterDegrees) * degrees
            let range = capture.meanCameraDistance * (1 + random.uniform(-1, 1) * settings.distanceJitter)
            let centre = target + range * Vector3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation))
            let kind = settings.kind(ofFrame: index)
            var lookAt = target
            if kind == .offFrame {
                // Turn left about the vertical through the camera: the object slides right, out of view.
                let yaw = settings.offFrameYawFactor * halfFieldOfView
                let rotation = UnitQuaternion(axis: Vector3(0, 0, 1), angleRadians: yaw).matrix
                lookAt = centre + rotation * (target - centre)
            }
            let cameraFromWorld = OrbitRig.lookAt(centre: centre, target: lookAt, roll: 0)
            let number = String(index + 1)
            let shot = SyntheticShot(index: index, name: "frame_" + String(repeating: "0", count: max(0, digits - number.count)) + number,
                                     pass: 0, ring: 0, worldFromCamera: cameraFromWorld.inverse,
                                     gravity: cameraFromWorld.rotation * Vector3(0, 0, -1))
            return SyntheticFrame(index: index, timestamp: Double(index) * settings.frameIntervalSeconds, kind: kind, shot: shot)
        }
    }

    /// Intrinsics of the frames (pinhole, principal point at the centre).
    public var intrinsics: CameraIntrinsics { capture.intrinsics }
    /// Axis-aligned bounds of the object, object frame, metres.
    public var objectBounds: BoundingBox { capture.objectBounds }

    /// Renders frame `index` (photo, mask, LiDAR depth and confidence) and spoils it as its kind says.
    /// Deterministic; thread-safe.
    public func view(at index: Int) -> SyntheticView {
        let frame = frames[index]
        var view = capture.view(of: frame.shot)
        switch frame.kind {
        case .normal, .offFrame: break
        case .dark: view.image = FrameDegradation.exposed(view.image, factor: Float(settings.darkExposure))
        case .blurred:
            view.image = FrameDegradation.blurred(view.image, sigma: settings.blurSigmaFraction * Double(settings.imageWidth))
        }
        return view
    }
}
