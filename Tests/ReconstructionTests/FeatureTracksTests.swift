import Reconstruction
import ReconstructionCore
import XCTest

final class FeatureTracksTests: XCTestCase {
    func geometry(_ a: Int, _ b: Int, _ k1: [Int32], _ k2: [Int32]) -> TwoViewGeometry {
        TwoViewGeometry(pair: ImagePair(a, b), keypoints1: k1, keypoints2: k2, secondFromFirst: nil,
                        medianTriangulationAngleDegrees: nil)
    }

    func testMatchesChainAcrossPairsIntoOneTrack() {
        // 0:5 ↔ 1:2 and 1:2 ↔ 2:7 form one track over three images.
        let tracks = FeatureTracks(keypointCounts: [10, 10, 10], geometries: [geometry(0, 1, [5], [2]), geometry(1, 2, [2], [7])])
        XCTAssertEqual(tracks.tracks.count, 1)
        XCTAssertEqual(Set(tracks.tracks[0].map(\.imageIndex)), [0, 1, 2])
        XCTAssertEqual(tracks.trackOfKeypoint[2][7], 0)
        XCTAssertEqual(tracks.trackOfKeypoint[0][4], -1)
    }

    func testAnImageSeenTwiceInATrackIsDroppedFromIt() {
        // 0:1 ↔ 1:1 ↔ 2:1 ↔ 0:2: image 0 appears twice, so its observations are ambiguous.
        let tracks = FeatureTracks(keypointCounts: [5, 5, 5], geometries: [
            geometry(0, 1, [1], [1]), geometry(1, 2, [1], [1]), geometry(0, 2, [2], [1]),
        ])
        XCTAssertEqual(tracks.tracks.count, 1)
        XCTAssertEqual(Set(tracks.tracks[0].map(\.imageIndex)), [1, 2])
        XCTAssertEqual(tracks.trackOfKeypoint[0][1], -1)
    }
}
