import Foundation
import ReconstructionCore

/// Measures on a camera frame what `CaptureSession` needs to guide the capture: brightness,
/// sharpness, texture, and how much of the object box is in view. Pure: pixels and poses in,
/// numbers out.
public struct FrameAnalyzer: Sendable {
    public struct Options: Sendable, Equatable {
        /// Frames are analysed reduced so that their longer side is at most this, pixels (decoded
        /// at 1/2, 1/4 or 1/8 size), so that the sharpness scale does not depend on the camera's
        /// resolution beyond that.
        public var maximumDimension = 640
        /// Side of the square cells in which sharpness and texture are measured, pixels at the
        /// analysis size.
        public var cellSize = 32
        /// Share (0…1] of the cells, the sharpest, whose sharpness is averaged into the frame's:
        /// blur shows in every cell, while an object on a plain background fills only some.
        public var sharpestCellShare = 0.1
        /// Largest gain (no unit) applied to bring a frame's mean grey to mid-grey before measuring
        /// sharpness, so that a dark but focused frame is not mistaken for a blurred one.
        public var maximumExposureGain = 8.0
        /// Least cell sharpness (same scale as `sharpness`) for a cell to count as textured.
        public var texturedCellSharpness = 100.0
        /// Sample points per box axis (n³ points in all) when measuring the box's fraction in view.
        public var boxSamplesPerAxis = 8

        public init() {}
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// The reduction (1, 2, 4 or 8) at which to decode a `width`×`height` frame.
    public func reduction(width: Int, height: Int) -> Int {
        var r = 1
        while r < 8 && max(width, height) / r > options.maximumDimension { r *= 2 }
        return r
    }

    /// Analyses `image` (the frame, possibly decoded reduced) taken with `intrinsics` (of the
    /// full-size frame) from `worldFromCamera`, against the object `box` if known.
    public func analyze(_ image: RGBImage, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform,
                        box: BoundingBox?) -> FrameAnalysis {
        let grey = Self.luma(image)
        let mean = grey.isEmpty ? 0 : grey.reduce(0, +) / Double(grey.count)
        let gain = min(options.maximumExposureGain, 127.5 / max(mean, 1e-3))
        let cells = cellSharpness(grey, width: image.width, height: image.height, gain: gain)
        let ranked = cells.map(\.sharpness).sorted(by: >)
        let kept = max(1, Int((options.sharpestCellShare * Double(ranked.count)).rounded(.up)))
        let sharpness = ranked.isEmpty ? 0 : ranked.prefix(kept).reduce(0, +) / Double(min(kept, ranked.count))

        var texture = 0.0
        var fraction: Double?
        if let box {
            let cameraFromWorld = worldFromCamera.inverse
            fraction = boxFractionInView(box, cameraFromWorld: cameraFromWorld, intrinsics: intrinsics)
            let scaled = intrinsics.scaled(toWidth: image.width, height: image.height)
            if let outline = Self.outline(of: box, cameraFromWorld: cameraFromWorld, intrinsics: scaled) {
                let inside = cells.filter { outline.minX <= $0.centreX && $0.centreX <= outline.maxX
                    && outline.minY <= $0.centreY && $0.centreY <= outline.maxY }
                if !inside.isEmpty {
                    texture = Double(inside.filter { $0.sharpness >= options.texturedCellSharpness }.count) / Double(inside.count)
                }
            }
        }
        return FrameAnalysis(meanLuminance: mean / 255, sharpness: sharpness, textureScore: texture, boxFractionInView: fraction)
    }

    /// Fraction of `box`'s volume (n³ evenly spaced points) in front of the camera and inside the image.
    public func boxFractionInView(_ box: BoundingBox, cameraFromWorld: RigidTransform, intrinsics: CameraIntrinsics) -> Double {
        let n = max(1, options.boxSamplesPerAxis)
        var inside = 0
        for i in 0..<n {
            for j in 0..<n {
                for k in 0..<n {
                    let t = Vector3((Double(i) + 0.5) / Double(n), (Double(j) + 0.5) / Double(n), (Double(k) + 0.5) / Double(n))
                    let point = box.centre + Vector3((2 * t.x - 1) * box.halfExtents.x, (2 * t.y - 1) * box.halfExtents.y,
                                                     (2 * t.z - 1) * box.halfExtents.z)
                    guard let pixel = intrinsics.project(cameraFromWorld.apply(point)) else { continue }
                    if pixel.x >= 0, pixel.y >= 0, pixel.x < Double(intrinsics.width), pixel.y < Double(intrinsics.height) { inside += 1 }
                }
            }
        }
        return Double(inside) / Double(n * n * n)
    }

    /// Per cell: its centre (pixels) and the variance of the 4-neighbour Laplacian of `gain` × grey.
    func cellSharpness(_ grey: [Double], width: Int, height: Int, gain: Double)
        -> [(centreX: Double, centreY: Double, sharpness: Double)] {
        let size = max(4, options.cellSize)
        guard width >= 3, height >= 3 else { return [] }
        let columns = max(1, width / size), rows = max(1, height / size)
        var result: [(Double, Double, Double)] = []
        result.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let x0 = max(1, column * width / columns), x1 = min(width - 1, (column + 1) * width / columns)
                let y0 = max(1, row * height / rows), y1 = min(height - 1, (row + 1) * height / rows)
                var sum = 0.0, sumSquares = 0.0, count = 0.0
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let k = y * width + x
                        let laplacian = 4 * grey[k] - grey[k - 1] - grey[k + 1] - grey[k - width] - grey[k + width]
                        sum += laplacian
                        sumSquares += laplacian * laplacian
                        count += 1
                    }
                }
                guard count > 1 else { continue }
                let variance = max(0, sumSquares / count - (sum / count) * (sum / count))
                result.append((Double(x0 + x1) / 2, Double(y0 + y1) / 2, variance * gain * gain))
            }
        }
        return result
    }

    /// Rec. 709 luma of the sRGB-encoded bytes, 0…255.
    static func luma(_ image: RGBImage) -> [Double] {
        let p = image.pixels
        return (0..<(image.width * image.height)).map { (i: Int) -> Double in
            let r = Double(p[3 * i]), g = Double(p[3 * i + 1]), b = Double(p[3 * i + 2])
            return 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
    }

    /// The image rectangle (pixels) around the projections of the box's corners in front of the camera.
    static func outline(of box: BoundingBox, cameraFromWorld: RigidTransform, intrinsics: CameraIntrinsics)
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for corner in 0..<8 {
            let h = box.halfExtents
            let point = box.centre + Vector3(corner & 1 == 0 ? -h.x : h.x, corner & 2 == 0 ? -h.y : h.y, corner & 4 == 0 ? -h.z : h.z)
            guard let pixel = intrinsics.project(cameraFromWorld.apply(point)) else { continue }
            minX = min(minX, pixel.x)
            minY = min(minY, pixel.y)
            maxX = max(maxX, pixel.x)
            maxY = max(maxY, pixel.y)
        }
        return minX <= maxX ? (minX, minY, maxX, maxY) : nil
    }
}
