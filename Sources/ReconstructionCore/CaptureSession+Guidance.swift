import Foundation

/// Frame guidance, automatic shot selection and the coverage dial.
///
/// Axes: world z points up (against gravity). The dial divides the azimuth of the camera centre
/// about the vertical line through the box centre — atan2(y, x) of the horizontal offset, 0° along
/// world +x, counter-clockwise seen from above — into `coverageBinCount` equal bins; bin 0 starts at 0°.
extension CaptureSession {
    /// A camera frame arrived. Processed only while detecting (guidance) and capturing (guidance,
    /// shots, dial); ignored in every other state and when its timestamp is not later than the
    /// previous processed frame's. Never refused, so it does not throw.
    ///
    /// While capturing, a frame becomes a shot when no capture-blocking feedback is active (a frame
    /// blurred shows `movingTooFast`, see `motionAndLightFeedback`), the shot limit allows it, and either it is the first
    /// shot, or the view direction from the box centre turned ≥ `minimumDegreesBetweenShots`, or
    /// ≥ `minimumSecondsBetweenShots` passed since the last shot. Effects come in the order
    /// saveShot, updateCoverage, scanPassCompleted, recommendFlip, showGuidance.
    public mutating func frameArrived(_ frame: CaptureFrame) -> [CaptureEffect] {
        guard state == .detecting || state == .capturing else { return [] }
        if let previousFrame, frame.timestamp <= previousFrame.timestamp { return [] }
        var conditions = motionAndLightFeedback(frame)
        previousFrame = frame
        recordSharpness(frame.sharpness)
        guard state == .capturing, let box else {
            if let fraction = frame.boxFractionInView {
                if fraction < configuration.minimumBoxFractionInView { conditions.insert(.outOfFieldOfView) }
            } else {
                conditions.insert(.objectNotDetected)
            }
            return setFeedback(conditions)
        }
        conditions.formUnion(placementFeedback(frame, box: box))

        var effects: [CaptureEffect] = []
        if shouldTakeShot(frame, box: box, conditions: conditions) {
            effects += takeShot(frame, box: box)
        }
        if shotLimitReached || (configuration.isOverCaptureEnabled && shotsTaken > configuration.maximumShots) {
            conditions.insert(.overCapturing)
        }
        if userCompletedScanPass && isFlipRecommended == false { conditions.insert(.objectNotFlippable) }
        return effects + setFeedback(conditions)
    }

    /// Number of coverage-dial bins holding a shot of the current pass.
    public var filledBinCount: Int { coveredBins.count }

    /// True when over-capture is off and `maximumShots` shots are taken: auto-capture has stopped.
    public var shotLimitReached: Bool {
        !configuration.isOverCaptureEnabled && shotsTaken >= configuration.maximumShots
    }

    /// The dial bin of a camera centre (world, metres) about `box`; nil when the camera is on the
    /// vertical line through the box centre, where azimuth is undefined.
    public func coverageBin(ofCameraCentre centre: Vector3, box: BoundingBox) -> Int? {
        let dx = centre.x - box.centre.x, dy = centre.y - box.centre.y
        guard (dx * dx + dy * dy).squareRoot() > 1e-9 else { return nil }
        var degrees = atan2(dy, dx) * 180 / Double.pi
        if degrees < 0 { degrees += 360 }
        let bins = configuration.coverageBinCount
        return min(bins - 1, Int(degrees / 360 * Double(bins)))
    }
}

extension CaptureSession {
    /// Light and motion conditions (any state that processes frames). Apple's feedback has no
    /// separate blur condition: a blurred frame (less sharp than `minimumSharpness`, or than
    /// `minimumRelativeSharpness` of the recent frames' median) shows `movingTooFast`, since a
    /// hand-held camera's blur is motion blur and the remedy is the same (slow down).
    func motionAndLightFeedback(_ frame: CaptureFrame) -> Set<CaptureFeedback> {
        var conditions: Set<CaptureFeedback> = []
        if frame.meanLuminance < configuration.minimumMeanLuminance { conditions.insert(.environmentTooDark) }
        if isBlurred(frame.sharpness) { conditions.insert(.movingTooFast) }
        if let previousFrame {
            let seconds = frame.timestamp - previousFrame.timestamp
            let metres = frame.cameraCentre.distance(to: previousFrame.cameraCentre)
            let degrees = (previousFrame.worldFromCamera.rotation.transposed * frame.worldFromCamera.rotation)
                .rotationAngleDegrees
            if metres / seconds > configuration.maximumSpeedMetresPerSecond
                || degrees / seconds > configuration.maximumTurnRateDegreesPerSecond {
                conditions.insert(.movingTooFast)
            }
        }
        return conditions
    }

    /// Whether a frame of `sharpness` is blurred: less sharp than `minimumSharpness`, or than
    /// `minimumRelativeSharpness` of the median of the recent frames not taken for blurred.
    func isBlurred(_ sharpness: Double) -> Bool {
        sharpness < configuration.minimumSharpness || isRelativelyBlurred(sharpness)
    }

    private func isRelativelyBlurred(_ sharpness: Double) -> Bool {
        !recentSharpness.isEmpty && sharpness < configuration.minimumRelativeSharpness * Statistics.median(recentSharpness)
    }

    /// Keeps the sharpness of frames not taken for blurred as the measure for the next ones. A run
    /// of `sharpnessHistory` frames blurred only by that comparison replaces the measure: the view
    /// has become plainer, since blur from moving would also have tripped the speed limits or the
    /// absolute floor long before.
    mutating func recordSharpness(_ sharpness: Double) {
        if sharpness < configuration.minimumSharpness { return }
        if isRelativelyBlurred(sharpness) {
            relativelyBlurredRun.append(sharpness)
            guard relativelyBlurredRun.count >= Self.sharpnessHistory else { return }
            recentSharpness = relativelyBlurredRun
        } else {
            recentSharpness = Array((recentSharpness + [sharpness]).suffix(Self.sharpnessHistory))
        }
        relativelyBlurredRun = []
    }

    /// Distance and field-of-view conditions against the selected box (capturing only).
    func placementFeedback(_ frame: CaptureFrame, box: BoundingBox) -> Set<CaptureFeedback> {
        var conditions: Set<CaptureFeedback> = []
        let distance = frame.objectDistance ?? frame.cameraCentre.distance(to: box.centre)
        if distance < configuration.minimumDistanceInBoxDiagonals * box.diagonal { conditions.insert(.objectTooClose) }
        if distance > configuration.maximumDistanceInBoxDiagonals * box.diagonal { conditions.insert(.objectTooFar) }
        if (frame.boxFractionInView ?? 0) < configuration.minimumBoxFractionInView { conditions.insert(.outOfFieldOfView) }
        return conditions
    }

    func shouldTakeShot(_ frame: CaptureFrame, box: BoundingBox, conditions: Set<CaptureFeedback>) -> Bool {
        guard !shotLimitReached, !conditions.contains(where: \.blocksCapture) else { return false }
        guard let lastShotFrame else { return true }
        // A new viewpoint, not just more time: a camera held still adds nothing to the model.
        return frame.timestamp - lastShotFrame.timestamp >= configuration.minimumSecondsBetweenShots
            && Self.degreesBetween(lastShotFrame.cameraCentre, frame.cameraCentre, about: box.centre)
                >= configuration.minimumDegreesBetweenShots
    }

    /// Records a shot, fills its dial bin and, when the dial becomes full, completes the pass.
    mutating func takeShot(_ frame: CaptureFrame, box: BoundingBox) -> [CaptureEffect] {
        let id = shotsTaken
        shotsTaken += 1
        pendingShotIDs.insert(id)
        lastShotFrame = frame
        textureScoreSum += frame.textureScore
        var effects: [CaptureEffect] = [.saveShot(id: id, frameTimestamp: frame.timestamp, scanPass: scanPass)]

        let totalBins = configuration.coverageBinCount
        guard let bin = coverageBin(ofCameraCentre: frame.cameraCentre, box: box),
              coveredBins.insert(bin).inserted else { return effects }
        effects.append(.updateCoverage(filledBins: coveredBins.count, totalBins: totalBins))
        if coveredBins.count == totalBins && !userCompletedScanPass {
            userCompletedScanPass = true
            let flip = textureScoreSum / Double(shotsTaken) >= configuration.minimumTextureScoreForFlip
            isFlipRecommended = flip
            effects += [.scanPassCompleted(pass: scanPass), .recommendFlip(flip)]
        }
        return effects
    }

    /// The angle in degrees between the directions from `centre` to `a` and to `b` (180 if either is at `centre`).
    static func degreesBetween(_ a: Vector3, _ b: Vector3, about centre: Vector3) -> Double {
        let u = a - centre, v = b - centre
        guard u.length > 0, v.length > 0 else { return 180 }
        return atan2(u.cross(v).length, u.dot(v)) * 180 / Double.pi
    }
}
