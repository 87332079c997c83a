import Reconstruction
import ReconstructionCore
import XCTest

/// Pixels that keep their place from a photo to its neighbours are found, and nothing else.
final class StillPixelsTests: XCTestCase {
    let width = 200, height = 160

    /// Random texture: blocks of 3 × 3 pixels of random grey.
    func texture(seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let blocks = (0..<((width / 3 + 1) * (height / 3 + 1))).map { _ in UInt8(rng.uniform(0, 255)) }
        return (0..<(width * height)).map { i in blocks[(i / width / 3) * (width / 3 + 1) + (i % width) / 3] }
    }

    func image(_ pixels: [UInt8]) -> GrayImage { GrayImage(width: width, height: height, pixels: pixels) }

    /// `base` with the pixels where `inside` holds taken from `other`.
    func replacing(_ base: [UInt8], from other: [UInt8], where inside: (Int, Int) -> Bool) -> [UInt8] {
        (0..<(width * height)).map { i in inside(i % width, i / width) ? other[i] : base[i] }
    }

    func stillCount(_ mask: GrayImage?, where inside: (Int, Int) -> Bool = { _, _ in true }) -> Int {
        guard let mask else { return 0 }
        return (0..<(width * height)).filter { mask.pixels[$0] != 0 && inside($0 % width, $0 / width) }.count
    }

    /// The left half is the same in the photo and both neighbours (a backdrop); the right half
    /// shows other texture in each (the object, moved).
    func testTheHalfThatKeepsItsPlaceIsStillAndTheHalfThatMovesIsNot() throws {
        let backdrop = texture(seed: 1)
        let right: (Int, Int) -> Bool = { x, _ in x >= 100 }
        let reference = image(replacing(backdrop, from: texture(seed: 2), where: right))
        let sources = [image(replacing(backdrop, from: texture(seed: 3), where: right)),
                       image(replacing(backdrop, from: texture(seed: 4), where: right))]
        let mask = try XCTUnwrap(StillPixels().mask(reference: reference, sources: sources))
        // Left of the seam by more than the window's radius: nearly all still (measured 98.9 %:
        // a few windows of the blocky texture have it in one direction only); right of it: none.
        XCTAssertGreaterThan(stillCount(mask) { x, _ in x < 96 }, 96 * height * 97 / 100)
        XCTAssertEqual(stillCount(mask) { x, _ in x >= 100 }, 0)
    }

    /// One neighbour alone never marks a pixel (a repeated texture can match one neighbour's
    /// disparity), nor do neighbours of another size.
    func testOneNeighbourOrNeighboursOfAnotherSizeMarkNothing() {
        let same = image(texture(seed: 1))
        XCTAssertNil(StillPixels().mask(reference: same, sources: [same]))
        let other = GrayImage(width: width / 2, height: height / 2, pixels: Array(repeating: 0, count: width * height / 4))
        XCTAssertNil(StillPixels().mask(reference: same, sources: [same, other]))
        XCTAssertNotNil(StillPixels().mask(reference: same, sources: [same, same]))
    }

    /// Horizontal stripes look the same after a move along them: windows with texture in one
    /// direction only are never still, though every window matches its neighbours' exactly.
    func testStripesAlongTheMotionAreNotStill() {
        let stripes = image((0..<(width * height)).map { i in (i / width) % 6 < 3 ? 40 : 200 })
        XCTAssertNil(StillPixels().mask(reference: stripes, sources: [stripes, stripes]))
        var noTwoWayTest = StillPixels()
        noTwoWayTest.options.minTwoWayRatio = 0
        XCTAssertEqual(stillCount(noTwoWayTest.mask(reference: stripes, sources: [stripes, stripes])), width * height)
    }

    /// `reference` with two sources that show it unchanged only within a square of `side`
    /// pixels at (20, 20).
    func sources(_ reference: [UInt8], matchingWithin side: Int) -> [GrayImage] {
        let outside: (Int, Int) -> Bool = { x, y in !(x >= 20 && x < 20 + side && y >= 20 && y < 20 + side) }
        return [image(replacing(reference, from: texture(seed: 5), where: outside)),
                image(replacing(reference, from: texture(seed: 6), where: outside))]
    }

    /// Places that happen to look alike are specks and are dropped.
    func testSpecksAreDropped() {
        let reference = texture(seed: 1)
        // 10 × 10 alike: about 16 still pixels, under 0.1 % of 32 000.
        var anyFraction = StillPixels()
        anyFraction.options.minStillFraction = 0
        XCTAssertNil(anyFraction.mask(reference: image(reference), sources: sources(reference, matchingWithin: 10)))
        XCTAssertNotNil(anyFraction.mask(reference: image(reference), sources: sources(reference, matchingWithin: 40)))
    }

    /// A still region is left out when it covers a quarter of the photo, as a backdrop does, and
    /// not when it is a patch of the scene (around the point the cameras aim at).
    func testOnlyAStillQuarterOfThePhotoIsLeftOut() throws {
        let reference = texture(seed: 1)
        // 60 × 60 alike: about 2 900 still pixels, 9 % of the photo.
        XCTAssertNil(StillPixels().mask(reference: image(reference), sources: sources(reference, matchingWithin: 60)))
        // 100 × 100 alike: about 8 800, 28 %.
        let backdrop = try XCTUnwrap(StillPixels().mask(reference: image(reference), sources: sources(reference, matchingWithin: 100)))
        XCTAssertGreaterThan(stillCount(backdrop), width * height / 4)
    }
}
