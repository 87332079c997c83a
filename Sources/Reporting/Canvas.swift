import ReconstructionCore

/// A small raster canvas over an `RGBImage` for report plots: anti-aliased lines and circles,
/// rectangles with exact edge coverage, and bitmap text.
///
/// Coordinates are continuous pixels with the origin at the image's top-left corner, x right and
/// y down; pixel (i, j) covers [i, i+1) × [j, j+1), so its centre is (i + 0.5, j + 0.5). Shapes
/// are blended over the image by their coverage of each pixel (sRGB values mixed linearly).
public struct Canvas: Sendable {
    public private(set) var image: RGBImage

    public var width: Int { image.width }
    public var height: Int { image.height }

    /// A canvas of `width` × `height` pixels filled with `background`.
    public init(width: Int, height: Int, background: RGBColor = .white) {
        image = RGBImage(width: max(0, width), height: max(0, height),
                         fill: (background.red, background.green, background.blue))
    }

    /// The colour of pixel (`x`, `y`), or nil outside the image.
    public func color(x: Int, y: Int) -> RGBColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = 3 * (y * width + x)
        return RGBColor(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    /// Mixes `color` into pixel (`x`, `y`) with weight `coverage` (0...1); outside pixels are ignored.
    @inline(__always)
    public mutating func blend(x: Int, y: Int, _ color: RGBColor, coverage: Double) {
        guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
        let a = min(coverage, 1)
        let i = 3 * (y * width + x)
        image.pixels.withUnsafeMutableBufferPointer { p in
            p[i] = UInt8((Double(p[i]) * (1 - a) + Double(color.red) * a).rounded())
            p[i + 1] = UInt8((Double(p[i + 1]) * (1 - a) + Double(color.green) * a).rounded())
            p[i + 2] = UInt8((Double(p[i + 2]) * (1 - a) + Double(color.blue) * a).rounded())
        }
    }

    // MARK: - Lines

    /// A straight line of `width` pixels from `start` to `end` with round caps, anti-aliased.
    public mutating func drawLine(from start: SIMD2<Double>, to end: SIMD2<Double>, color: RGBColor,
                                  width lineWidth: Double = 1) {
        let half = max(lineWidth, 0.1) / 2
        let reach = half + 0.5  // coverage fades to zero half a pixel beyond the edge
        let d = end - start
        let length2 = (d * d).sum()
        let lowY = max(0, Int((min(start.y, end.y) - reach).rounded(.down)))
        let highY = min(height - 1, Int((max(start.y, end.y) + reach).rounded(.up)))
        let lowX = min(start.x, end.x) - reach, highX = max(start.x, end.x) + reach
        guard lowY <= highY else { return }
        for y in lowY...highY {
            let cy = Double(y) + 0.5
            // The x range of this row that can be within `reach` of the segment.
            var from = lowX, to = highX
            if abs(d.y) > 1e-9 {
                let t = (cy - start.y) / d.y
                let xAtRow = start.x + t * d.x
                let spread = reach * length2.squareRoot() / abs(d.y)
                from = max(from, xAtRow - spread)
                to = min(to, xAtRow + spread)
            }
            let firstX = max(0, Int(from.rounded(.down))), lastX = min(width - 1, Int(to.rounded(.up)))
            guard firstX <= lastX else { continue }
            for x in firstX...lastX {
                let p = SIMD2(Double(x) + 0.5, cy)
                var t = length2 > 0 ? ((p - start) * d).sum() / length2 : 0
                t = min(max(t, 0), 1)
                let q = start + d * t
                let distance = ((p - q) * (p - q)).sum().squareRoot()
                blend(x: x, y: y, color, coverage: reach - distance)
            }
        }
    }

    /// A dashed line: `dash` pixels drawn, `gap` pixels skipped, repeated from `start`.
    public mutating func drawDashedLine(from start: SIMD2<Double>, to end: SIMD2<Double>, color: RGBColor,
                                        width lineWidth: Double = 1, dash: Double = 6, gap: Double = 4) {
        let d = end - start
        let length = (d * d).sum().squareRoot()
        guard length > 0, dash > 0 else { return }
        let direction = d / length
        var s = 0.0
        while s < length {
            let e = min(s + dash, length)
            drawLine(from: start + direction * s, to: start + direction * e, color: color, width: lineWidth)
            s = e + max(gap, 0)
        }
    }

    // MARK: - Circles

    /// A disc of `radius` pixels around `centre`, anti-aliased.
    public mutating func fillCircle(centre: SIMD2<Double>, radius: Double, color: RGBColor) {
        coverCircle(centre: centre, outer: radius + 0.5, color: color) { distance in radius + 0.5 - distance }
    }

    /// A ring of `lineWidth` pixels centred on the circle of `radius` around `centre`, anti-aliased.
    public mutating func strokeCircle(centre: SIMD2<Double>, radius: Double, color: RGBColor,
                                      lineWidth: Double = 1) {
        let half = lineWidth / 2
        coverCircle(centre: centre, outer: radius + half + 0.5, color: color) { distance in
            half + 0.5 - abs(distance - radius)
        }
    }

    private mutating func coverCircle(centre: SIMD2<Double>, outer: Double, color: RGBColor,
                                      coverage: (Double) -> Double) {
        let lowX = max(0, Int((centre.x - outer).rounded(.down)))
        let highX = min(width - 1, Int((centre.x + outer).rounded(.up)))
        let lowY = max(0, Int((centre.y - outer).rounded(.down)))
        let highY = min(height - 1, Int((centre.y + outer).rounded(.up)))
        guard lowX <= highX, lowY <= highY else { return }
        for y in lowY...highY {
            for x in lowX...highX {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5) - centre
                blend(x: x, y: y, color, coverage: coverage(((p * p).sum()).squareRoot()))
            }
        }
    }

    // MARK: - Rectangles

    /// The axis-aligned rectangle from (`x`, `y`) of `width` × `height` pixels, each pixel
    /// covered by its exact overlap with the rectangle.
    public mutating func fillRectangle(x: Double, y: Double, width w: Double, height h: Double, color: RGBColor) {
        guard w > 0, h > 0 else { return }
        let x1 = x + w, y1 = y + h
        let lowX = max(0, Int(x.rounded(.down))), highX = min(width - 1, Int(x1.rounded(.up)) - 1)
        let lowY = max(0, Int(y.rounded(.down))), highY = min(height - 1, Int(y1.rounded(.up)) - 1)
        guard lowX <= highX, lowY <= highY else { return }
        for py in lowY...highY {
            let coverY = min(Double(py + 1), y1) - max(Double(py), y)
            for px in lowX...highX {
                let coverX = min(Double(px + 1), x1) - max(Double(px), x)
                blend(x: px, y: py, color, coverage: coverX * coverY)
            }
        }
    }

    /// The outline of a rectangle, `lineWidth` pixels wide, inside its edges.
    public mutating func strokeRectangle(x: Double, y: Double, width w: Double, height h: Double, color: RGBColor,
                                         lineWidth: Double = 1) {
        let t = min(lineWidth, w / 2, h / 2)
        fillRectangle(x: x, y: y, width: w, height: t, color: color)
        fillRectangle(x: x, y: y + h - t, width: w, height: t, color: color)
        fillRectangle(x: x, y: y + t, width: t, height: h - 2 * t, color: color)
        fillRectangle(x: x + w - t, y: y + t, width: t, height: h - 2 * t, color: color)
    }

    // MARK: - Text

    /// Reading direction of text.
    public enum TextDirection: Sendable {
        /// Left to right.
        case horizontal
        /// Bottom to top (rotated a quarter turn anticlockwise), for vertical axis labels.
        case upward
    }

    /// The size of `text` at `scale`, in pixels along and across its reading direction (capital
    /// height; descenders hang 2 × `scale` below).
    public static func textSize(_ text: String, scale: Int = 1) -> (length: Int, height: Int) {
        let (w, h) = BitmapFont.size(of: text)
        return (w * max(1, scale), h * max(1, scale))
    }

    /// Draws `text` with the built-in font, each font pixel a `scale` × `scale` block.
    ///
    /// `anchor` is the point (rounded to whole pixels) that lands on `position`, as fractions of
    /// the text's box in its own frame: (0, 0) its start at the top of the capitals, (0.5, 0.5)
    /// its centre, (1, 1) its end on the baseline.
    /// - Returns: the pixels the text's box covers (x, y, width, height), descenders included.
    @discardableResult
    public mutating func drawText(_ text: String, at position: SIMD2<Double>, anchor: SIMD2<Double> = .zero,
                                  scale: Int = 1, color: RGBColor = .text,
                                  direction: TextDirection = .horizontal) -> (x: Int, y: Int, width: Int, height: Int) {
        let s = max(1, scale)
        let (length, height) = Self.textSize(text, scale: s)
        // Offsets of the box's start (u) and top (v) from `position`, in the text's own frame.
        let u0 = Int((-anchor.x * Double(length)).rounded()), v0 = Int((-anchor.y * Double(height)).rounded())
        let px = Int(position.x.rounded()), py = Int(position.y.rounded())
        let fullHeight = BitmapFont.cellHeight * s
        for (index, character) in text.enumerated() {
            let rows = BitmapFont.rows(of: character)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for column in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - column)) != 0 {
                    let u = u0 + (index * BitmapFont.advance + column) * s, v = v0 + row * s
                    switch direction {
                    case .horizontal:
                        fillBlock(x: px + u, y: py + v, width: s, height: s, color: color)
                    case .upward:
                        fillBlock(x: px + v, y: py - u - s, width: s, height: s, color: color)
                    }
                }
            }
        }
        switch direction {
        case .horizontal: return (px + u0, py + v0, length, fullHeight)
        case .upward: return (px + v0, py - u0 - length, fullHeight, length)
        }
    }

    /// Sets a block of whole pixels (clipped to the image).
    private mutating func fillBlock(x: Int, y: Int, width w: Int, height h: Int, color: RGBColor) {
        let x0 = max(0, x), x1 = min(width, x + w), y0 = max(0, y), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 {
                let i = 3 * (yy * width + xx)
                image.pixels[i] = color.red
                image.pixels[i + 1] = color.green
                image.pixels[i + 2] = color.blue
            }
        }
    }
}
