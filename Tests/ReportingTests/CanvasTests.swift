import ReconstructionCore
import Reporting
import XCTest

final class CanvasTests: XCTestCase {
    private func isBackground(_ canvas: Canvas, _ x: Int, _ y: Int) -> Bool { canvas.color(x: x, y: y) == .white }

    func testALineCoversItsEndpointsAndMidpointButNotPixelsBesideIt() {
        var canvas = Canvas(width: 100, height: 80)
        canvas.drawLine(from: [10.5, 20.5], to: [80.5, 60.5], color: .black, width: 2)
        for (x, y) in [(10, 20), (80, 60), (45, 40)] {
            let c = canvas.color(x: x, y: y)!
            XCTAssertLessThan(Int(c.red), 60, "pixel (\(x), \(y)) should be nearly black, is \(c)")
        }
        XCTAssertTrue(isBackground(canvas, 10, 40))
        XCTAssertTrue(isBackground(canvas, 80, 20))
        XCTAssertTrue(isBackground(canvas, 5, 20), "beyond the round cap")
        XCTAssertTrue(isBackground(canvas, 86, 60))
    }

    func testLinesAreAntiAliased() {
        var canvas = Canvas(width: 40, height: 40)
        // A one-pixel horizontal line on a pixel boundary half-covers the two rows beside it.
        canvas.drawLine(from: [5, 20], to: [35, 20], color: .black, width: 1)
        XCTAssertEqual(canvas.color(x: 20, y: 19), RGBColor(128, 128, 128))
        XCTAssertEqual(canvas.color(x: 20, y: 20), RGBColor(128, 128, 128))
        XCTAssertTrue(isBackground(canvas, 20, 18))
        // A diagonal line leaves intermediate shades.
        canvas.drawLine(from: [2, 2], to: [30, 12], color: .black, width: 1)
        let shades = Set((0..<40).flatMap { y in (0..<15).compactMap { x in canvas.color(x: x, y: y)?.red } })
        XCTAssertGreaterThan(shades.filter { $0 > 20 && $0 < 235 }.count, 5)
    }

    func testCirclesFilledAndOutlined() {
        var canvas = Canvas(width: 60, height: 60)
        canvas.fillCircle(centre: [20, 20], radius: 6, color: .mutedBlue)
        XCTAssertEqual(canvas.color(x: 20, y: 20), .mutedBlue)
        XCTAssertEqual(canvas.color(x: 15, y: 20), .mutedBlue)
        XCTAssertTrue(isBackground(canvas, 27, 20))
        XCTAssertTrue(isBackground(canvas, 25, 25), "outside the disc's diagonal reach")

        canvas.strokeCircle(centre: [40.5, 40.5], radius: 8, color: .black, lineWidth: 2)
        XCTAssertTrue(isBackground(canvas, 40, 40), "a ring leaves its centre empty")
        XCTAssertEqual(canvas.color(x: 48, y: 40), .black)
        XCTAssertEqual(canvas.color(x: 40, y: 32), .black)
        XCTAssertTrue(isBackground(canvas, 51, 40))
    }

    func testRectanglesCoverExactlyTheirPixels() {
        var canvas = Canvas(width: 30, height: 30)
        canvas.fillRectangle(x: 5, y: 6, width: 10, height: 4, color: .mutedGreen)
        XCTAssertEqual(canvas.color(x: 5, y: 6), .mutedGreen)
        XCTAssertEqual(canvas.color(x: 14, y: 9), .mutedGreen)
        XCTAssertTrue(isBackground(canvas, 15, 9))
        XCTAssertTrue(isBackground(canvas, 14, 10))
        XCTAssertTrue(isBackground(canvas, 4, 6))
        // A half-pixel edge is half covered.
        canvas.fillRectangle(x: 20.5, y: 20, width: 3, height: 1, color: .black)
        XCTAssertEqual(canvas.color(x: 20, y: 20), RGBColor(128, 128, 128))
        XCTAssertEqual(canvas.color(x: 21, y: 20), .black)

        canvas.strokeRectangle(x: 2, y: 15, width: 10, height: 10, color: .black)
        XCTAssertEqual(canvas.color(x: 2, y: 15), .black)
        XCTAssertEqual(canvas.color(x: 11, y: 24), .black)
        XCTAssertTrue(isBackground(canvas, 6, 19))
    }

    func testDrawingOutsideTheImageIsClipped() {
        var canvas = Canvas(width: 10, height: 10)
        canvas.drawLine(from: [-50, -50], to: [60, 60], color: .black, width: 3)
        canvas.fillCircle(centre: [100, 100], radius: 20, color: .black)
        canvas.drawText("clipped", at: [-20, 5], scale: 3, color: .black)
        canvas.fillRectangle(x: -5, y: -5, width: 100, height: 2, color: .black)
        XCTAssertEqual(canvas.color(x: 5, y: 5), .black)
        XCTAssertNil(canvas.color(x: 10, y: 0))
    }

    /// Ink pixels of the canvas inside (x, y, width, height), and the count outside it.
    private func ink(_ canvas: Canvas, inside box: (x: Int, y: Int, width: Int, height: Int)) -> (Int, Int) {
        var inside = 0, outside = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where !isBackground(canvas, x, y) {
                if x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
        return (inside, outside)
    }

    func testTextRendersGlyphPixelsOnlyInsideItsBox() {
        var canvas = Canvas(width: 200, height: 60)
        let box = canvas.drawText("Ag 1.5 mm°", at: [10, 10], scale: 2, color: .black)
        XCTAssertEqual(box.x, 10)
        XCTAssertEqual(box.y, 10)
        XCTAssertEqual(box.width, Canvas.textSize("Ag 1.5 mm°", scale: 2).length)
        XCTAssertEqual(box.width, 2 * (10 * 6 - 1))
        XCTAssertEqual(box.height, 18)  // 9 rows with descenders
        let (inside, outside) = ink(canvas, inside: box)
        XCTAssertGreaterThan(inside, 150)
        XCTAssertEqual(outside, 0)
        // The descender of "g" reaches below the baseline (row 7 of 9 at scale 2 is y = 24...27).
        let descender = (box.x..<(box.x + box.width)).contains { x in !isBackground(canvas, x, 25) }
        XCTAssertTrue(descender)
    }

    func testTextAnchorsAndUpwardDirection() {
        var canvas = Canvas(width: 100, height: 100)
        let centred = canvas.drawText("IIII", at: [50, 20], anchor: [0.5, 0.5], scale: 1)
        let size = Canvas.textSize("IIII")
        XCTAssertEqual(Double(centred.x) + Double(size.length) / 2, 50, accuracy: 0.5)
        XCTAssertEqual(Double(centred.y) + Double(size.height) / 2, 20, accuracy: 0.5)

        var upward = Canvas(width: 100, height: 100)
        let box = upward.drawText("LONG", at: [20, 80], scale: 2, direction: .upward)
        XCTAssertEqual(box.width, 18)
        XCTAssertEqual(box.height, Canvas.textSize("LONG", scale: 2).length)
        XCTAssertEqual(box.y + box.height, 80, "reads upwards from the anchor")
        let (inside, outside) = ink(upward, inside: box)
        XCTAssertGreaterThan(inside, 50)
        XCTAssertEqual(outside, 0)
        // The text runs vertically: its ink spans more rows than columns.
        var rows = Set<Int>(), columns = Set<Int>()
        for y in 0..<100 { for x in 0..<100 where !isBackground(upward, x, y) { rows.insert(y); columns.insert(x) } }
        XCTAssertGreaterThan(rows.count, 2 * columns.count)
    }

    func testEveryDocumentedCharacterHasItsOwnGlyph() {
        let characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.,-+:;%°/()[]_=<>!?#*×±µτ≤≥²")
        var pictures: [[UInt8]: Character] = [:]
        for character in characters {
            var canvas = Canvas(width: 8, height: 12)
            canvas.drawText(String(character), at: [1, 1], color: .black)
            let bits = (0..<canvas.height).flatMap { y in (0..<canvas.width).map { x in isBackground(canvas, x, y) ? UInt8(0) : 1 } }
            XCTAssertTrue(bits.contains(1), "\(character) draws nothing")
            if let other = pictures[bits] { XCTFail("\(character) looks like \(other)") }
            pictures[bits] = character
        }
        // An unknown character shows a box rather than nothing.
        var canvas = Canvas(width: 8, height: 12)
        canvas.drawText("€", at: [1, 1], color: .black)
        XCTAssertEqual(canvas.color(x: 1, y: 1), .black)
    }
}
