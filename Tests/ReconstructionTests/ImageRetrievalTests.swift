import Reconstruction
import ReconstructionCore
import XCTest

final class ImageRetrievalTests: XCTestCase {
    /// `scenes` groups of `perScene` images; each image draws its descriptors from its group's
    /// own pool (with a little noise), as photos of one place share the same features.
    func groupedFeatures(scenes: Int, perScene: Int, descriptorsPerImage: Int = 800, seed: UInt64 = 3) -> [ImageFeatures] {
        var rng = SeededGenerator(seed: seed)
        let pools: [[UInt8]] = (0..<scenes).map { _ in
            (0..<(2_000 * 128)).map { _ in UInt8(rng.next() % 8 == 0 ? 40 + rng.next() % 200 : rng.next() % 30) }
        }
        // Interleave the groups, so capture order says nothing about them.
        return (0..<(scenes * perScene)).map { i in
            let pool = pools[i % scenes]
            var descriptors: [UInt8] = []
            for _ in 0..<descriptorsPerImage {
                let d = Int(rng.next() % 2_000)
                for k in 0..<128 {
                    let noisy = Int(pool[128 * d + k]) + Int(rng.next() % 7) - 3
                    descriptors.append(UInt8(max(0, min(255, noisy))))
                }
            }
            let n = descriptorsPerImage
            return ImageFeatures(imageWidth: 640, imageHeight: 480, positions: Array(repeating: 10, count: 2 * n),
                                 scales: Array(repeating: 3, count: n), descriptors: descriptors,
                                 colors: Array(repeating: 0, count: 3 * n))
        }
    }

    func testNeighboursAreImagesOfTheSameScene() throws {
        let features = groupedFeatures(scenes: 4, perScene: 5)
        let neighbours = try ImageRetrieval().neighbours(of: features, count: 4)
        XCTAssertEqual(neighbours.count, 20)
        for (i, list) in neighbours.enumerated() {
            XCTAssertEqual(list.count, 4)
            XCTAssertFalse(list.contains(i), "an image is not its own neighbour")
            XCTAssertEqual(Set(list.map { $0 % 4 }), [i % 4], "image \(i): neighbours \(list)")
        }
    }

    func testRetrievalPairsJoinTheWindowAndTheSimilarImages() throws {
        let features = groupedFeatures(scenes: 4, perScene: 5)
        let sameScene = Set((0..<20).flatMap { i in ((i + 1)..<20).filter { $0 % 4 == i % 4 }.map { ImagePair(i, $0) } })
        XCTAssertEqual(sameScene.count, 40)
        let retrieved = try PairSelection.retrieval(neighbours: 4, window: 0).pairs(for: features)
        XCTAssertEqual(Set(retrieved), sameScene)
        XCTAssertEqual(retrieved.count, Set(retrieved).count, "each pair once")
        let withWindow = try PairSelection.retrieval(neighbours: 4, window: 1).pairs(for: features)
        XCTAssertEqual(Set(withWindow), sameScene.union((0..<19).map { ImagePair($0, $0 + 1) }))
        XCTAssertTrue(withWindow.allSatisfy { $0.first < $0.second })
    }

    func testAutomaticUsesRetrievalBeyondTheExhaustiveLimit() throws {
        XCTAssertEqual(PairSelection.automatic.resolved(count: PairSelection.exhaustiveLimit), .exhaustive)
        XCTAssertEqual(PairSelection.automatic.resolved(count: PairSelection.exhaustiveLimit + 1), PairSelection.automaticBeyondLimit)
        // 45 images in 5 interleaved groups of 9: every same-group pair is found, though no two
        // images of a group are within the window of each other.
        let features = groupedFeatures(scenes: 5, perScene: 9, descriptorsPerImage: 400)
        let pairs = Set(try PairSelection.automatic.pairs(for: features))
        for i in 0..<45 {
            for j in (i + 1)..<45 where j % 5 == i % 5 { XCTAssertTrue(pairs.contains(ImagePair(i, j)), "\(i)–\(j)") }
        }
        XCTAssertLessThan(pairs.count, 45 * 44 / 2, "not every pair")
        guard case let .retrieval(neighbours, window) = PairSelection.automaticBeyondLimit else { return XCTFail() }
        XCTAssertLessThanOrEqual(pairs.count, 45 * (neighbours + window))
    }

    func testAnImageWithoutFeaturesGetsNeighboursButNoError() throws {
        var features = groupedFeatures(scenes: 2, perScene: 3, descriptorsPerImage: 800)
        features[0] = ImageFeatures(imageWidth: 640, imageHeight: 480, positions: [], scales: [], descriptors: [], colors: [])
        let neighbours = try ImageRetrieval().neighbours(of: features, count: 2)
        XCTAssertEqual(neighbours.map(\.count), Array(repeating: 2, count: 6))
        XCTAssertEqual(Set(neighbours[3]), [1, 5], "images 1, 3, 5 share a pool")
    }

    func testFewerDescriptorsThanWordsAndMoreNeighboursThanImagesStillRank() throws {
        let features = groupedFeatures(scenes: 1, perScene: 3, descriptorsPerImage: 2)
        let neighbours = try ImageRetrieval().neighbours(of: features, count: 5)
        XCTAssertEqual(neighbours.map { Set($0) }, [[1, 2], [0, 2], [0, 1]])
        XCTAssertEqual(try ImageRetrieval().neighbours(of: Array(features.prefix(1)), count: 3), [[]])
    }
}
