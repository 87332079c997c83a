import Foundation
import ReconstructionCore

/// Fuses per-view depth maps into one oriented, coloured point cloud. A pixel's 3D point is kept
/// when enough views see the same surface there (depth within a relative tolerance, normals within
/// an angle, reprojection within a pixel radius); the agreeing pixels of all those views merge into
/// one point (mean position, normal and colour) and are not used again.
public struct DepthMapFusion: Sendable {
    public struct Options: Sendable, Equatable {
        /// Views (the reference included) that must agree for a point to be kept.
        public var minViews = 3
        /// Largest relative depth difference between a point and another view's depth there.
        public var maxRelativeDepthDifference: Float = 0.01
        /// Largest angle between the normals of agreeing pixels, degrees (ignored without normals).
        public var maxNormalAngleDegrees: Float = 20
        /// Largest reprojection error of another view's point back into the reference, pixels.
        public var maxReprojectionErrorPixels: Float = 2
        /// Pixels whose confidence is below this are not fused (when confidences are given).
        public var minConfidence: Float = 0
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Fuses `views`; each view is checked against its `neighbours` and the views that list it
    /// as a neighbour (every other view when no view lists any). Colours come from the views'
    /// images when all have one; normals when all have them.
    public func fuse(_ views: [ViewDepth]) -> PointCloud {
        let projectors = views.map { PinholeProjector(intrinsics: $0.intrinsics, worldFromCamera: $0.worldFromCamera) }
        let related = Self.relatedViews(views)
        let withNormals = views.allSatisfy { $0.normalsInCamera.count == $0.depth.metres.count }
        let withColours = views.allSatisfy { view in
            view.image.map { $0.width == view.depth.width && $0.height == view.depth.height } ?? false
        }
        // Normals in world axes, once per pixel.
        let worldNormals: [[SIMD3<Float>]] = withNormals
            ? views.indices.map { v in views[v].normalsInCamera.map { projectors[v].directionToWorld($0) } } : []
        var used = views.map { [Bool](repeating: false, count: $0.depth.metres.count) }
        let minCosine = cos(options.maxNormalAngleDegrees * Float.pi / 180)
        let maxError2 = options.maxReprojectionErrorPixels * options.maxReprojectionErrorPixels

        var cloud = PointCloud()
        // One agreeing pixel: its view and index.
        var agreeing: [(view: Int, pixel: Int)] = []
        for v in views.indices {
            let view = views[v]
            let reference = projectors[v]
            let width = view.depth.width, height = view.depth.height
            let usesConfidence = view.confidence.count == width * height && options.minConfidence > 0
            for row in 0..<height {
                for column in 0..<width {
                    let i = row * width + column
                    let d = view.depth.metres[i]
                    guard d > 0, !used[v][i] else { continue }
                    if usesConfidence, view.confidence[i] < options.minConfidence { continue }
                    let world = reference.toWorld(reference.backProject(column: column, row: row, depth: d))
                    let pixel = SIMD2<Float>(Float(column) + 0.5, Float(row) + 0.5)
                    agreeing.removeAll(keepingCapacity: true)
                    agreeing.append((v, i))
                    for other in related[v] {
                        let projector = projectors[other]
                        let inOther = projector.toCamera(world)
                        guard let q = projector.project(inOther), let j = projector.pixelIndex(q), !used[other][j] else { continue }
                        let dj = views[other].depth.metres[j]
                        guard dj > 0, abs(dj - inOther.z) <= options.maxRelativeDepthDifference * inOther.z else { continue }
                        if withNormals, (worldNormals[v][i] * worldNormals[other][j]).sum() < minCosine { continue }
                        let back = reference.toCamera(projector.toWorld(projector.backProject(x: q.x, y: q.y, depth: dj)))
                        guard let p = reference.project(back) else { continue }
                        let e = p - pixel
                        guard (e * e).sum() <= maxError2 else { continue }
                        agreeing.append((other, j))
                    }
                    guard agreeing.count >= options.minViews else { continue }
                    var position = SIMD3<Float>.zero, normal = SIMD3<Float>.zero, colour = SIMD3<Float>.zero
                    for (w, j) in agreeing {
                        used[w][j] = true
                        let projector = projectors[w]
                        let width = views[w].depth.width
                        position += projector.toWorld(projector.backProject(column: j % width, row: j / width,
                                                                            depth: views[w].depth.metres[j]))
                        if withNormals { normal += worldNormals[w][j] }
                        if withColours, let image = views[w].image {
                            colour += SIMD3(Float(image.pixels[3 * j]), Float(image.pixels[3 * j + 1]),
                                            Float(image.pixels[3 * j + 2])) / 255
                        }
                    }
                    let n = Float(agreeing.count)
                    cloud.positions.append(position / n)
                    if withNormals {
                        let length = (normal * normal).sum().squareRoot()
                        cloud.normals.append(length > 0 ? normal / length : worldNormals[v][i])
                    }
                    if withColours { cloud.colors.append(colour / n) }
                }
            }
        }
        return cloud
    }

    /// For each view, its neighbours and the views that list it, without itself; every other view
    /// when no view has neighbours.
    static func relatedViews(_ views: [ViewDepth]) -> [[Int]] {
        guard views.contains(where: { !$0.neighbours.isEmpty }) else {
            return views.indices.map { v in views.indices.filter { $0 != v } }
        }
        var related = views.map { Set($0.neighbours.filter { views.indices.contains($0) }) }
        for v in views.indices {
            for n in views[v].neighbours where views.indices.contains(n) { related[n].insert(v) }
        }
        return related.indices.map { v in related[v].subtracting([v]).sorted() }
    }
}
