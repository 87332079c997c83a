import Foundation
import ReconstructionCore
import XCTest

/// `ObjectRegion.find` on exact camera layouts: an object on a floor in a room, photographed from
/// around it, has a region around the object that leaves the walls out; a facade, a courtyard seen
/// from inside and a narrow arc have none.
final class ObjectRegionTests: XCTestCase {
    /// 640 × 480 photos, 60° wide.
    static let intrinsics = CameraIntrinsics(width: 640, height: 480, fx: 554, fy: 554, cx: 320, cy: 240)
    static let up = Vector3(0, 0, 1)
    static let objectCentre = Vector3(0, 0, 0.2)

    /// A camera at `centre` looking at `target`, upright (image y along world −z as far as possible).
    static func camera(at centre: Vector3, lookingAt target: Vector3) -> ObjectRegion.Camera {
        let forward = (target - centre).normalized
        let right = forward.cross(up).normalized
        let down = forward.cross(right)
        let rotation = Matrix3(rows: right, down, forward)
        return ObjectRegion.Camera(cameraFromWorld: RigidTransform(rotation: rotation, translation: -(rotation * centre)),
                                   intrinsics: intrinsics)
    }

    /// Cameras at `distance` from the object's centre, at azimuths from 0 to `spanDegrees` (a whole
    /// turn: evenly all round), on rings at 10°, 30° and 55° of elevation, looking at the object.
    static func orbit(spanDegrees: Double, perRing: Int = 8, distance: Double = 0.8) -> [ObjectRegion.Camera] {
        var cameras: [ObjectRegion.Camera] = []
        for (ring, elevation) in [10.0, 30.0, 55.0].enumerated() {
            for k in 0..<perRing {
                let step = spanDegrees >= 360 ? spanDegrees / Double(perRing) : spanDegrees / Double(perRing - 1)
                let azimuth = (Double(k) * step + (spanDegrees >= 360 ? Double(ring) * 15 : 0)) * .pi / 180
                let e = elevation * .pi / 180
                let centre = objectCentre + distance * Vector3(cos(e) * cos(azimuth), cos(e) * sin(azimuth), sin(e))
                cameras.append(camera(at: centre, lookingAt: objectCentre))
            }
        }
        return cameras
    }

    /// Points on a 0.3 m wide, 0.4 m tall object standing at the origin, on a 6 m floor and on the
    /// walls of a 6 m room (seeded, so the test is exact).
    static func room() -> (object: [Vector3], floor: [Vector3], walls: [Vector3]) {
        var random = SeededGenerator(seed: 7)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(random.next() % 1_000_000) / 1_000_000 }
        let object = (0..<400).map { _ -> Vector3 in
            let angle = uniform(0, 2 * .pi), z = uniform(0, 0.4)
            return Vector3(0.15 * cos(angle), 0.15 * sin(angle), z)
        }
        let floor = (0..<2000).map { _ in Vector3(uniform(-3, 3), uniform(-3, 3), 0) }
        let walls = (0..<800).map { i -> Vector3 in
            let along = uniform(-3, 3), z = uniform(0, 2.5)
            switch i % 4 {
            case 0: return Vector3(3, along, z)
            case 1: return Vector3(-3, along, z)
            case 2: return Vector3(along, 3, z)
            default: return Vector3(along, -3, z)
            }
        }
        return (object, floor, walls)
    }

    static func contains(_ box: BoundingBox, _ p: Vector3) -> Bool {
        abs(p.x - box.centre.x) <= box.halfExtents.x && abs(p.y - box.centre.y) <= box.halfExtents.y
            && abs(p.z - box.centre.z) <= box.halfExtents.z
    }

    func testAnOrbitAroundAnObjectFindsTheObjectAndLeavesTheRoomOut() throws {
        let (object, floor, walls) = Self.room()
        let region = try XCTUnwrap(ObjectRegion.find(cameras: Self.orbit(spanDegrees: 360), points: object + floor + walls, up: Self.up))
        XCTAssertEqual(region.focus.distance(to: Self.objectCentre), 0, accuracy: 1e-6, "the optical axes meet at the object")
        XCTAssertEqual(region.framingCameras, 24)
        XCTAssertTrue(object.allSatisfy { Self.contains(region.box, $0) }, "the whole object is in the region")
        XCTAssertFalse(walls.contains { Self.contains(region.box, $0) }, "no wall is")
        XCTAssertLessThan(max(region.box.halfExtents.x, region.box.halfExtents.y), 0.8, "only the floor around the object: \(region.box)")
        let floorInside = floor.filter { Self.contains(region.box, $0) }.count
        XCTAssertLessThan(floorInside, floor.count / 10)
    }

    func testAHalfOrbitStillIsAnObjectCaptureButANarrowArcIsNot() {
        let (object, floor, walls) = Self.room()
        let points = object + floor + walls
        XCTAssertNotNil(ObjectRegion.find(cameras: Self.orbit(spanDegrees: 200), points: points, up: Self.up),
                        "cameras more than half-way round")
        XCTAssertNil(ObjectRegion.find(cameras: Self.orbit(spanDegrees: 120), points: points, up: Self.up),
                     "a third of the way round: the front of something, not an object all round")
    }

    func testAFacadeACourtyardAndParallelCamerasHaveNoObjectRegion() {
        // A facade: cameras on a line 5 m in front of a wall, looking at it, turned towards its middle.
        let wall = (0..<600).map { i in Vector3(Double(i % 30) * 0.3 - 4.5, 5, Double(i / 30) * 0.2) }
        let street = (0..<9).map { i in Self.camera(at: Vector3(Double(i) - 4, 0, 1.6), lookingAt: Vector3(0, 5, 1.6)) }
        XCTAssertNil(ObjectRegion.find(cameras: street, points: wall, up: Self.up))

        // A courtyard seen from inside: cameras in a ring looking outward at the walls.
        let (_, floor, walls) = Self.room()
        let inward = (0..<16).map { k -> ObjectRegion.Camera in
            let a = Double(k) * .pi / 8
            let centre = Vector3(0.5 * cos(a), 0.5 * sin(a), 1.5)
            return Self.camera(at: centre, lookingAt: centre + Vector3(cos(a), sin(a), -0.2))
        }
        XCTAssertNil(ObjectRegion.find(cameras: inward, points: floor + walls, up: Self.up))

        // A walk along a wall, every camera looking straight at it: the axes never meet.
        let parallel = (0..<10).map { i in Self.camera(at: Vector3(Double(i) * 0.5, 0, 1.6), lookingAt: Vector3(Double(i) * 0.5, 5, 1.6)) }
        XCTAssertNil(ObjectRegion.find(cameras: parallel, points: wall, up: Self.up))
    }

    func testTooFewCamerasOrPointsGiveNoRegion() {
        let cameras = Self.orbit(spanDegrees: 360)
        let (object, _, _) = Self.room()
        XCTAssertNil(ObjectRegion.find(cameras: Array(cameras.prefix(5)), points: object, up: Self.up), "5 photos")
        XCTAssertNil(ObjectRegion.find(cameras: cameras, points: Array(object.prefix(10)), up: Self.up), "10 points")
    }
}
