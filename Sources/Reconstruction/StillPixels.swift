import ReconstructionCore

/// Pixels that show the same texture at the same place in a photo and in its stereo neighbours:
/// whatever they show is fixed to the camera, not to the scene (the backdrop of a turntable
/// capture). Stereo leaves them out. Matched there, they give depths where the neighbours' rays
/// happen to cross, which no surface has. The pixel-level counterpart of the still matches
/// `PairVerifier` drops.
///
/// A pixel is still when, over the window around it, its photo and at least
/// `minAgreeingSources` of its neighbours (photos of the same size and intrinsics) correlate at
/// `minCorrelation` or more with both windows textured. Two photos of a scene from different
/// places rarely show one texture at one place. A repeated texture whose period matches one
/// neighbour's disparity can, so one neighbour alone never marks a pixel. And the still pixels
/// must cover a quarter of the photo (`minStillFraction`).
public struct StillPixels: Sendable {
    public struct Options: Sendable, Equatable {
        /// Look for still pixels at all.
        public var enabled = true
        /// Half the side of the correlation window, pixels.
        public var windowRadius = 3
        /// Normalised cross-correlation at which two windows are the same texture.
        public var minCorrelation = 0.9
        /// Standard deviation of grey levels (0–255) both windows need: flat areas (sky, a
        /// plain wall) look the same anywhere and tell nothing.
        public var minTexture = 4.0
        /// Neighbours that must show the same texture at the pixel.
        public var minAgreeingSources = 2
        /// How much the window's texture must run in two directions (`pinnedWindows`): the smaller
        /// eigenvalue of its gradients' structure tensor over the larger, 0–1.
        public var minTwoWayRatio = 0.1
        /// Still regions smaller than this fraction of the image are dropped: a backdrop is one
        /// large region, while a few windows of a scene that happen to look alike are specks.
        public var minRegionFraction = 0.001
        /// Pixels are left out only when at least this fraction of the photo is still: something
        /// fixed to the camera that dominates the frame. A scene can look still over a patch of
        /// its own: where cameras all aim at one point of a surface, the surface around that
        /// point keeps its place in every photo (its disparity grows with the square of the
        /// distance from the point), over up to a tenth of the photo when the neighbours are a
        /// few degrees apart.
        public var minStillFraction = 0.25
        public init() {}
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// 255 where `reference` is still against `sources` (images of its size), else 0; nil when
    /// fewer than `minAgreeingSources` sources have its size, or the still pixels cover less than
    /// `minStillFraction` of it.
    public func mask(reference: GrayImage, sources: [GrayImage]) -> GrayImage? {
        let width = reference.width, height = reference.height
        let comparable = sources.filter { $0.width == width && $0.height == height }
        guard options.enabled, options.minAgreeingSources > 0, comparable.count >= options.minAgreeingSources else { return nil }
        let ref = reference.pixels
        let pinned = pinnedWindows(reference)
        // Still pixels are pinned ones: too few of those, and the neighbours need not be read.
        let minStill = options.minStillFraction * Double(width * height)
        guard Double(pinned.reduce(0) { $0 + ($1 ? 1 : 0) }) >= minStill else { return nil }
        let a = SummedArea(width: width, height: height) { Int(ref[$0]) }
        let aa = SummedArea(width: width, height: height) { Int(ref[$0]) * Int(ref[$0]) }
        let minVariance = options.minTexture * options.minTexture
        var agreeing = [UInt8](repeating: 0, count: width * height)
        for source in comparable {
            let src = source.pixels
            let b = SummedArea(width: width, height: height) { Int(src[$0]) }
            let bb = SummedArea(width: width, height: height) { Int(src[$0]) * Int(src[$0]) }
            let ab = SummedArea(width: width, height: height) { Int(ref[$0]) * Int(src[$0]) }
            for y in 0..<height {
                for x in 0..<width where pinned[y * width + x] {
                    let w = window(x, y, width: width, height: height)
                    let n = Double((w.y1 - w.y0) * (w.x1 - w.x0))
                    let sa = Double(a.sum(w)), sb = Double(b.sum(w))
                    let varA = Double(aa.sum(w)) - sa * sa / n, varB = Double(bb.sum(w)) - sb * sb / n
                    guard varA >= minVariance * n, varB >= minVariance * n else { continue }
                    let covariance = Double(ab.sum(w)) - sa * sb / n
                    if covariance >= options.minCorrelation * (varA * varB).squareRoot() { agreeing[y * width + x] &+= 1 }
                }
            }
        }
        let still = GrayImage(width: width, height: height,
                              pixels: agreeing.map { Int($0) >= options.minAgreeingSources ? 255 : 0 })
            .keepingComponents(ofAtLeast: Int((options.minRegionFraction * Double(width * height)).rounded(.up)))
        let count = still.pixels.reduce(0) { $0 + ($1 != 0 ? 1 : 0) }
        return count > 0 && Double(count) >= minStill ? still : nil
    }

    /// Per pixel, whether its window's texture runs in two directions: the smaller eigenvalue of
    /// the gradients' structure tensor at least `minTwoWayRatio` of the larger. An edge looks the
    /// same after any move along it, so where it lies along the neighbours' motion it would seem
    /// still in all of them; only texture in two directions pins a place.
    func pinnedWindows(_ image: GrayImage) -> [Bool] {
        let width = image.width, height = image.height, p = image.pixels
        var gx = [Int](repeating: 0, count: width * height), gy = gx
        for y in 0..<height {
            for x in 0..<width {
                gx[y * width + x] = Int(p[y * width + min(width - 1, x + 1)]) - Int(p[y * width + max(0, x - 1)])
                gy[y * width + x] = Int(p[min(height - 1, y + 1) * width + x]) - Int(p[max(0, y - 1) * width + x])
            }
        }
        let xx = SummedArea(width: width, height: height) { gx[$0] * gx[$0] }
        let yy = SummedArea(width: width, height: height) { gy[$0] * gy[$0] }
        let xy = SummedArea(width: width, height: height) { gx[$0] * gy[$0] }
        var pinned = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let w = window(x, y, width: width, height: height)
                let a = Double(xx.sum(w)), b = Double(yy.sum(w)), c = Double(xy.sum(w))
                let mean = (a + b) / 2, spread = (((a - b) / 2) * ((a - b) / 2) + c * c).squareRoot()
                pinned[y * width + x] = mean > 0 && mean - spread >= options.minTwoWayRatio * (mean + spread)
            }
        }
        return pinned
    }

    /// The correlation window around (x, y), cut at the image's border: columns `x0..<x1`, rows `y0..<y1`.
    func window(_ x: Int, _ y: Int, width: Int, height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let r = options.windowRadius
        return (max(0, x - r), max(0, y - r), min(width, x + r + 1), min(height, y + r + 1))
    }

    /// A summed-area table: sums of per-pixel values over any box in constant time.
    struct SummedArea {
        let width: Int
        /// (width + 1) × (height + 1) running sums.
        var table: [Int]

        init(width: Int, height: Int, value: (Int) -> Int) {
            self.width = width
            let stride = width + 1
            table = [Int](repeating: 0, count: stride * (height + 1))
            for y in 0..<height {
                var row = 0
                for x in 0..<width {
                    row += value(y * width + x)
                    table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row
                }
            }
        }

        /// Sum over columns `x0..<x1`, rows `y0..<y1`.
        func sum(_ w: (x0: Int, y0: Int, x1: Int, y1: Int)) -> Int {
            let stride = width + 1
            return table[w.y1 * stride + w.x1] - table[w.y0 * stride + w.x1] - table[w.y1 * stride + w.x0] + table[w.y0 * stride + w.x0]
        }
    }
}
