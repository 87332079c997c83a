import Foundation
import Meshing
import ReconstructionCore

extension SurfaceReconstruction {
    /// The visual hull of `silhouettes`, or else of the masked inputs (one view per camera); nil
    /// unless the surface stage closes openings (an object capture) and enough views have a mask.
    func silhouetteHull(_ inputs: [DepthInput], silhouettes: [Silhouette]) -> SilhouetteHull? {
        guard options.fillsFromSilhouettes, closes(inputs, silhouettes: silhouettes) else { return nil }
        var masks = silhouettes.map { (mask: $0.mask, intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera) }
        if masks.isEmpty {
            var centres: [Vector3] = []
            for input in inputs {
                guard let mask = input.mask else { continue }
                let centre = input.worldFromCamera.translation
                // Stereo and LiDAR depth of one photo share its camera and mask.
                guard !centres.contains(where: { ($0 - centre).length <= 1e-9 * max(1, centre.length) }) else { continue }
                centres.append(centre)
                masks.append((mask, input.intrinsics, input.worldFromCamera))
            }
        }
        guard masks.count >= options.silhouetteMinimumViews else { return nil }
        let hull = SilhouetteHull(masks: masks)
        return hull.viewCount >= options.silhouetteMinimumViews ? hull : nil
    }

    /// The clouds without their points outside the hull: a scan takes in the floor and whatever
    /// surrounds the object, which the masks keep out of the depth maps. A point is left out when
    /// at least two photos see it off the object's silhouette by more than three point spacings
    /// (its footprint, when given), the sensor's noise (`SilhouetteHull.viewsSeeingOutside`): with
    /// correct masks one such photo shows a point is not the object, and asking for two keeps one
    /// mask's slip from costing object points. Points too few photos see are kept. Returns the
    /// clouds and how many points were left out.
    func insideHull(_ clouds: [PointInput], hull: SilhouetteHull) -> (clouds: [PointInput], leftOut: Int) {
        var leftOut = 0
        let kept = clouds.map { input -> PointInput in
            let tolerance = max(input.footprintRadius ?? 0, 3 * (input.cloud.medianSpacing() ?? 0))
            let positions = input.cloud.positions
            let chunk = 4096
            let keeps = parallelMap((positions.count + chunk - 1) / chunk, workers: options.workers) { c -> [Int] in
                (c * chunk..<min(positions.count, (c + 1) * chunk)).filter { hull.viewsSeeingOutside(positions[$0], margin: tolerance) < 2 }
            }.flatMap { $0 }
            leftOut += positions.count - keeps.count
            var copy = input
            copy.cloud = input.cloud.keeping(keeps)
            return copy
        }
        return (kept, leftOut)
    }

    private func hullBounds(_ hull: SilhouetteHull, in region: BoundingBox) -> BoundingBox? {
        hull.bounds(in: region, minViews: silhouetteViews(hull))
    }

    /// How many of the hull's views must see a point for the hull to count there.
    func silhouetteViews(_ hull: SilhouetteHull) -> Int {
        max(options.silhouetteMinimumViews, Int((options.silhouetteMinimumViewFraction * Double(hull.viewCount)).rounded(.up)))
    }

    /// `box` grown to enclose the hull found around it, in `box` scaled by 3, else by 6 (the
    /// depth may miss part of the object, the silhouettes show all of it); `box` itself when the
    /// hull is not closed within either region.
    func bounds(_ box: BoundingBox, grownToEnclose hull: SilhouetteHull) -> BoundingBox {
        let found = [3.0, 6.0].lazy.compactMap { scale in
            self.hullBounds(hull, in: BoundingBox(centre: box.centre, halfExtents: scale * box.halfExtents))
        }.first
        guard let enclosing = found else { return box }
        let low = Vector3(min(box.centre.x - box.halfExtents.x, enclosing.centre.x - enclosing.halfExtents.x),
                          min(box.centre.y - box.halfExtents.y, enclosing.centre.y - enclosing.halfExtents.y),
                          min(box.centre.z - box.halfExtents.z, enclosing.centre.z - enclosing.halfExtents.z))
        let high = Vector3(max(box.centre.x + box.halfExtents.x, enclosing.centre.x + enclosing.halfExtents.x),
                           max(box.centre.y + box.halfExtents.y, enclosing.centre.y + enclosing.halfExtents.y),
                           max(box.centre.z + box.halfExtents.z, enclosing.centre.z + enclosing.halfExtents.z))
        return BoundingBox(centre: 0.5 * (low + high), halfExtents: 0.5 * (high - low))
    }

    /// The support the object stands on from its silhouettes, when the depth shows none (no
    /// depth outside the masks): the plane across `up` at the lower quartile of the heights where
    /// each photo's lowest object pixel meets the other photos' hull
    /// (`SilhouetteHull.contactHeights`). Nil with fewer than three such contacts, or when that
    /// plane would cut into what the depth saw of the object.
    func silhouetteFloor(_ hull: SilhouetteHull, up: Vector3, inputs: [DepthInput], bounds: BoundingBox, voxelSize: Float) -> Plane? {
        guard up.length > 0 else { return nil }
        let u = SIMD3<Float>(Float(up.x), Float(up.y), Float(up.z)) / Float(up.length)
        let heights = hull.contactHeights(up: u, in: bounds, step: voxelSize, minViews: silhouetteViews(hull)).sorted()
        guard heights.count >= 3 else { return nil }
        // From high views the lowest pixel may lie on a bulge that hides the foot, which puts the
        // contact too high; the low views agree on the foot. The lower quartile keeps to those.
        let floor = heights[heights.count / 4]
        let object = Self.supportSamples(inputs, near: bounds).object.map { simdDot($0, u) }.sorted()
        if !object.isEmpty, floor > object[object.count / 50] + 2 * voxelSize { return nil }
        return Plane(normal: u, offset: floor)
    }

    /// Completes the object where no depth reached it with the hull's surface: unobserved voxels
    /// near the hull's boundary that fewer than two depth maps see past (a depth map that
    /// measured something farther along the voxel's ray shows it is empty), cut at the support
    /// plane when there is one (the object stands on it, so the hull's part beneath is outside).
    @discardableResult
    func fillFromSilhouettes(_ volume: inout TSDFVolume, hull: SilhouetteHull, inputs: [DepthInput], bounds: BoundingBox,
                             supportPlane: Plane?) -> Int {
        let freeSpace = Self.freeSpace(inputs, margin: volume.truncationDistance)
        let minViews = silhouetteViews(hull)
        let report = volume.fillUnobserved(signedDistance: { point in
            let hullDistance = hull.signedDistance(point)
            guard hullDistance.seenBy >= minViews else { return nil }
            guard let supportPlane else { return hullDistance.distance }
            return max(hullDistance.distance, -supportPlane.signedDistance(point))
        }, accepts: { !freeSpace.showsEmpty($0) }, in: bounds)
        // Depth near the object's foot reaches a little below the support; the hull stops at it.
        if let supportPlane { volume.clip(below: supportPlane) }
        return report.usedObservations
    }
}
