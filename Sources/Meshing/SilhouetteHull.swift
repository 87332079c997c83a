import ReconstructionCore

/// The visual hull of an object: the points that project inside its mask in every view that
/// sees them. A point is outside as soon as one view sees it off the object's silhouette, so
/// the hull encloses the object and, with views all around, hugs it wherever its outline shows
/// in some photo, including parts that stereo cannot match (grazing surfaces, few views).
///
/// `signedDistance` approximates the distance to the hull's boundary: in each view, the pixel
/// distance to the silhouette's outline (a Euclidean distance transform of the mask) times the
/// point's depth over the focal length; the largest over the views. It is exact where one view's
/// outline is the nearest boundary and a slight overestimate of the inside elsewhere, which is
/// all a signed distance volume needs near the zero level.
public struct SilhouetteHull: Sendable {
    /// One masked view: its signed distance field in pixels (negative inside the mask) and camera.
    struct View: Sendable {
        /// The photo's camera at the field's resolution.
        var camera: ProjectiveCamera
        var field: [Float]
        /// The mask touches no edge of the photo: the whole object is in this view's frame, so a
        /// point outside the frame (or behind the camera) is outside the object.
        var framesObject: Bool
        var width: Int { camera.width }
        var height: Int { camera.height }
    }

    let views: [View]
    /// Pixels of slack added to every view's outline (masks are drawn at the photo's pixels and
    /// the cameras are estimates, so the hull is grown by this much to stay outside the object).
    public let slackPixels: Float

    /// - Parameters:
    ///   - masks: per view, the object mask (non-zero = object, any size: it is stretched over the
    ///     photo), the photo's intrinsics and the camera pose.
    ///   - maxDimension: masks are sampled down (nearest pixel) to at most this longer side.
    public init(masks: [(mask: GrayImage, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform)],
                maxDimension: Int = 640, slackPixels: Float = 1.5) {
        self.slackPixels = slackPixels
        views = masks.compactMap { entry in
            let mask = entry.mask
            guard mask.width > 0, mask.height > 0, mask.pixels.contains(where: { $0 != 0 }) else { return nil }
            let shrink = max(1, (max(mask.width, mask.height) + maxDimension - 1) / maxDimension)
            let width = (mask.width + shrink - 1) / shrink, height = (mask.height + shrink - 1) / shrink
            var inside = [Bool](repeating: false, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let mx = min(mask.width - 1, x * shrink + shrink / 2), my = min(mask.height - 1, y * shrink + shrink / 2)
                    inside[y * width + x] = mask.pixels[my * mask.width + mx] != 0
                }
            }
            let toInside = DistanceTransform.squaredDistances(width: width, height: height) { inside[$0] }
            let toOutside = DistanceTransform.squaredDistances(width: width, height: height) { !inside[$0] }
            // Pixel centres: half a pixel from the outline on either side.
            let field = inside.indices.map { i -> Float in
                inside[i] ? -(toOutside[i].squareRoot() - 0.5) : toInside[i].squareRoot() - 0.5
            }
            let framesObject = !(0..<mask.width).contains { mask.pixels[$0] != 0 || mask.pixels[(mask.height - 1) * mask.width + $0] != 0 }
                && !(0..<mask.height).contains { mask.pixels[$0 * mask.width] != 0 || mask.pixels[$0 * mask.width + mask.width - 1] != 0 }
            guard let camera = ProjectiveCamera(intrinsics: entry.intrinsics.scaled(toWidth: width, height: height),
                                                worldFromCamera: entry.worldFromCamera) else { return nil }
            return View(camera: camera, field: field, framesObject: framesObject)
        }
    }

    /// Number of views with a non-empty mask.
    public var viewCount: Int { views.count }

    /// The approximate signed distance from `point` (world) to the hull's boundary, positive
    /// outside, in world units, and how many views constrain the point: those that have it in
    /// their frame, in front of the camera, and those that frame the whole object (their mask
    /// touches no edge of the photo), for which a point out of frame is outside. With no view
    /// constraining it, the distance is −∞.
    public func signedDistance(_ point: SIMD3<Float>) -> (distance: Float, seenBy: Int) {
        signedDistance(point, excluding: -1, slack: slackPixels)
    }

    private func signedDistance(_ point: SIMD3<Float>, excluding excluded: Int, slack: Float) -> (distance: Float, seenBy: Int) {
        var distance = -Float.infinity
        var seen = 0
        for (n, view) in views.enumerated() where n != excluded {
            guard let d = Self.distance(point, in: view, slack: slack) else { continue }
            if d == .infinity { return (.infinity, seen + 1) }
            seen += 1
            distance = max(distance, d)
        }
        return (distance, seen)
    }

    /// One view's signed distance from `point` to its outline, world units at the point's depth,
    /// less `slack` pixels: +∞ behind the camera of a view that frames the whole object; nil when
    /// the view says nothing of the point (behind its camera, or out of its frame, when the
    /// object is not all in it).
    private static func distance(_ point: SIMD3<Float>, in view: View, slack: Float) -> Float? {
        let p = view.camera.cameraPoint(point)
        guard p.z > 0 else { return view.framesObject ? .infinity : nil }
        let pixel = view.camera.pixel(normalisedX: p.x / p.z, normalisedY: p.y / p.z)
        let u = pixel.x, v = pixel.y
        let width = Float(view.width), height = Float(view.height)
        var beyond: Float = 0
        if !(u >= 0 && v >= 0 && u < width && v < height) {
            guard view.framesObject, u.isFinite, v.isFinite else { return nil }
            // Out of frame: the outline is at least as far as the frame's edge, plus the
            // outline's distance from the nearest pixel on that edge.
            let du = max(0, -u, u - width), dv = max(0, -v, v - height)
            beyond = (du * du + dv * dv).squareRoot()
        }
        let column = min(view.width - 1, max(0, Int(u))), row = min(view.height - 1, max(0, Int(v)))
        let pixels = view.field[row * view.width + column] + beyond - slack
        return pixels * p.z / ((view.camera.fx + view.camera.fy) / 2)
    }

    /// How many views see `point` (world) off the object's silhouette by more than `margin`
    /// (world units, at the point's depth; slack included), counting a point behind a camera, or
    /// out of the frame of a view that frames the whole object, as off it. With correct masks one
    /// such view shows the point is not the object; counting them lets a caller ask for two, so
    /// that one mask's slip does not carve the object.
    public func viewsSeeingOutside(_ point: SIMD3<Float>, margin: Float) -> Int {
        views.reduce(0) { count, view in count + ((Self.distance(point, in: view, slack: slackPixels) ?? -.infinity) > margin ? 1 : 0) }
    }

    /// Where the object meets what it stands on, seen by each view: the ray through the view's
    /// lowest object pixel (along `up` as it appears in that view) grazes the object's foot on
    /// the near side and enters the other views' hull there; its height along `up` (a unit
    /// vector) at that entry is one estimate of the support's height. Rays are marched in `step`
    /// increments inside `box`; views whose ray never enters are left out. Cameras above an
    /// object standing on a floor see its foot as its lowest pixels, so the heights agree.
    public func contactHeights(up: SIMD3<Float>, in box: BoundingBox, step: Float, minViews: Int) -> [Float] {
        let centre = SIMD3<Float>(Float(box.centre.x), Float(box.centre.y), Float(box.centre.z))
        let half = SIMD3<Float>(Float(box.halfExtents.x), Float(box.halfExtents.y), Float(box.halfExtents.z))
        guard step > 0, simdLength(up) > 0.5 else { return [] }
        return views.indices.compactMap { v -> Float? in
            let view = views[v]
            // Image direction of "down" at the box's centre.
            let a = view.camera.cameraPoint(centre), b = view.camera.cameraPoint(centre - 0.01 * simdLength(half) * up)
            guard a.z > 0, b.z > 0 else { return nil }
            let down = view.camera.pixel(normalisedX: b.x / b.z, normalisedY: b.y / b.z)
                - view.camera.pixel(normalisedX: a.x / a.z, normalisedY: a.y / a.z)
            guard simdDot2(down, down) > 0 else { return nil }
            var lowest = -Float.infinity, pixel = SIMD2<Float>(0, 0)
            for y in 0..<view.height {
                for x in 0..<view.width where view.field[y * view.width + x] < 0 {
                    let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                    let along = simdDot2(p, down)
                    if along > lowest { lowest = along; pixel = p }
                }
            }
            guard lowest > -.infinity else { return nil }
            // One pixel up from the lowest: the lowest pixel's ray may just graze the foot's edge
            // and, past it, run under the object.
            pixel -= down / simdDot2(down, down).squareRoot()
            let ray = view.camera.normalisedRay(pixelX: pixel.x, pixelY: pixel.y)
            let world = view.camera.worldDirection(SIMD3(ray.x, ray.y, 1))
            let direction = world / simdLength(world)
            let origin = view.camera.centreInWorld
            // Where the ray crosses the box.
            var near: Float = 0, far = Float.infinity
            for axis in 0..<3 {
                let d = direction[axis], o = origin[axis], low = centre[axis] - half[axis], high = centre[axis] + half[axis]
                if abs(d) < 1e-12 {
                    if o < low || o > high { return nil }
                    continue
                }
                let t0 = (low - o) / d, t1 = (high - o) / d
                near = max(near, min(t0, t1))
                far = min(far, max(t0, t1))
            }
            guard near < far, far.isFinite else { return nil }
            // The exact outlines: slack would let the ray enter early, above the foot.
            func inside(_ t: Float) -> Bool {
                let hull = signedDistance(origin + t * direction, excluding: v, slack: 0)
                return hull.seenBy >= minViews && hull.distance <= 0
            }
            var outside = near, distance = near
            while distance <= far {
                if inside(distance) {
                    // The entry lies between the last point outside and this one.
                    var entered = distance
                    for _ in 0..<8 where entered > outside {
                        let middle = (outside + entered) / 2
                        if inside(middle) { entered = middle } else { outside = middle }
                    }
                    return simdDot(origin + entered * direction, up)
                }
                outside = distance
                distance += step
            }
            return nil
        }
    }

    /// The box enclosing the hull's points seen by at least `minViews` views, searched on a grid
    /// of about `samples` cells per axis over `region`; nil when none is inside, or when the
    /// hull reaches the region's edge (the views do not enclose the object there, so the hull
    /// says nothing about its extent).
    public func bounds(in region: BoundingBox, minViews: Int, samples: Int = 48) -> BoundingBox? {
        let lower = region.centre - region.halfExtents, size = 2 * region.halfExtents
        let n = max(4, samples)
        let cell = Vector3(size.x / Double(n), size.y / Double(n), size.z / Double(n))
        var low = Vector3(.infinity, .infinity, .infinity), high = -low
        var touchesEdge = false
        for k in 0..<n {
            for j in 0..<n {
                for i in 0..<n {
                    let centre = Vector3(lower.x + (Double(i) + 0.5) * cell.x, lower.y + (Double(j) + 0.5) * cell.y,
                                         lower.z + (Double(k) + 0.5) * cell.z)
                    let hull = signedDistance(SIMD3(Float(centre.x), Float(centre.y), Float(centre.z)))
                    guard hull.seenBy >= minViews, hull.distance <= 0 else { continue }
                    if i == 0 || j == 0 || k == 0 || i == n - 1 || j == n - 1 || k == n - 1 { touchesEdge = true }
                    low = Vector3(min(low.x, centre.x), min(low.y, centre.y), min(low.z, centre.z))
                    high = Vector3(max(high.x, centre.x), max(high.y, centre.y), max(high.z, centre.z))
                }
            }
        }
        guard low.x <= high.x, !touchesEdge else { return nil }
        // Half a cell to the cells' faces, one more for the grid's coarseness.
        let half = 0.5 * (high - low) + 1.5 * cell
        return BoundingBox(centre: 0.5 * (low + high), halfExtents: half)
    }
}
