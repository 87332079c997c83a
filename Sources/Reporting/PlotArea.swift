/// The data rectangle of a plot inside its image: where data coordinates land in pixels.
/// Horizontal values grow to the right, vertical values grow upwards.
public struct PlotArea: Equatable, Sendable {
    /// Left edge of the data rectangle, in pixels from the image's left.
    public var left: Double
    /// Top edge of the data rectangle, in pixels from the image's top.
    public var top: Double
    /// Width of the data rectangle, in pixels.
    public var width: Double
    /// Height of the data rectangle, in pixels.
    public var height: Double
    public var horizontal: AxisScale
    public var vertical: AxisScale

    public init(left: Double, top: Double, width: Double, height: Double, horizontal: AxisScale,
                vertical: AxisScale) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// The pixel position (continuous coordinates) of the data point (`h`, `v`).
    public func pixel(_ h: Double, _ v: Double) -> SIMD2<Double> {
        SIMD2(left + horizontal.fraction(h) * width, top + (1 - vertical.fraction(v)) * height)
    }

    var right: Double { left + width }
    var bottom: Double { top + height }

    /// Grid lines at the ticks, the frame, tick marks and tick labels.
    func drawAxes(on canvas: inout Canvas, textScale: Int) {
        let gap = Double(3 * textScale)
        for t in horizontal.ticks {
            let x = pixel(t, vertical.lower).x.rounded() + 0.5
            canvas.drawLine(from: [x, top], to: [x, bottom], color: .grid)
            canvas.drawLine(from: [x, bottom], to: [x, bottom + gap], color: .axis)
            canvas.drawText(horizontal.label(t), at: [x, bottom + 2 * gap], anchor: [0.5, 0], scale: textScale)
        }
        for t in vertical.ticks {
            let y = pixel(horizontal.lower, t).y.rounded() + 0.5
            canvas.drawLine(from: [left, y], to: [right, y], color: .grid)
            canvas.drawLine(from: [left - gap, y], to: [left, y], color: .axis)
            canvas.drawText(vertical.label(t), at: [left - 2 * gap, y], anchor: [1, 0.5], scale: textScale)
        }
        canvas.strokeRectangle(x: left.rounded(), y: top.rounded(), width: width.rounded() + 1,
                               height: height.rounded() + 1, color: .axis)
    }

    /// Axis titles: `horizontalLabel` centred below the tick labels, `verticalLabel` upward at the
    /// image's left edge.
    func drawAxisLabels(on canvas: inout Canvas, horizontalLabel: String, verticalLabel: String, textScale: Int) {
        let tickLabelHeight = Double(Canvas.textSize("0", scale: textScale).height)
        canvas.drawText(horizontalLabel, at: [left + width / 2, bottom + 6 * Double(textScale) + tickLabelHeight + 10],
                        anchor: [0.5, 0], scale: textScale)
        canvas.drawText(verticalLabel, at: [Double(4 * textScale) + 4, top + height / 2], anchor: [0.5, 0],
                        scale: textScale, direction: .upward)
    }

    /// Pixels needed left of the data rectangle for the vertical tick labels and the axis title.
    static func leftMargin(for vertical: AxisScale, textScale: Int) -> Double {
        let widest = vertical.ticks.map { Canvas.textSize(vertical.label($0), scale: textScale).length }.max() ?? 0
        return Double(widest) + Double(6 * textScale) + Double(9 * textScale) + 16
    }

    /// Pixels needed right of the data rectangle for half the last horizontal tick label.
    static func rightMargin(for horizontal: AxisScale, textScale: Int) -> Double {
        let last = horizontal.ticks.last.map { Canvas.textSize(horizontal.label($0), scale: textScale).length } ?? 0
        return max(24, Double(last) / 2 + 10)
    }

    /// Draws `title` centred at the top of the canvas at `scale`, or smaller (down to 1) when it
    /// would not fit; text that does not fit even then is cut with "...".
    static func drawTitle(_ title: String, on canvas: inout Canvas, scale: Int) {
        let room = canvas.width - 16
        var s = max(1, scale)
        while s > 1 && Canvas.textSize(title, scale: s).length > room { s -= 1 }
        var text = title
        while text.count > 3 && Canvas.textSize(text, scale: s).length > room {
            text = String(text.dropLast(4)) + "..."
        }
        canvas.drawText(text, at: [Double(canvas.width) / 2, 12], anchor: [0.5, 0], scale: s)
    }

    /// Pixels needed below the data rectangle for tick labels and the axis title.
    static func bottomMargin(textScale: Int) -> Double {
        Double(6 * textScale) + 2 * Double(9 * textScale) + 18
    }
}
