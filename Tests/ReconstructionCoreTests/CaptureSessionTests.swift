import ReconstructionCore
import XCTest

final class CaptureSessionTests: XCTestCase {
    typealias Fixtures = CaptureFixtures

    /// The calls of the legality table, each performed the way a host would.
    enum Call: String, CaseIterable {
        case start, startDetecting, resetDetection, startCapturing, beginNewScanPass, beginNewScanPassAfterFlip,
             finish, cancel, allDataSaved, imagesDirectoryVanished

        func perform(on session: inout CaptureSession) throws(CaptureError) -> [CaptureEffect] {
            switch self {
            case .start: return try session.start(imagesDirectory: Fixtures.directory)
            case .startDetecting: return try session.startDetecting()
            case .resetDetection: return try session.resetDetection()
            case .startCapturing: return try session.startCapturing(box: Fixtures.box)
            case .beginNewScanPass: return try session.beginNewScanPass()
            case .beginNewScanPassAfterFlip: return try session.beginNewScanPassAfterFlip()
            case .finish: return try session.finish()
            case .cancel: return try session.cancel()
            case .allDataSaved: return try session.allDataSaved()
            case .imagesDirectoryVanished: return try session.imagesDirectoryVanished()
            }
        }
    }

    /// A session in each of the seven states, reached through legal calls only.
    func sessions() throws -> [(name: String, session: CaptureSession)] {
        let initializing = CaptureSession()
        var ready = initializing
        _ = try ready.start(imagesDirectory: Fixtures.directory)
        var detecting = ready
        _ = try detecting.startDetecting()
        var capturing = detecting
        _ = try capturing.startCapturing(box: Fixtures.box)
        var finishing = capturing
        XCTAssertEqual(finishing.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 10)).savedShotIDs, [0])
        _ = try finishing.finish()
        var completed = capturing
        _ = try completed.finish()
        var failed = ready
        _ = try failed.cancel()
        let all = [("initializing", initializing), ("ready", ready), ("detecting", detecting), ("capturing", capturing),
                   ("finishing", finishing), ("completed", completed), ("failed", failed)]
        for (name, session) in all { XCTAssertEqual(session.state.name, name) }
        return all
    }

    /// Legal (state, call) pairs with the state and effects they lead to; every other pair is illegal.
    let legal: [String: [Call: (CaptureState, [CaptureEffect])]] = {
        let stop: [CaptureEffect] = [.stop]
        let cancelled = (CaptureState.failed(.cancelled), stop)
        let vanished = (CaptureState.failed(.imagesDirectoryMissing(CaptureFixtures.directory)), stop)
        let emptyDial: [CaptureEffect] = [.updateCoverage(filledBins: 0, totalBins: 24)]
        return [
            "initializing": [.start: (.ready, []), .cancel: cancelled],
            "ready": [.startDetecting: (.detecting, []), .cancel: cancelled, .imagesDirectoryVanished: vanished],
            "detecting": [.resetDetection: (.ready, []), .startCapturing: (.capturing, emptyDial),
                          .cancel: cancelled, .imagesDirectoryVanished: vanished],
            "capturing": [.beginNewScanPass: (.capturing, emptyDial), .beginNewScanPassAfterFlip: (.ready, emptyDial),
                          .finish: (.completed, stop), .cancel: cancelled, .imagesDirectoryVanished: vanished],
            "finishing": [.allDataSaved: (.completed, stop), .cancel: cancelled, .imagesDirectoryVanished: vanished],
            "completed": [:],
            "failed": [:],
        ]
    }()

    func testEveryStateAndCallPairFollowsTheLegalityTable() throws {
        let sessions = try sessions()
        XCTAssertEqual(sessions.count * Call.allCases.count, 70)
        for (name, before) in sessions {
            for call in Call.allCases {
                let pair = "(\(name), \(call.rawValue))"
                var session = before
                do {
                    let effects = try call.perform(on: &session)
                    guard let (expectedState, expectedEffects) = legal[name]?[call] else {
                        XCTFail("\(pair) should be illegal but moved to \(session.state)")
                        continue
                    }
                    XCTAssertEqual(session.state, expectedState, pair)
                    XCTAssertEqual(effects, expectedEffects, pair)
                } catch {
                    XCTAssertNil(legal[name]?[call], "\(pair) should be legal but threw \(error)")
                    XCTAssertEqual(error, .illegalCall(call: call.rawValue, state: name), pair)
                    XCTAssertEqual(session, before, "\(pair) changed the session although it was refused")
                }
            }
        }
    }

    func testTerminalStatesRefuseShotSavedToo() throws {
        for (name, before) in try sessions() where before.state.isTerminal {
            var session = before
            XCTAssertThrowsError(try session.shotSaved(id: 0), name) {
                XCTAssertEqual($0 as? CaptureError, .illegalCall(call: "shotSaved", state: name))
            }
            XCTAssertEqual(session, before, name)
        }
    }

    func testShotSavedForAnUnknownIdIsRefusedWithoutChange() throws {
        let before = try Fixtures.capturingSession()
        var session = before
        XCTAssertThrowsError(try session.shotSaved(id: 7)) { XCTAssertEqual($0 as? CaptureError, .unknownShot(id: 7)) }
        XCTAssertEqual(session, before)
    }

    func testFinishWithNoPendingShotCompletesAtOnceAndStops() throws {
        var session = try Fixtures.capturingSession()
        XCTAssertEqual(try session.finish(), [.stop])
        XCTAssertEqual(session.state, .completed)
    }

    func testCancelClearsShownGuidanceBeforeStopping() throws {
        var session = try Fixtures.capturingSession()
        _ = session.frameArrived(Fixtures.frame(time: 0, azimuthDegrees: 0, luminance: 0.01))
        XCTAssertEqual(try session.cancel(), [.showGuidance([]), .stop])
        XCTAssertEqual(session.state, .failed(.cancelled))
        XCTAssertEqual(session.feedback, [])
    }

    func testStartRejectsAnEmptyDirectoryOrInvalidConfigurationAndStaysInitializing() {
        var session = CaptureSession()
        XCTAssertThrowsError(try session.start(imagesDirectory: "")) {
            guard case .invalidArgument = $0 as? CaptureError else { return XCTFail("\($0)") }
        }
        var configuration = CaptureSession.Configuration()
        configuration.maximumShots = 0
        XCTAssertThrowsError(try session.start(imagesDirectory: Fixtures.directory, configuration: configuration)) {
            XCTAssertEqual($0 as? CaptureError, .invalidArgument("maximumShots must be at least 1"))
        }
        configuration = .init()
        configuration.maximumDistanceInBoxDiagonals = 0.5
        XCTAssertThrowsError(try session.start(imagesDirectory: Fixtures.directory, configuration: configuration))
        XCTAssertEqual(session, CaptureSession())
    }

    func testStartCapturingRejectsADegenerateBoxAndStaysDetecting() throws {
        var session = CaptureSession()
        _ = try session.start(imagesDirectory: Fixtures.directory)
        _ = try session.startDetecting()
        let before = session
        let flat = BoundingBox(centre: .zero, halfExtents: .zero)
        XCTAssertThrowsError(try session.startCapturing(box: flat)) {
            guard case .invalidArgument = $0 as? CaptureError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(session, before)
    }

    func testStartKeepsTheDirectoryAndConfiguration() throws {
        var configuration = CaptureSession.Configuration()
        configuration.isOverCaptureEnabled = true
        var session = CaptureSession()
        _ = try session.start(imagesDirectory: Fixtures.directory, configuration: configuration)
        XCTAssertEqual(session.imagesDirectory, Fixtures.directory)
        XCTAssertEqual(session.configuration, configuration)
    }

    func testDefaultsFollowTheBrief() {
        let configuration = CaptureSession.Configuration()
        XCTAssertEqual(configuration.maximumShots, 250)
        XCTAssertFalse(configuration.isOverCaptureEnabled)
        XCTAssertEqual(configuration.coverageBinCount, 24)
        XCTAssertNoThrow(try configuration.validate())
    }

    func testFlipDiscardsTheBoxAndStartsANewPassThatNeedsDetectionAgain() throws {
        var session = try Fixtures.capturingSession()
        _ = try session.beginNewScanPassAfterFlip()
        XCTAssertEqual(session.state, .ready)
        XCTAssertNil(session.box)
        XCTAssertEqual(session.scanPass, 1)
        _ = try session.startDetecting()
        let flipped = BoundingBox(centre: Vector3(0, 0, 0.1), halfExtents: Vector3(0.1, 0.15, 0.1))
        _ = try session.startCapturing(box: flipped)
        XCTAssertEqual(session.box, flipped)
        XCTAssertEqual(session.scanPass, 1)
    }
}
