import ReconstructionCore

/// A histogram of values (position errors in mm, rotation errors in degrees, surface distances…)
/// with labelled axes, the count above each bar, an optional threshold marker and a summary
/// line (n, median, max).
public enum HistogramPlot {
    /// Bin edges and counts.
    public struct Bins: Sendable, Equatable {
        /// `counts.count + 1` increasing edges; bin i holds values in [edges[i], edges[i+1]),
        /// the last bin also its upper edge.
        public var edges: [Double]
        public var counts: [Int]
        /// Finite values outside the range, not counted in any bin.
        public var outsideCount: Int
    }

    public struct Options: Sendable, Equatable {
        /// Image width, in pixels.
        public var width = 800
        /// Image height, in pixels.
        public var height = 600
        public var title = "Histogram"
        /// Horizontal axis title, with the unit, e.g. "position error (mm)".
        public var valueLabel = "value"
        /// Vertical axis title.
        public var countLabel = "count"
        /// Number of bins; nil picks nice-width bins, about √n of them (5 to 30).
        public var binCount: Int?
        /// Range of the bins; nil spans 0 (or the smallest value if negative) to the largest.
        public var range: ClosedRange<Double>?
        /// Draws a dashed marker line at this value (e.g. a pass threshold).
        public var threshold: Double?
        /// Text beside the marker; nil gives "threshold <value>".
        public var thresholdLabel: String?
        public var barColor = RGBColor.mutedBlue
        /// Font scale of labels (the title is one step larger).
        public var textScale = 2

        public init() {}
    }

    /// The bins `render` draws for `values` (non-finite values are ignored).
    public static func bins(_ values: [Double], options: Options = Options()) -> Bins {
        let finite = values.filter(\.isFinite)
        let edges: [Double]
        if let range = options.range, let count = options.binCount, count > 0, range.upperBound > range.lowerBound {
            let width = (range.upperBound - range.lowerBound) / Double(count)
            edges = (0...count).map { range.lowerBound + Double($0) * width }
        } else {
            let lo = options.range?.lowerBound ?? min(0, finite.min() ?? 0)
            var hi = options.range?.upperBound ?? (finite.max() ?? 1)
            if hi <= lo { hi = lo + 1 }
            let target = options.binCount ?? min(30, max(5, Int(Double(finite.count).squareRoot().rounded(.up))))
            let width = AxisScale.niceStep(atLeast: (hi - lo) / Double(max(1, target)))
            let start = (lo / width).rounded(.down) * width
            var count = max(1, Int(((hi - start) / width).rounded(.up)))
            if start + Double(count) * width < hi { count += 1 }
            edges = (0...count).map { start + Double($0) * width }
        }
        var counts = [Int](repeating: 0, count: edges.count - 1)
        var outside = 0
        let lower = options.range?.lowerBound ?? edges[0], upper = options.range?.upperBound ?? edges[edges.count - 1]
        for value in finite {
            guard value >= lower, value <= upper else {
                outside += 1
                continue
            }
            // Binary search for the last edge ≤ value.
            var lo = 0, hi = counts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if edges[mid] <= value { lo = mid } else { hi = mid - 1 }
            }
            counts[lo] += 1
        }
        return Bins(edges: edges, counts: counts, outsideCount: outside)
    }

    /// Where the data lands in an image rendered with the same values and options: horizontal in
    /// value units, vertical in counts.
    public static func plotArea(_ values: [Double], options: Options = Options()) -> PlotArea {
        area(for: bins(values, options: options), options: options)
    }

    /// The histogram as an image of `options.width` × `options.height` pixels.
    public static func render(_ values: [Double], options: Options = Options()) -> RGBImage {
        let histogram = bins(values, options: options)
        let area = area(for: histogram, options: options)
        let s = max(1, options.textScale)
        var canvas = Canvas(width: options.width, height: options.height)
        area.drawAxes(on: &canvas, textScale: s)
        area.drawAxisLabels(on: &canvas, horizontalLabel: options.valueLabel, verticalLabel: options.countLabel,
                            textScale: s)
        PlotArea.drawTitle(options.title, on: &canvas, scale: s + 1)

        // One size for every count label: the largest at which they all fit over their bars.
        let barWidth = area.width / Double(max(1, histogram.counts.count))
        let widestCount = histogram.counts.map { Canvas.textSize("\($0)", scale: 1).length }.max() ?? 0
        let countScale = (1...s).reversed().first { Double(widestCount * $0) <= barWidth + 2 } ?? 1
        for (i, count) in histogram.counts.enumerated() where count > 0 {
            let bottomLeft = area.pixel(histogram.edges[i], 0), topRight = area.pixel(histogram.edges[i + 1], Double(count))
            let width = topRight.x - bottomLeft.x
            let gap = width > 4 ? 1.0 : 0
            canvas.fillRectangle(x: bottomLeft.x + gap, y: topRight.y, width: width - 2 * gap,
                                 height: bottomLeft.y - topRight.y, color: options.barColor)
            let label = "\(count)"
            if Double(Canvas.textSize(label, scale: countScale).length) <= width + 2 {
                canvas.drawText(label, at: [(bottomLeft.x + topRight.x) / 2, topRight.y - 4], anchor: [0.5, 1],
                                scale: countScale)
            }
        }
        if let threshold = options.threshold, threshold.isFinite,
           threshold >= area.horizontal.lower, threshold <= area.horizontal.upper {
            let x = area.pixel(threshold, 0).x
            canvas.drawDashedLine(from: [x, area.bottom], to: [x, area.top], color: .mutedRed, width: 2)
            let text = options.thresholdLabel ?? "threshold \(area.horizontal.label(threshold))"
            let length = Double(Canvas.textSize(text, scale: s).length)
            let rightSide = x + 6 + length <= area.right
            canvas.drawText(text, at: [rightSide ? x + 6 : x - 6, area.top + 6], anchor: [rightSide ? 0 : 1, 0],
                            scale: s, color: .mutedRed)
        }
        drawSummary(values, histogram: histogram, on: &canvas, y: 12 + Double(9 * (s + 1)) + 10, options: options)
        return canvas.image
    }

    private static func area(for histogram: Bins, options: Options) -> PlotArea {
        let s = max(1, options.textScale)
        let horizontal = AxisScale(
            lower: histogram.edges[0], upper: histogram.edges[histogram.edges.count - 1],
            step: AxisScale.niceStep(atLeast: (histogram.edges[histogram.edges.count - 1] - histogram.edges[0]) / 8))
        let highest = Double(histogram.counts.max() ?? 0)
        var vertical = AxisScale.nice(0, max(1, highest * 1.08), targetTicks: 5)
        vertical.step = max(1, vertical.step.rounded(.up))
        vertical.upper = (vertical.upper / vertical.step).rounded(.up) * vertical.step
        let top = 12 + Double(9 * (s + 1)) + 10 + Double(9 * s) + 16
        let left = PlotArea.leftMargin(for: vertical, textScale: s)
        let bottom = PlotArea.bottomMargin(textScale: s)
        let right = PlotArea.rightMargin(for: horizontal, textScale: s)
        return PlotArea(left: left, top: top, width: max(10, Double(options.width) - left - right),
                        height: max(10, Double(options.height) - top - bottom), horizontal: horizontal,
                        vertical: vertical)
    }

    private static func drawSummary(_ values: [Double], histogram: Bins, on canvas: inout Canvas, y: Double,
                                    options: Options) {
        let finite = values.filter(\.isFinite).sorted()
        guard !finite.isEmpty else {
            canvas.drawText("no values", at: [Double(options.width) / 2, y], anchor: [0.5, 0],
                            scale: options.textScale, color: .axis)
            return
        }
        let mid = finite.count / 2
        let median = finite.count % 2 == 1 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2
        var text = "n = \(finite.count)   median \(NumberText.significant(median))   "
            + "max \(NumberText.significant(finite[finite.count - 1]))"
        if histogram.outsideCount > 0 { text += "   (\(histogram.outsideCount) outside the range)" }
        canvas.drawText(text, at: [Double(options.width) / 2, y], anchor: [0.5, 0], scale: options.textScale,
                        color: .axis)
    }
}
