import Foundation

/// Where an exported model sits: the similarity from the reconstruction's world frame into the
/// model frame, in which +Y is up (against gravity), +Z points towards the first camera (the side
/// the capture began on faces the viewer), the object's footprint is centred on the origin and its
/// lowest point rests on y = 0, and units are metres when the scale is known.
public enum ModelFrame {
    /// The model frame for `points` (world frame), given the world's up direction and the metres per
    /// world unit (1 when unknown). `facing` is a world point the model's +Z should face
    /// (typically the first camera centre); when nil, +Z is chosen from world x.
    public static func transform(points: [SIMD3<Float>], up: Vector3, metresPerUnit: Double, facing: Vector3?) -> SimilarityTransform {
        let y = up.length > 0 ? up.normalized : Vector3(0, 1, 0)
        guard let first = points.first else {
            return SimilarityTransform(scale: metresPerUnit, rotation: .identity, translation: .zero)
        }
        var lo = first, hi = first
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let centre = Vector3(Double(lo.x + hi.x) / 2, Double(lo.y + hi.y) / 2, Double(lo.z + hi.z) / 2)
        // Horizontal direction towards the viewer.
        var toward = (facing ?? (centre + Vector3(1, 0, 0))) - centre
        toward = toward - toward.dot(y) * y
        if toward.length < 1e-9 * max(1, centre.length) {
            let helper = abs(y.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 0, 1)
            toward = helper - helper.dot(y) * y
        }
        let z = toward.normalized
        let x = y.cross(z).normalized
        let rotation = Matrix3(rows: x, y, z)  // rows: the model axes in world coordinates
        // Rest on y = 0, centred in x and z: bounds of the rotated points.
        var minimum = Vector3(Double.infinity, .infinity, .infinity)
        var maximum = -minimum
        for p in points {
            let q = rotation * Vector3(Double(p.x), Double(p.y), Double(p.z))
            minimum = Vector3(min(minimum.x, q.x), min(minimum.y, q.y), min(minimum.z, q.z))
            maximum = Vector3(max(maximum.x, q.x), max(maximum.y, q.y), max(maximum.z, q.z))
        }
        let offset = Vector3(-(minimum.x + maximum.x) / 2, -minimum.y, -(minimum.z + maximum.z) / 2)
        return SimilarityTransform(scale: metresPerUnit, rotation: rotation, translation: metresPerUnit * offset)
    }

    /// The world's up direction from gravity measurements (physical down, world frame, one per
    /// photo): the direction most of them agree with within 20°, averaged over those. Photos of a
    /// flipped pass disagree with the first pass and lose the vote. Nil without measurements.
    public static func up(fromGravity downs: [Vector3]) -> Vector3? {
        let units = downs.filter { $0.length > 1e-9 }.map { $0.normalized }
        guard !units.isEmpty else { return nil }
        let cosine = voteCosine
        var best: [Vector3] = []
        for candidate in units {
            let agreeing = units.filter { $0.dot(candidate) >= cosine }
            if agreeing.count > best.count { best = agreeing }
        }
        let mean = best.reduce(Vector3.zero, +)
        return mean.length > 0 ? -mean.normalized : nil
    }

    /// The world's up direction of the photos taken by `cameraFromWorld`: from their gravity
    /// measurements (down in each camera's frame, nil where a photo has none) when they agree
    /// (`up(fromGravity:)`), else from how the photos were held, as their EXIF orientation tags
    /// (nil where none) show them (`up(fromCameras:upInCamera:)`).
    public static func up(cameraFromWorld: [RigidTransform], gravityInCamera: [Vector3?], exifOrientations: [Int?]) -> Vector3? {
        checkedUp(cameraFromWorld: cameraFromWorld, gravityInCamera: gravityInCamera, exifOrientations: exifOrientations).up
    }

    /// `up(cameraFromWorld:gravityInCamera:exifOrientations:)`, and whether the gravity
    /// measurements were taken to hold "up" rather than "down" and turned round. That sign mistake
    /// would turn the model over, and it shows in the photos: by the measurements as given, the
    /// photos as shown would have been taken upside down, their tops pointing on average more than
    /// `upsideDownSine` (about 17°) below the horizon. Only the photos whose measurement agrees
    /// with the vote count (a pass with the object turned over loses it and says nothing of the
    /// sign); a capture looking straight down (tops level whatever the sign) keeps them as given.
    public static func checkedUp(cameraFromWorld: [RigidTransform], gravityInCamera: [Vector3?],
                                 exifOrientations: [Int?]) -> (up: Vector3?, gravityTurnedRound: Bool) {
        let downs = zip(cameraFromWorld, gravityInCamera).compactMap { pose, gravity in gravity.map { pose.rotation.transposed * $0 } }
        let shown = exifOrientations.map(upInCamera(exifOrientation:))
        guard let up = up(fromGravity: downs) else {
            return (up(fromCameras: cameraFromWorld, upInCamera: shown), false)
        }
        // Per photo, in its own camera frame: its top as shown against the up its measurement gives.
        let tops = cameraFromWorld.indices.compactMap { i -> Double? in
            guard i < gravityInCamera.count, let g = gravityInCamera[i], g.length > 1e-9,
                  (cameraFromWorld[i].rotation.transposed * g).normalized.dot(-1 * up) >= voteCosine else { return nil }
            return (i < shown.count ? shown[i] : Vector3(0, -1, 0)).dot(-1 * g.normalized)
        }
        let meanTop = tops.reduce(0, +) / Double(max(1, tops.count))
        return !tops.isEmpty && meanTop < -upsideDownSine ? (-1 * up, true) : (up, false)
    }

    /// How close to the vote's direction a gravity measurement must be to count for it: cos 20°.
    static let voteCosine = 0.9397

    /// How far below the horizon, as a sine, the photos' tops must point on average for gravity
    /// measurements to be read as "up" vectors (`checkedUp`): 0.3, about 17°.
    public static let upsideDownSine = 0.3

    /// The world's up direction guessed from how the photos were taken. A photo is held level: the
    /// side of it that is horizontal as shown (its x axis, for a photo shown as stored) is level
    /// with the ground, however steeply the camera looks down. So up is the direction those sides
    /// are all perpendicular to (`levelUp`), on the side of the mean of the photos' up as shown.
    /// `upInCamera` gives, per camera, the direction that is up in its photo as shown
    /// (`upInCamera(exifOrientation:)`); by default the stored raster's top (camera −y, since image
    /// y points down). A photo stored turned without a tag saying so still has one side level, the
    /// one `levelUp` takes, so a few such photos do not tilt the result. When the level sides are
    /// all nearly parallel (every camera facing one way) they do not fix up, and the mean of the
    /// photos' up is used. Cameras standing around one place overrule a guess far from their
    /// ring's axis (`orbitUp`). Nil without cameras or when their ups cancel out (and no ring
    /// decides).
    public static func up(fromCameras cameraFromWorld: [RigidTransform], upInCamera: [Vector3]? = nil) -> Vector3? {
        let shownUp = cameraFromWorld.indices.map { i in
            cameraFromWorld[i].rotation.transposed * (upInCamera.flatMap { i < $0.count ? $0[i] : nil } ?? Vector3(0, -1, 0))
        }
        let mean = shownUp.reduce(Vector3.zero, +)
        let guess = mean.length > 1e-9 ? levelUp(cameraFromWorld, shownUp: shownUp, from: mean.normalized) ?? mean.normalized : nil
        return orbitUp(cameraFromWorld, guess: guess) ?? guess
    }

    /// The axis of cameras standing around one place, when it overrules `guess`. Photos all stored
    /// turned without a tag saying so (an uploader that strips EXIF without turning the pixels, or
    /// a tag left behind by one that turned them) lay the guess from their tops on its side: a
    /// vase came out lying down, its rug a wall. Cameras around an object stand on a ring or a cap
    /// (their centres' spread: the two larger eigenvalues within a factor 3.3 of each other, the
    /// smallest under a quarter of the middle one) and look in at its middle, across the axis
    /// more than along it (a one-sided cap looks along its axis); the ring's axis is
    /// then the world's vertical. When the guess lies more than 60° from it, the axis is taken,
    /// pointing away from where the cameras look on average (objects are photographed from above).
    /// A nil guess (the photos' tops cancel out round the ring) is overruled too. Nil, leaving the
    /// guess, for fewer than 6 cameras, other layouts (a facade, a room from inside), a guess near
    /// the axis, or cameras level with the ring (no side to choose).
    public static func orbitUp(_ cameraFromWorld: [RigidTransform], guess: Vector3?) -> Vector3? {
        guard cameraFromWorld.count >= 6 else { return nil }
        let centres = cameraFromWorld.map(\.cameraCentreInWorld)
        let middle = (1.0 / Double(centres.count)) * centres.reduce(Vector3.zero, +)
        var spread = [[Double]](repeating: [0, 0, 0], count: 3)
        for c in centres {
            let d = (c - middle).array
            for i in 0..<3 { for j in 0..<3 { spread[i][j] += d[i] * d[j] } }
        }
        let eigen = SymmetricEigen(spread)
        guard eigen.values[0] > 0, eigen.values[1] > 0.3 * eigen.values[0], eigen.values[2] < 0.25 * eigen.values[1] else { return nil }
        let axis = Vector3(eigen.vectors[2][0], eigen.vectors[2][1], eigen.vectors[2][2]).normalized
        if let guess, abs(axis.dot(guess)) >= 0.5 { return nil }
        let forwards = cameraFromWorld.map { $0.rotation.row(2) }
        let inward = zip(forwards, centres).map { f, c in f.dot((middle - c).normalized) }.reduce(0, +) / Double(centres.count)
        guard inward > 0.5 else { return nil }
        let along = forwards.map { $0.dot(axis) }.reduce(0, +) / Double(centres.count)
        // Round the axis, not along it: a cap of cameras on one side (a statue or a car's side
        // photographed from the front, left to right and a little from above) passes the tests
        // above with a horizontal axis, but its cameras look along that axis more than across it.
        guard abs(along) > 0.05, abs(along) < inward else { return nil }
        return along < 0 ? axis : -1 * axis
    }

    /// The direction perpendicular to every camera's level side, starting from `start`: each
    /// camera's level side is whichever of its x and y axes is nearer perpendicular to the current
    /// estimate; the estimate is then the direction least along all of them (smallest eigenvector
    /// of the sum of their outer products), signed towards `shownUp`; repeated until the choices
    /// settle. Nil when the level sides are nearly parallel (the middle eigenvalue under 5 % of the
    /// cameras), which leaves up undetermined.
    static func levelUp(_ cameraFromWorld: [RigidTransform], shownUp: [Vector3], from start: Vector3) -> Vector3? {
        guard cameraFromWorld.count >= 2 else { return nil }
        var estimate = start
        var previousChoice: [Bool] = []
        for _ in 0..<5 {
            var sum = [[Double]](repeating: [0, 0, 0], count: 3)
            var choice: [Bool] = []
            for pose in cameraFromWorld {
                let x = pose.rotation.row(0), y = pose.rotation.row(1)  // the camera's axes in the world
                let usesX = abs(x.dot(estimate)) <= abs(y.dot(estimate))
                choice.append(usesX)
                let side = (usesX ? x : y).array
                for i in 0..<3 { for j in 0..<3 { sum[i][j] += side[i] * side[j] } }
            }
            let eigen = SymmetricEigen(sum)
            guard eigen.values[1] > 0.05 * Double(cameraFromWorld.count) else { return nil }
            var normal = Vector3(eigen.vectors[2][0], eigen.vectors[2][1], eigen.vectors[2][2])
            if shownUp.reduce(0.0, { $0 + $1.dot(normal) }) < 0 { normal = -1 * normal }
            estimate = normal
            if choice == previousChoice { break }
            previousChoice = choice
        }
        return estimate
    }

    /// The direction that is up in a photo shown as its EXIF orientation tag (1…8) asks, in the
    /// camera frame of the pixels as stored (x right, y down): the stored top for 1 and 2 (and
    /// without a tag), the bottom for 3 and 4 (shown turned half a turn), the left side for 5 and
    /// 6 (the 0th column is the visual top: a portrait photo from a phone held upright), the right
    /// side for 7 and 8.
    public static func upInCamera(exifOrientation: Int?) -> Vector3 {
        switch exifOrientation {
        case 3, 4: return Vector3(0, 1, 0)
        case 5, 6: return Vector3(-1, 0, 0)
        case 7, 8: return Vector3(1, 0, 0)
        default: return Vector3(0, -1, 0)
        }
    }
}
