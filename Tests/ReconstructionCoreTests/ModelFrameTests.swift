import ReconstructionCore
import XCTest

final class ModelFrameTests: XCTestCase {
    func testTiltedBoxComesOutUprightCentredOnTheGroundAndFacingTheCamera() {
        // A box 2 × 1 × 0.5 (x, up, z) in a world whose up is +Z and whose origin is far away.
        let worldFromModel = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, -1), Vector3(0, 1, 0))  // model y → world z
        var points: [SIMD3<Float>] = []
        for x in [-1.0, 1.0] { for y in [0.0, 1.0] { for z in [-0.25, 0.25] {
            let w = worldFromModel * Vector3(x, y, z) + Vector3(100, -50, 7)
            points.append(SIMD3(Float(w.x), Float(w.y), Float(w.z)))
        } } }
        let camera = Vector3(100, -60, 7.5)  // on the world −y side, i.e. model +z
        let frame = ModelFrame.transform(points: points, up: Vector3(0, 0, 2), metresPerUnit: 0.5, facing: camera)
        let mapped = points.map { frame.apply(Vector3(Double($0.x), Double($0.y), Double($0.z))) }
        XCTAssertEqual(mapped.map(\.y).min()!, 0, accuracy: 1e-4)
        XCTAssertEqual(mapped.map(\.y).max()!, 0.5, accuracy: 1e-4, "1 unit tall at 0.5 m per unit")
        XCTAssertEqual(mapped.map(\.x).min()! + mapped.map(\.x).max()!, 0, accuracy: 1e-4)
        XCTAssertEqual(mapped.map(\.z).min()! + mapped.map(\.z).max()!, 0, accuracy: 1e-4)
        XCTAssertGreaterThan(frame.apply(camera).z, 1, "the camera is in front (+Z)")
        XCTAssertEqual(frame.rotation.determinant, 1, accuracy: 1e-9)
    }

    func testGravityVoteIgnoresTheFlippedPassAndCameraUpAverages() {
        var downs = Array(repeating: Vector3(0, -1, 0.05), count: 8)
        downs += Array(repeating: Vector3(0, 1, 0), count: 3)  // flipped pass
        let up = ModelFrame.up(fromGravity: downs)!
        XCTAssertGreaterThan(up.dot(Vector3(0, 1, 0)), 0.99)
        XCTAssertNil(ModelFrame.up(fromGravity: []))
        // Cameras looking horizontally with image "up" = world +Z (camera y = world −Z).
        let pose = RigidTransform(rotation: Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, -1), Vector3(0, 1, 0)), translation: .zero)
        let cameraUp = ModelFrame.up(fromCameras: [pose, pose])!
        XCTAssertEqual(cameraUp.z, 1, accuracy: 1e-9)
    }

    /// A phone held upright around an object stores its portrait photos sideways, tagged to be
    /// turned for display: the cameras' stored "up" axes point around the orbit and cancel out,
    /// and only the photos' up as shown gives the world's up.
    func testPhotosTaggedToBeTurnedGiveTheUpTheyAreShownWith() {
        XCTAssertEqual(ModelFrame.upInCamera(exifOrientation: nil), Vector3(0, -1, 0))
        XCTAssertEqual(ModelFrame.upInCamera(exifOrientation: 1), Vector3(0, -1, 0))
        XCTAssertEqual(ModelFrame.upInCamera(exifOrientation: 3), Vector3(0, 1, 0))
        XCTAssertEqual(ModelFrame.upInCamera(exifOrientation: 6), Vector3(-1, 0, 0), "the 0th column is the visual top")
        XCTAssertEqual(ModelFrame.upInCamera(exifOrientation: 8), Vector3(1, 0, 0), "the 0th column is the visual bottom")
        // Twelve cameras on a ring around the world's +Z axis, looking at the centre, slightly from
        // above; each turned a quarter about its optical axis, as a portrait photo is stored.
        let poses = (0..<12).map { i -> RigidTransform in
            let a = 2 * Double.pi * Double(i) / 12
            let centre = Vector3(2 * cos(a), 2 * sin(a), 0.5)
            let forward = (-1 * centre).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
            let down = forward.cross(right)
            // Stored raster turned clockwise: its x axis is the upright photo's down, its y axis the upright left.
            let x = down, y = -1 * right
            return RigidTransform(rotation: Matrix3(rows: x, y, forward), translation: .zero)
        }
        let asStored = ModelFrame.up(fromCameras: poses)
        XCTAssertLessThan(asStored.map { abs($0.z) } ?? 0, 0.5, "the stored rasters' tops do not point up")
        let shown = ModelFrame.up(fromCameras: poses, upInCamera: Array(repeating: ModelFrame.upInCamera(exifOrientation: 6), count: 12))!
        XCTAssertGreaterThan(shown.z, 0.99)
    }

    /// Every photo of an orbit stored turned without a tag (EXIF stripped): their tops lie along
    /// the ring, and the up from them lay on its side; the ring's axis gives it back, on the side
    /// the cameras look down from. Upright photos, and a guess near the axis, are left alone.
    func testAnOrbitOfPhotosAllStoredTurnedWithoutATagStillStandsUp() {
        func orbit(turn: (Int) -> Int, height: Double = 0.8) -> [RigidTransform] {
            (0..<16).map { i -> RigidTransform in
                let a = 2 * Double.pi * Double(i) / 16
                let centre = Vector3(2 * cos(a), 2 * sin(a), height)
                let forward = (Vector3(0, 0, 0.2) - centre).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
                let down = forward.cross(right)
                let axes: (Vector3, Vector3)
                switch turn(i) {
                case 1: axes = (down, -1 * right)   // a quarter turn one way
                case -1: axes = (-1 * down, right)  // the other way
                default: axes = (right, down)
                }
                let rotation = Matrix3(rows: axes.0, axes.1, forward)
                return RigidTransform(rotation: rotation, translation: -1 * (rotation * centre))
            }
        }
        for (name, turns) in [("all clockwise", { (_: Int) in 1 }), ("all anticlockwise", { (_: Int) in -1 }),
                              ("mixed", { (i: Int) in i % 3 == 0 ? -1 : 1 })] as [(String, (Int) -> Int)] {
            let poses = orbit(turn: turns)
            // The same rotations with every centre at the origin: no ring, only the photos' tops.
            let guess = ModelFrame.up(fromCameras: poses.map { RigidTransform(rotation: $0.rotation, translation: .zero) })
            XCTAssertLessThan(abs(guess?.z ?? 0), 0.5, "\(name): the photos' tops alone give a sideways up")
            let up = ModelFrame.up(fromCameras: poses)
            XCTAssertGreaterThan(up?.z ?? 0, 0.99, "\(name): \(String(describing: up))")
        }
        let upright = ModelFrame.up(fromCameras: orbit(turn: { _ in 0 }))
        XCTAssertGreaterThan(upright?.z ?? 0, 0.99)
        XCTAssertNil(ModelFrame.orbitUp(orbit(turn: { _ in 0 }), guess: Vector3(0, 0, 1)), "a guess along the axis stands")
        XCTAssertNil(ModelFrame.orbitUp(orbit(turn: { _ in 1 }, height: 0.2), guess: Vector3(1, 0, 0)),
                     "cameras level with the ring leave no side to choose")
        // A statue photographed from the front only (±55° left to right, 0–40° from above, all
        // upright): a cap whose axis is horizontal, which must not lay the model on its back.
        var cap: [RigidTransform] = []
        for yaw in stride(from: -55.0, through: 55, by: 11) {
            for pitch in [0.0, 20, 40] {
                let (a, b) = (yaw * .pi / 180, pitch * .pi / 180)
                let centre = Vector3(3 * sin(a) * cos(b), -3 * cos(a) * cos(b), 1 + 3 * sin(b))
                let forward = (Vector3(0, 0, 1) - centre).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
                let rotation = Matrix3(rows: right, forward.cross(right), forward)
                cap.append(RigidTransform(rotation: rotation, translation: -1 * (rotation * centre)))
            }
        }
        XCTAssertGreaterThan(ModelFrame.up(fromCameras: cap)?.z ?? 0, 0.99, "a one-sided cap keeps the photos' up")
    }

    /// Photos stored turned without a tag saying so (three of eleven here a quarter turn, one upside
    /// down): the plain mean of the stored tops leans towards them; each camera's side
    /// nearest that mean gives the world's up again.
    func testAFewPhotosStoredTurnedWithoutATagDoNotTiltTheUp() {
        let poses = (0..<11).map { i -> RigidTransform in
            let a = Double.pi * Double(i) / 10  // a half ring in front of a facade, world +Z up
            let centre = Vector3(3 * cos(a), 3 * sin(a), 0.3)
            let forward = (Vector3(0, 0, 0.3) - centre).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
            let down = forward.cross(right)
            switch i {
            case 2, 4, 6: return RigidTransform(rotation: Matrix3(rows: down, -1 * right, forward), translation: .zero)  // turned
            case 9: return RigidTransform(rotation: Matrix3(rows: -1 * right, -1 * down, forward), translation: .zero)  // upside down
            default: return RigidTransform(rotation: Matrix3(rows: right, down, forward), translation: .zero)
            }
        }
        let plainMean = poses.reduce(Vector3.zero) { $0 + $1.rotation.transposed * Vector3(0, -1, 0) }.normalized
        XCTAssertLessThan(plainMean.z, cos(15 * Double.pi / 180), "the fixture's turned photos tilt a plain mean")
        let up = ModelFrame.up(fromCameras: poses)!
        XCTAssertGreaterThan(up.z, cos(1 * Double.pi / 180), "\(up)")
    }

    /// The same from cameras looking down 70° at a turntable: the turned photos are snapped too,
    /// giving the up of the same photos stored upright.
    func testPhotosStoredTurnedAreSnappedFromSteeplyAboveToo() {
        func poses(turning: Bool) -> [RigidTransform] {
            (0..<12).map { i -> RigidTransform in
                let a = 2 * Double.pi * Double(i) / 12
                let centre = Vector3(cos(a), sin(a), tan(70 * Double.pi / 180))
                let forward = (-1 * centre).normalized, right = forward.cross(Vector3(0, 0, 1)).normalized
                let down = forward.cross(right)
                if turning && [1, 2, 3].contains(i) { return RigidTransform(rotation: Matrix3(rows: down, -1 * right, forward), translation: .zero) }
                return RigidTransform(rotation: Matrix3(rows: right, down, forward), translation: .zero)
            }
        }
        let upright = ModelFrame.up(fromCameras: poses(turning: false))!
        XCTAssertGreaterThan(upright.z, 0.999)
        let plainMean = poses(turning: true).reduce(Vector3.zero) { $0 + $1.rotation.transposed * Vector3(0, -1, 0) }.normalized
        XCTAssertLessThan(plainMean.dot(upright), cos(10 * Double.pi / 180), "the fixture's turned photos tilt a plain mean")
        let up = ModelFrame.up(fromCameras: poses(turning: true))!
        XCTAssertEqual(up.dot(upright), 1, accuracy: 1e-9, "\(up)")
    }

    /// Gravity sidecars holding "up" instead of "down" (a sign mistake) would turn the model
    /// over: the photos, as shown, would have been held upside down, so they are turned round. A
    /// capture looking straight down cannot tell, and keeps them as given.
    func testGravityHoldingUpIsTurnedRoundUnlessTheCamerasLookStraightDown() {
        func ring(elevationDegrees: Double) -> [RigidTransform] {
            (0..<8).map { i -> RigidTransform in
                let a = 2 * Double.pi * Double(i) / 8, e = elevationDegrees * Double.pi / 180
                let centre = Vector3(cos(a) * cos(e), sin(a) * cos(e), sin(e))
                let forward = (-1 * centre).normalized
                let right = abs(forward.z) > 0.999 ? Vector3(-sin(a), cos(a), 0) : forward.cross(Vector3(0, 0, 1)).normalized
                return RigidTransform(rotation: Matrix3(rows: right, forward.cross(right), forward), translation: -1 * centre)
            }
        }
        let worldDown = Vector3(0, 0, -1)
        for (elevation, turnsRound) in [(20.0, true), (60.0, true), (90.0, false)] {
            let poses = ring(elevationDegrees: elevation)
            let down = poses.map { Optional($0.rotation * worldDown) }
            let given = ModelFrame.checkedUp(cameraFromWorld: poses, gravityInCamera: down, exifOrientations: Array(repeating: nil, count: 8))
            XCTAssertFalse(given.gravityTurnedRound, "elevation \(elevation)°")
            XCTAssertGreaterThan(given.up!.z, 0.999)
            let upVectors = down.map { $0.map { -1 * $0 } }
            let flipped = ModelFrame.checkedUp(cameraFromWorld: poses, gravityInCamera: upVectors, exifOrientations: Array(repeating: nil, count: 8))
            XCTAssertEqual(flipped.gravityTurnedRound, turnsRound, "elevation \(elevation)°")
            XCTAssertEqual(flipped.up!.z, turnsRound ? 1 : -1, accuracy: 1e-3, "elevation \(elevation)°")
        }
        // Two passes, the object turned over for the second: its 7 photos, from 20° above the
        // turned object, lose the vote to the first pass's 8, and say nothing of the sign (counted
        // with the others, with the first pass from 80° above, their tops would turn the right
        // gravity round).
        let rx = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, -1))
        func twoPasses(firstElevation: Double) -> (poses: [RigidTransform], gravity: [Vector3?]) {
            let firstPass = ring(elevationDegrees: firstElevation), secondPass = Array(ring(elevationDegrees: 20).prefix(7))
            return (firstPass + secondPass.map { RigidTransform(rotation: $0.rotation * rx, translation: $0.translation) },
                    (firstPass + secondPass).map { Optional($0.rotation * worldDown) })
        }
        let steep = twoPasses(firstElevation: 80)
        let right = ModelFrame.checkedUp(cameraFromWorld: steep.poses, gravityInCamera: steep.gravity,
                                         exifOrientations: Array(repeating: nil, count: 15))
        XCTAssertFalse(right.gravityTurnedRound)
        XCTAssertGreaterThan(right.up!.z, 0.999)
        let lower = twoPasses(firstElevation: 50)
        XCTAssertTrue(ModelFrame.checkedUp(cameraFromWorld: lower.poses, gravityInCamera: lower.gravity.map { $0.map { -1 * $0 } },
                                           exifOrientations: Array(repeating: nil, count: 15)).gravityTurnedRound)
    }
}
