import Foundation
import ReconstructionCore
import XCTest

final class CaptureSessionGuidanceTests: XCTestCase {
    typealias Fixtures = CaptureFixtures

    func testADarkFrameShowsEnvironmentTooDarkAndTakesNoShot() throws {
        var session = try Fixtures.capturingSession()
        let effects = session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, luminance: 0.05))
        XCTAssertEqual(effects, [.showGuidance([.environmentTooDark])])
        XCTAssertEqual(session.shotsTaken, 0)
    }

    func testMovingOrTurningFastShowsMovingTooFastAndTakesNoShot() throws {
        var session = try Fixtures.capturingSession()
        let first = Fixtures.frame(time: 0, azimuthDegrees: 10)
        XCTAssertEqual(session.frameArrived(first).savedShotIDs, [0])

        var moved = first  // 0.5 m in 0.1 s = 5 m/s
        moved.timestamp = 0.1
        moved.worldFromCamera.translation += Vector3(0, 0, 0.5)
        XCTAssertEqual(session.frameArrived(moved), [.showGuidance([.movingTooFast])])

        var turned = moved  // 30° in 0.1 s = 300 °/s, standing still
        turned.timestamp = 0.2
        turned.worldFromCamera.rotation = UnitQuaternion(axis: Vector3(1, 0, 0), angleRadians: Double.pi / 6).matrix
            * moved.worldFromCamera.rotation
        XCTAssertEqual(session.frameArrived(turned), [])  // still too fast: guidance unchanged
        XCTAssertEqual(session.feedback, [.movingTooFast])

        var slow = turned  // same pose 1 s later: calm again, and the view moved up since the first shot
        slow.timestamp = 1.2
        XCTAssertEqual(session.frameArrived(slow), [.saveShot(id: 1, frameTimestamp: 1.2, scanPass: 0), .showGuidance([])])
        XCTAssertEqual(session.shotsTaken, 2)
    }

    func testTooCloseAndTooFarAreReportedAndBlockShots() throws {
        var session = try Fixtures.capturingSession()
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, radius: 0.2)),
                       [.showGuidance([.objectTooClose])])
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 10, azimuthDegrees: 10, radius: 2)),
                       [.showGuidance([.objectTooFar])])
        XCTAssertEqual(session.shotsTaken, 0)
    }

    func testAMeasuredObjectDistanceTakesPrecedenceOverTheBoxCentreDistance() throws {
        var session = try Fixtures.capturingSession()
        var frame = Fixtures.frame(time: 0, azimuthDegrees: 10)
        frame.objectDistance = 0.1
        XCTAssertEqual(session.frameArrived(frame), [.showGuidance([.objectTooClose])])
    }

    func testABoxOutOfTheFieldOfViewBlocksShots() throws {
        var session = try Fixtures.capturingSession()
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, boxFractionInView: 0.3)),
                       [.showGuidance([.outOfFieldOfView])])
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 10, azimuthDegrees: 10, boxFractionInView: nil)), [])
        XCTAssertEqual(session.feedback, [.outOfFieldOfView])
        XCTAssertEqual(session.shotsTaken, 0)
    }

    func testABlurredFrameShowsMovingTooFastAndIsNotSaved() throws {
        var session = try Fixtures.capturingSession()
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, sharpness: 20)),
                       [.showGuidance([.movingTooFast])])
        XCTAssertEqual(session.shotsTaken, 0)
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0.5, azimuthDegrees: 10)),
                       [.saveShot(id: 0, frameTimestamp: 0.5, scanPass: 0), .updateCoverage(filledBins: 1, totalBins: 24),
                        .showGuidance([])])
    }

    /// Blur is judged against the recent frames too: a frame that is sharp enough for a plain
    /// object is blurred after frames of a textured one, and frames of a plain object in focus
    /// are not blurred among themselves.
    func testAFrameMuchLessSharpThanTheRecentOnesShowsMovingTooFast() throws {
        var session = try Fixtures.capturingSession()
        for (i, time) in [0.0, 1, 2].enumerated() {
            _ = session.frameArrived(Fixtures.frame(time: time, azimuthDegrees: 10 + 10 * Double(i), sharpness: 2000))
        }
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 3, azimuthDegrees: 40, sharpness: 400)), [.showGuidance([.movingTooFast])])
        XCTAssertEqual(session.shotsTaken, 3)

        var relativeOnly = CaptureSession.Configuration()
        relativeOnly.minimumSharpness = 0
        var plain = try Fixtures.capturingSession(relativeOnly)
        for (i, sharpness) in [60.0, 90, 55, 100, 70].enumerated() {
            _ = plain.frameArrived(Fixtures.frame(time: Double(i), azimuthDegrees: 10 + 10 * Double(i), sharpness: sharpness))
        }
        XCTAssertEqual(plain.shotsTaken, 5, "a plain object in focus is not blurred")
        XCTAssertEqual(plain.frameArrived(Fixtures.frame(time: 5, azimuthDegrees: 60, sharpness: 20)), [.showGuidance([.movingTooFast])],
                       "20 against a median of 70")

        var off = CaptureSession.Configuration()
        off.minimumRelativeSharpness = 0
        var absolute = try Fixtures.capturingSession(off)
        _ = absolute.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, sharpness: 2000))
        _ = absolute.frameArrived(Fixtures.frame(time: 1, azimuthDegrees: 20, sharpness: 400))
        XCTAssertEqual(absolute.shotsTaken, 2, "with the comparison off only minimumSharpness counts")
    }

    /// A run of blurred frames does not become the measure of what is sharp; a view that stays
    /// plainer for `sharpnessHistory` frames does; a new pass measures again.
    func testBlurredRunsDoNotLowerTheMeasureButALastingChangeOfViewDoes() throws {
        var configuration = CaptureSession.Configuration()
        configuration.minimumSharpness = 0
        configuration.minimumDegreesBetweenShots = 0
        configuration.minimumSecondsBetweenShots = 0
        var session = try Fixtures.capturingSession(configuration)
        var time = 0.0
        func frame(_ sharpness: Double) -> [CaptureEffect] {
            time += 0.1
            return session.frameArrived(Fixtures.frame(time: time, azimuthDegrees: 10 + time, sharpness: sharpness))
        }
        for _ in 0..<8 { _ = frame(2000) }
        let taken = session.shotsTaken
        for _ in 0..<6 {
            _ = frame(300)
            XCTAssertEqual(session.feedback, [.movingTooFast])
        }
        XCTAssertEqual(session.shotsTaken, taken, "six blurred frames in a row are all blurred")
        _ = frame(2000)
        // A plainer side for good: blurred by comparison for eight frames, then the new measure.
        for _ in 0..<CaptureSession.sharpnessHistory { _ = frame(400) }
        let before = session.shotsTaken
        _ = frame(400)
        XCTAssertEqual(session.shotsTaken, before + 1, "after a lasting change of view its frames are sharp again")
        _ = try session.beginNewScanPass()
        let passStart = session.shotsTaken
        _ = frame(100)  // blurred against 400, but a new pass measures again
        XCTAssertEqual(session.shotsTaken, passStart + 1, "a new pass measures again")
    }

    /// A configuration saved before a field existed still loads, with that field's default.
    func testAConfigurationMissingNewerFieldsDecodesWithTheirDefaults() throws {
        var saved = CaptureSession.Configuration()
        saved.maximumShots = 40
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(saved)) as? [String: Any])
        object["minimumRelativeSharpness"] = nil
        let decoded = try JSONDecoder().decode(CaptureSession.Configuration.self, from: JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(decoded.maximumShots, 40)
        XCTAssertEqual(decoded, saved)
    }

    func testABlurredFrameWhileDetectingShowsMovingTooFast() throws {
        var session = CaptureSession()
        _ = try session.start(imagesDirectory: Fixtures.directory)
        _ = try session.startDetecting()
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, sharpness: 20)),
                       [.showGuidance([.movingTooFast])])
    }

    func testAGoodFrameIsSavedAndFillsItsDialBin() throws {
        var session = try Fixtures.capturingSession()
        let effects = session.frameArrived(Fixtures.frame(time: 3, azimuthDegrees: 100))
        XCTAssertEqual(effects, [.saveShot(id: 0, frameTimestamp: 3, scanPass: 0),
                                 .updateCoverage(filledBins: 1, totalBins: 24)])
        XCTAssertEqual(session.coveredBins, [6])  // 100° / 15° per bin
        XCTAssertEqual(session.pendingShotIDs, [0])
    }

    func testTheDialBinIsTheAzimuthAboutWorldZCountedCounterClockwiseFromPlusX() throws {
        let session = try Fixtures.capturingSession()
        let box = Fixtures.box
        XCTAssertEqual(session.coverageBin(ofCameraCentre: box.centre + Vector3(1, 0.01, 5), box: box), 0)
        XCTAssertEqual(session.coverageBin(ofCameraCentre: box.centre + Vector3(0, 1, 0), box: box), 6)
        XCTAssertEqual(session.coverageBin(ofCameraCentre: box.centre + Vector3(1, -0.01, 0), box: box), 23)
        XCTAssertNil(session.coverageBin(ofCameraCentre: box.centre + Vector3(0, 0, 1), box: box))
    }

    func testAStillCameraGetsOneShotHoweverLongItWaits() throws {
        var session = try Fixtures.capturingSession()
        let frames = (0...10).map { Fixtures.frame(time: Double($0), azimuthDegrees: 10) }
        XCTAssertEqual(session.feed(frames).savedShotIDs, [0])
    }

    func testNewViewpointsAreRateLimitedByTheMinimumSeconds() throws {
        var session = try Fixtures.capturingSession()
        // 2.5° and 0.125 s apart (20 °/s, slow enough): the view changes enough after two frames,
        // but the 0.4 s rate limit allows a shot only every fourth frame.
        let frames = (0..<9).map { Fixtures.frame(time: 0.125 * Double($0), azimuthDegrees: 2.5 * Double($0)) }
        XCTAssertEqual(session.feed(frames).savedShotIDs, [0, 1, 2])
    }

    func testOneOrbitFillsTheDialAndCompletesThePassOnce() throws {
        var session = try Fixtures.capturingSession()
        let effects = session.feed(Fixtures.orbit())
        XCTAssertEqual(session.filledBinCount, 24)
        XCTAssertTrue(session.userCompletedScanPass)
        XCTAssertEqual(effects.completedPasses, [0])
        XCTAssertEqual(effects.filter { $0 == .updateCoverage(filledBins: 24, totalBins: 24) }.count, 1)
        XCTAssertGreaterThanOrEqual(session.shotsTaken, 24)
        // More frames on the same pass do not complete it again.
        XCTAssertEqual(session.feed(Fixtures.orbit(startTime: 100)).completedPasses, [])
    }

    func testBeginNewScanPassResetsTheDialAndTheNextOrbitCompletesTheNewPass() throws {
        var session = try Fixtures.capturingSession()
        _ = session.feed(Fixtures.orbit())
        XCTAssertEqual(try session.beginNewScanPass(), [.updateCoverage(filledBins: 0, totalBins: 24)])
        XCTAssertEqual(session.filledBinCount, 0)
        XCTAssertFalse(session.userCompletedScanPass)
        XCTAssertEqual(session.scanPass, 1)
        let effects = session.feed(Fixtures.orbit(startTime: 100))
        XCTAssertEqual(effects.completedPasses, [1])
        XCTAssertTrue(session.userCompletedScanPass)
        guard case .saveShot(_, _, let pass) = effects.first else { return XCTFail("no shot") }
        XCTAssertEqual(pass, 1)
    }

    func testReachingTheMaximumStopsShotsAndShowsOverCapturing() throws {
        var configuration = CaptureSession.Configuration()
        configuration.maximumShots = 5
        configuration.minimumDegreesBetweenShots = 4  // every 5° frame would be a shot
        var session = try Fixtures.capturingSession(configuration)
        let effects = session.feed(Array(Fixtures.orbit().prefix(20)))
        XCTAssertEqual(effects.savedShotIDs, [0, 1, 2, 3, 4])
        XCTAssertEqual(session.shotsTaken, 5)
        XCTAssertTrue(session.shotLimitReached)
        XCTAssertEqual(session.feedback, [.overCapturing])
        XCTAssertTrue(effects.contains(.showGuidance([.overCapturing])))
    }

    func testOverCaptureKeepsSavingPastTheMaximumAndFlagsTheExtraShots() throws {
        var configuration = CaptureSession.Configuration()
        configuration.maximumShots = 5
        configuration.isOverCaptureEnabled = true
        configuration.minimumDegreesBetweenShots = 4  // every 5° frame becomes a shot
        var session = try Fixtures.capturingSession(configuration)
        var frames = Fixtures.orbit()
        XCTAssertEqual(session.feed(Array(frames.prefix(5))).savedShotIDs, [0, 1, 2, 3, 4])
        XCTAssertEqual(session.feedback, [])  // at the maximum, not past it
        frames.removeFirst(5)
        let effects = session.feed(Array(frames.prefix(5)))
        XCTAssertEqual(effects.savedShotIDs, [5, 6, 7, 8, 9])
        XCTAssertFalse(session.shotLimitReached)
        XCTAssertEqual(session.feedback, [.overCapturing])
    }

    func testATexturedObjectGetsAFlipRecommendation() throws {
        var session = try Fixtures.capturingSession()
        let effects = session.feed(Fixtures.orbit(texture: 0.8))
        XCTAssertTrue(effects.contains(.recommendFlip(true)))
        XCTAssertFalse(effects.contains(.recommendFlip(false)))
        XCTAssertEqual(session.isFlipRecommended, true)
        XCTAssertFalse(session.feedback.contains(.objectNotFlippable))
    }

    func testAPlainObjectIsAdvisedAgainstFlippingUntilTheNextPass() throws {
        var session = try Fixtures.capturingSession()
        let effects = session.feed(Fixtures.orbit(texture: 0.1))
        XCTAssertEqual(Array(effects.suffix(4)), [
            .updateCoverage(filledBins: 24, totalBins: 24), .scanPassCompleted(pass: 0), .recommendFlip(false),
            .showGuidance([.objectNotFlippable]),
        ])
        XCTAssertEqual(session.isFlipRecommended, false)
        XCTAssertEqual(try session.beginNewScanPass(),
                       [.showGuidance([]), .updateCoverage(filledBins: 0, totalBins: 24)])
    }

    func testFinishWithPendingShotsWaitsForAllDataSaved() throws {
        var session = try Fixtures.capturingSession()
        let ids = session.feed(Array(Fixtures.orbit().prefix(6))).savedShotIDs
        XCTAssertFalse(ids.isEmpty)
        XCTAssertEqual(try session.shotSaved(id: ids[0]), [])
        XCTAssertEqual(try session.finish(), [])
        XCTAssertEqual(session.state, .finishing)
        XCTAssertEqual(session.pendingShotIDs, Set(ids.dropFirst()))
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 50, azimuthDegrees: 200)), [])
        XCTAssertEqual(try session.allDataSaved(), [.stop])
        XCTAssertEqual(session.state, .completed)
    }

    func testFinishingCompletesWhenTheLastPendingShotIsSaved() throws {
        var session = try Fixtures.capturingSession()
        let ids = session.feed(Array(Fixtures.orbit().prefix(6))).savedShotIDs
        XCTAssertGreaterThanOrEqual(ids.count, 2)
        _ = try session.finish()
        for id in ids.dropLast() { XCTAssertEqual(try session.shotSaved(id: id), []) }
        XCTAssertEqual(session.state, .finishing)
        XCTAssertEqual(try session.shotSaved(id: ids.last!), [.stop])
        XCTAssertEqual(session.state, .completed)
    }

    func testDetectingGivesGuidanceButTakesNoShots() throws {
        var session = CaptureSession()
        _ = try session.start(imagesDirectory: Fixtures.directory)
        _ = try session.startDetecting()
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10, boxFractionInView: nil)),
                       [.showGuidance([.objectNotDetected])])
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 1, azimuthDegrees: 10, boxFractionInView: 0.2)),
                       [.showGuidance([.outOfFieldOfView])])
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 2, azimuthDegrees: 10)), [.showGuidance([])])
        XCTAssertEqual(session.shotsTaken, 0)
        _ = session.frameArrived(Fixtures.frame(time: 3, azimuthDegrees: 10, luminance: 0))
        XCTAssertEqual(try session.resetDetection(), [.showGuidance([])])
    }

    func testFramesOutsideDetectingAndCapturingAreIgnored() throws {
        var ready = CaptureSession()
        var sessions = [ready]
        _ = try ready.start(imagesDirectory: Fixtures.directory)
        sessions.append(ready)
        var cancelled = ready
        _ = try cancelled.cancel()
        sessions.append(cancelled)
        var finishing = try Fixtures.capturingSession()
        _ = finishing.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10))
        _ = try finishing.finish()
        sessions.append(finishing)
        var completed = try Fixtures.capturingSession()
        _ = try completed.finish()
        sessions.append(completed)
        for before in sessions {
            var session = before
            XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 5, azimuthDegrees: 40, luminance: 0)), [],
                           before.state.name)
            XCTAssertEqual(session, before, before.state.name)
        }
    }

    func testAFrameNotLaterThanThePreviousOneIsIgnored() throws {
        var session = try Fixtures.capturingSession()
        _ = session.frameArrived(Fixtures.frame(time: 5, azimuthDegrees: 10))
        let before = session
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 5, azimuthDegrees: 90)), [])
        XCTAssertEqual(session.frameArrived(Fixtures.frame(time: 4, azimuthDegrees: 90, luminance: 0)), [])
        XCTAssertEqual(session, before)
    }
}
