import ReconstructionCore
import Reporting
import XCTest

final class PlotTests: XCTestCase {
    private func color(_ image: RGBImage, _ p: SIMD2<Double>) -> RGBColor {
        let x = Int(p.x), y = Int(p.y)
        let i = 3 * (y * image.width + x)
        return RGBColor(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }

    private func isReddish(_ c: RGBColor, like target: RGBColor) -> Bool {
        abs(Int(c.red) - Int(target.red)) < 30 && abs(Int(c.green) - Int(target.green)) < 30
            && abs(Int(c.blue) - Int(target.blue)) < 30
    }

    func testCameraPlotPutsMarkersAtTheirPositions() {
        let cameras = [
            CameraPositionPlot.Camera(name: "a", truePosition: Vector3(0, 0, 0), estimatedPosition: Vector3(0.5, 0, 0)),
            CameraPositionPlot.Camera(name: "b", truePosition: Vector3(4, 3, 1), estimatedPosition: Vector3(4, 2.5, 1)),
            CameraPositionPlot.Camera(name: "c", truePosition: Vector3(2, -2, 0), estimatedPosition: nil),
        ]
        var options = CameraPositionPlot.Options()
        options.width = 640
        options.height = 480
        let image = CameraPositionPlot.render(cameras, options: options)
        XCTAssertEqual(image.width, 640)
        XCTAssertEqual(image.height, 480)
        let area = CameraPositionPlot.plotArea(cameras, options: options)
        // Equal metres per pixel on both axes.
        let metresPerPixelX = (area.horizontal.upper - area.horizontal.lower) / area.width
        let metresPerPixelY = (area.vertical.upper - area.vertical.lower) / area.height
        XCTAssertEqual(metresPerPixelX, metresPerPixelY, accuracy: 1e-12)
        // Estimates are filled dots of the estimate colour at their mapped positions.
        XCTAssertEqual(color(image, area.pixel(0.5, 0)), RGBColor.mutedOrange)
        XCTAssertEqual(color(image, area.pixel(4, 2.5)), RGBColor.mutedOrange)
        // True positions are hollow: the ring is drawn 6 px from the centre, not at it.
        let truth = area.pixel(4, 3)
        XCTAssertTrue(isReddish(color(image, truth + [0, -6]), like: .mutedBlue))
        XCTAssertTrue(isReddish(color(image, truth + [-6, 0]), like: .mutedBlue))
        // The unregistered camera has a ring in the "missing" colour.
        XCTAssertTrue(isReddish(color(image, area.pixel(2, -2) + [0, 6]), like: .mutedRed))
        let centre = color(image, area.pixel(2, -2))
        XCTAssertTrue(centre == .white || centre == .grid, "a hollow ring leaves its centre clear, found \(centre)")
        // Everything lies inside the plot rectangle, which lies inside the image.
        XCTAssertGreaterThan(area.left, 20)
        XCTAssertLessThan(area.left + area.width, 640)
        XCTAssertLessThan(area.top + area.height, 480)
        for p in [area.pixel(0, 0), area.pixel(4, 3), area.pixel(2, -2)] {
            XCTAssert(p.x > area.left && p.x < area.left + area.width && p.y > area.top && p.y < area.top + area.height)
        }
    }

    func testSideViewUsesTheZAxisAndErrorScaleMovesTheDrawnEstimate() {
        let cameras = [
            CameraPositionPlot.Camera(name: "a", truePosition: Vector3(0, 5, 0), estimatedPosition: Vector3(0.001, 5, 0)),
            CameraPositionPlot.Camera(name: "b", truePosition: Vector3(2, 9, 1), estimatedPosition: Vector3(2, 9, 1)),
        ]
        var options = CameraPositionPlot.Options()
        options.view = .side
        options.errorScale = 500
        let image = CameraPositionPlot.render(cameras, options: options)
        XCTAssertEqual(image.width, 800)
        XCTAssertEqual(image.height, 600)
        let area = CameraPositionPlot.plotArea(cameras, options: options)
        XCTAssertEqual(color(image, area.pixel(0.5, 0)), .mutedOrange, "1 mm drawn 500 times larger")
        XCTAssertEqual(color(image, area.pixel(2, 1)), .mutedOrange)
    }

    func testHistogramCountsAndBarsMatchAKnownInput() {
        // Values in [0, 1): 1; [1, 2): 3; [2, 3): 0; [3, 4]: 2.
        let values = [0.5, 1.1, 1.5, 1.9, 3.2, 4.0, .nan]
        var options = HistogramPlot.Options()
        options.range = 0...4
        options.binCount = 4
        options.threshold = 2.5
        options.width = 500
        options.height = 400
        let bins = HistogramPlot.bins(values, options: options)
        XCTAssertEqual(bins.edges, [0, 1, 2, 3, 4])
        XCTAssertEqual(bins.counts, [1, 3, 0, 2])
        XCTAssertEqual(bins.outsideCount, 0)

        let image = HistogramPlot.render(values, options: options)
        XCTAssertEqual(image.width, 500)
        XCTAssertEqual(image.height, 400)
        let area = HistogramPlot.plotArea(values, options: options)
        XCTAssertEqual(area.vertical.lower, 0)
        XCTAssertGreaterThanOrEqual(area.vertical.upper, 3)
        // Inside each bar (just below its top) the bar colour; just above an empty bin, no bar.
        XCTAssertEqual(color(image, area.pixel(0.5, 0.5)), .mutedBlue)
        XCTAssertEqual(color(image, area.pixel(1.5, 2.9)), .mutedBlue)
        XCTAssertEqual(color(image, area.pixel(3.5, 1.9)), .mutedBlue)
        XCTAssertNotEqual(color(image, area.pixel(1.5, 3.2)), .mutedBlue, "bar 2 stops at count 3")
        XCTAssertNotEqual(color(image, area.pixel(2.3, 0.3)), .mutedBlue, "empty bin")
        // The threshold marker is red at x = 2.5 somewhere along its dashes.
        let x = area.pixel(2.5, 0).x
        let marker = stride(from: area.top + 20, to: area.top + area.height, by: 1).contains { y in
            isReddish(color(image, [x, y]), like: .mutedRed)
        }
        XCTAssertTrue(marker)
    }

    func testAutomaticBinsHaveNiceWidthsAndKeepEveryValue() {
        let values = (0..<100).map { Double($0) * 0.037 }  // 0 ... 3.663
        let bins = HistogramPlot.bins(values)
        XCTAssertEqual(bins.counts.reduce(0, +), 100)
        XCTAssertEqual(bins.edges.first, 0)
        XCTAssertGreaterThanOrEqual(bins.edges.last!, 3.663)
        let width = bins.edges[1] - bins.edges[0]
        XCTAssertEqual(width, AxisScale.niceStep(atLeast: width * 0.999), accuracy: 1e-12)
        XCTAssertTrue((5...30).contains(bins.counts.count))
        // A fixed range drops values outside it and counts them.
        var options = HistogramPlot.Options()
        options.range = 0...1
        XCTAssertEqual(HistogramPlot.bins(values, options: options).outsideCount, 72)
        // No values at all still renders.
        XCTAssertEqual(HistogramPlot.render([]).width, 800)
    }
}
