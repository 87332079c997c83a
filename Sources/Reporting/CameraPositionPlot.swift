import ReconstructionCore

/// Estimated against true camera positions seen from above or from the side: true positions as
/// hollow circles, estimates as filled dots, a line joining each pair, equal metres per pixel on
/// both axes, tick labels in metres and a legend.
public enum CameraPositionPlot {
    /// One camera: its true centre and, when registered, its estimated centre already aligned to
    /// the ground truth's frame (both in metres, world coordinates).
    public struct Camera: Sendable, Equatable {
        public var name: String
        public var truePosition: Vector3
        /// Nil when the camera was not registered.
        public var estimatedPosition: Vector3?

        public init(name: String, truePosition: Vector3, estimatedPosition: Vector3?) {
            self.name = name
            self.truePosition = truePosition
            self.estimatedPosition = estimatedPosition
        }
    }

    /// Which two world axes the plot shows.
    public struct View: Sendable, Equatable {
        /// World axis (0 = x, 1 = y, 2 = z) drawn left to right.
        public var horizontalAxis: Int
        /// World axis drawn bottom to top.
        public var verticalAxis: Int
        /// Name used in the default title, e.g. "top view".
        public var name: String

        public init(horizontalAxis: Int, verticalAxis: Int, name: String) {
            self.horizontalAxis = min(max(horizontalAxis, 0), 2)
            self.verticalAxis = min(max(verticalAxis, 0), 2)
            self.name = name
        }

        /// World x to the right, y up the image.
        public static let top = View(horizontalAxis: 0, verticalAxis: 1, name: "top view")
        /// World x to the right, z up the image.
        public static let side = View(horizontalAxis: 0, verticalAxis: 2, name: "side view")
        /// World y to the right, z up the image.
        public static let front = View(horizontalAxis: 1, verticalAxis: 2, name: "front view")
    }

    public struct Options: Sendable, Equatable {
        /// Image width, in pixels.
        public var width = 800
        /// Image height, in pixels.
        public var height = 600
        public var view = View.top
        /// Title; nil gives "Camera positions: <view> (x, y)".
        public var title: String?
        /// Estimates are drawn at true + `errorScale` × (estimate − true), to make small errors
        /// visible; the legend states the factor when it is not 1.
        public var errorScale = 1.0
        /// Write each camera's name beside its true position.
        public var showNames = false
        /// Font scale of labels (the title is one step larger).
        public var textScale = 2

        public init() {}
    }

    static let axisNames = ["x", "y", "z"]
    static let trueColor = RGBColor.mutedBlue
    static let estimateColor = RGBColor.mutedOrange
    static let missingColor = RGBColor.mutedRed
    static let pairColor = RGBColor.mutedGrey
    /// Radius of the hollow circle, in pixels.
    static let trueRadius = 6.0
    /// Radius of the filled dot, in pixels.
    static let estimateRadius = 3.5

    /// The plot as an image of `options.width` × `options.height` pixels.
    public static func render(_ cameras: [Camera], options: Options = Options()) -> RGBImage {
        let area = plotArea(cameras, options: options)
        var canvas = Canvas(width: options.width, height: options.height)
        let s = max(1, options.textScale)
        area.drawAxes(on: &canvas, textScale: s)
        let h = options.view.horizontalAxis, v = options.view.verticalAxis
        area.drawAxisLabels(on: &canvas, horizontalLabel: "\(axisNames[h]) (m)", verticalLabel: "\(axisNames[v]) (m)",
                            textScale: s)
        let title = options.title ?? "Camera positions: \(options.view.name) (\(axisNames[h]), \(axisNames[v]))"
        PlotArea.drawTitle(title, on: &canvas, scale: s + 1)

        for camera in cameras {
            let truth = area.pixel(component(camera.truePosition, h), component(camera.truePosition, v))
            if let drawn = drawnEstimate(camera, errorScale: options.errorScale) {
                let estimate = area.pixel(component(drawn, h), component(drawn, v))
                canvas.drawLine(from: truth, to: estimate, color: pairColor, width: 1.5)
                canvas.fillCircle(centre: estimate, radius: estimateRadius, color: estimateColor)
                canvas.strokeCircle(centre: truth, radius: trueRadius, color: trueColor, lineWidth: 2)
            } else {
                canvas.strokeCircle(centre: truth, radius: trueRadius, color: missingColor, lineWidth: 2)
            }
            if options.showNames {
                canvas.drawText(camera.name, at: truth + [trueRadius + 3, -trueRadius - 2], anchor: [0, 1],
                                scale: max(1, s - 1), color: .axis)
            }
        }
        drawLegend(on: &canvas, options: options, anyMissing: cameras.contains { $0.estimatedPosition == nil },
                   y: 12 + Double(9 * (s + 1)) + 10)
        return canvas.image
    }

    /// Where the data lands in an image rendered with the same cameras and options.
    public static func plotArea(_ cameras: [Camera], options: Options = Options()) -> PlotArea {
        let s = max(1, options.textScale)
        let h = options.view.horizontalAxis, v = options.view.verticalAxis
        var points: [(Double, Double)] = []
        for camera in cameras {
            points.append((component(camera.truePosition, h), component(camera.truePosition, v)))
            if let drawn = drawnEstimate(camera, errorScale: options.errorScale) {
                points.append((component(drawn, h), component(drawn, v)))
            }
        }
        points = points.filter { $0.0.isFinite && $0.1.isFinite }
        let xs = points.map(\.0), ys = points.map(\.1)
        let centre = ((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, middle = ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2
        var spanX = (xs.max() ?? 0) - (xs.min() ?? 0), spanY = (ys.max() ?? 0) - (ys.min() ?? 0)
        let span = max(spanX, spanY)
        if span <= 0 { (spanX, spanY) = (1, 1) }
        // Room for the markers: 10 % of the largest span on each side.
        spanX += 0.2 * max(span, 1e-9)
        spanY += 0.2 * max(span, 1e-9)

        let top = 12 + Double(9 * (s + 1)) + 10 + Double(9 * s) + 16  // title, gap, legend, gap
        let bottom = PlotArea.bottomMargin(textScale: s)
        var left = 90.0, right = 24.0
        var area = PlotArea(left: 0, top: 0, width: 0, height: 0, horizontal: AxisScale(lower: 0, upper: 1, step: 1),
                            vertical: AxisScale(lower: 0, upper: 1, step: 1))
        for _ in 0..<2 {  // the left margin depends on the tick labels, which depend on the margin
            let width = max(10, Double(options.width) - left - right)
            let height = max(10, Double(options.height) - top - bottom)
            let metresPerPixel = max(spanX / width, spanY / height)
            let step = AxisScale.niceStep(atLeast: metresPerPixel * 90)
            let halfX = metresPerPixel * width / 2, halfY = metresPerPixel * height / 2
            area = PlotArea(left: left, top: top, width: width, height: height,
                            horizontal: AxisScale(lower: centre - halfX, upper: centre + halfX, step: step),
                            vertical: AxisScale(lower: middle - halfY, upper: middle + halfY, step: step))
            left = PlotArea.leftMargin(for: area.vertical, textScale: s)
            right = PlotArea.rightMargin(for: area.horizontal, textScale: s)
        }
        return area
    }

    private static func drawnEstimate(_ camera: Camera, errorScale: Double) -> Vector3? {
        guard let estimate = camera.estimatedPosition else { return nil }
        return camera.truePosition + errorScale * (estimate - camera.truePosition)
    }

    private static func component(_ p: Vector3, _ axis: Int) -> Double {
        axis == 0 ? p.x : (axis == 1 ? p.y : p.z)
    }

    private static func drawLegend(on canvas: inout Canvas, options: Options, anyMissing: Bool, y: Double) {
        let s = max(1, options.textScale)
        let lineHeight = Double(Canvas.textSize("0", scale: s).height)
        let errorText = options.errorScale == 1
            ? "error" : "error ×\(NumberText.significant(options.errorScale, digits: 3))"
        var entries: [(String, (inout Canvas, SIMD2<Double>) -> Void)] = [
            ("true position", { c, p in c.strokeCircle(centre: p, radius: trueRadius, color: trueColor, lineWidth: 2) }),
            ("estimate", { c, p in c.fillCircle(centre: p, radius: estimateRadius, color: estimateColor) }),
            (errorText, { c, p in c.drawLine(from: p - [9, 0], to: p + [9, 0], color: pairColor, width: 1.5) }),
        ]
        if anyMissing {
            entries.append(("not registered", { c, p in
                c.strokeCircle(centre: p, radius: trueRadius, color: missingColor, lineWidth: 2)
            }))
        }
        let symbolWidth = 22.0, spacing = 22.0
        let total = entries.reduce(0.0) { $0 + symbolWidth + 6 + Double(Canvas.textSize($1.0, scale: s).length) }
            + spacing * Double(entries.count - 1)
        var x = (Double(options.width) - total) / 2
        for (text, symbol) in entries {
            symbol(&canvas, [x + symbolWidth / 2, y + lineHeight / 2])
            x += symbolWidth + 6
            canvas.drawText(text, at: [x, y], scale: s)
            x += Double(Canvas.textSize(text, scale: s).length) + spacing
        }
    }
}
