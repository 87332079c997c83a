import Foundation
import ReconstructionCore

extension FocalLengthFromPairs {
    /// Part of a guessed camera's photos that share a focal length of their own.
    public struct FocalCluster: Sendable, Equatable {
        public var images: [Int]
        public var focalLength: Double
    }

    /// Photos of one size without EXIF share one guessed camera. Taken with two cameras or at two
    /// zoom settings, no focal length fits them all: fountain-P11 at 1536 × 1024 with every other
    /// photo cropped 1.33× (a longer lens) registered 11 of 11 on one shared 2005 px, 1.7 m off,
    /// without a sign. Here each photo gets its own focal length: the Mendonça–Cipolla criterion
    /// with a focal length per photo, E = K₂ᵀ·F·K₁, minimised photo by photo over its pairs
    /// (a few rounds, from `start`). When the photos' focal lengths fall into two tight clusters
    /// far apart, each of at least `minimumImages` photos, and two focal lengths explain the
    /// pairs clearly better than one, the clusters are returned (with their median focal
    /// lengths); otherwise nil. The clusters' focal lengths are rough (20 % long on that scene,
    /// their ratio right); bundle adjustment refines each (1380 and 1840 px found, 6 mm median
    /// error). Photos whose optical axes meet (an orbit) leave each photo's focal length loose:
    /// their estimates scatter (0.5–1.4× on a 40-view orbit) and form no tight clusters; one
    /// camera's photos (fountain-P11, Herz-Jesus-P8) show no gap that wide between clusters.
    public static func splitCamera(_ pairs: [(pair: ImagePair, f: Matrix3)], start: Double, intrinsics k: CameraIntrinsics,
                            minimumImages: Int = 3, minimumRatio: Double = 1.15, maximumSpread: Double = 1.12,
                            maximumCostRatio: Double = 0.6, options: Options = Options()) -> [FocalCluster]? {
        let images = Array(Set(pairs.flatMap { [$0.pair.first, $0.pair.second] })).sorted()
        guard images.count >= 2 * minimumImages, pairs.count >= options.minPairs else { return nil }
        var focal = Dictionary(uniqueKeysWithValues: images.map { ($0, start) })
        var pairsOf: [Int: [Int]] = [:]
        for (p, pair) in pairs.enumerated() {
            pairsOf[pair.pair.first, default: []].append(p)
            pairsOf[pair.pair.second, default: []].append(p)
        }
        func cost(_ p: Int, _ focal: [Int: Double]) -> Double {
            criterion(pairs[p].f, focal1: focal[pairs[p].pair.first]!, focal2: focal[pairs[p].pair.second]!, cx: k.cx, cy: k.cy)
        }
        let grid = (0...60).map { start * pow(2.5, Double($0 - 30) / 30) }
        for _ in 0..<6 {
            for image in images where (pairsOf[image]?.count ?? 0) >= 3 {
                var trial = focal
                var best = (focal: focal[image]!, cost: Double.infinity)
                for f in grid {
                    trial[image] = f
                    let c = Statistics.median(pairsOf[image]!.map { cost($0, trial) })
                    if c < best.cost { best = (f, c) }
                }
                focal[image] = best.focal
            }
        }
        // Only photos with pairs enough to estimate their own focal length are clustered (the
        // others kept `start`, which would make a tight cluster of its own); they stay with the
        // first cluster's camera. The widest gap between neighbouring focal lengths splits them in two.
        let estimated = images.filter { (pairsOf[$0]?.count ?? 0) >= 3 }
        guard estimated.count >= 2 * minimumImages else { return nil }
        let sorted = estimated.sorted { focal[$0]! < focal[$1]! }
        let values = sorted.map { focal[$0]! }
        var cut = 0, widest = 1.0
        for i in 1..<values.count where values[i] / values[i - 1] > widest { (cut, widest) = (i, values[i] / values[i - 1]) }
        guard cut >= minimumImages, values.count - cut >= minimumImages, widest >= minimumRatio,
              values[cut - 1] / values[0] <= maximumSpread, values[values.count - 1] / values[cut] <= maximumSpread else { return nil }
        let clusters = [Array(sorted[..<cut]), Array(sorted[cut...])].map { part in
            FocalCluster(images: part.sorted(), focalLength: Statistics.median(part.map { focal[$0]! }))
        }
        // Two focal lengths must explain the pairs clearly better than the best single one.
        var split = focal
        for image in images { split[image] = clusters[0].focalLength }
        for cluster in clusters { for image in cluster.images { split[image] = cluster.focalLength } }
        let two = Statistics.median(pairs.indices.map { cost($0, split) })
        guard let (_, one) = bestFocal(pairs.map(\.f), k, options), two <= maximumCostRatio * one, one - two >= options.minRise else { return nil }
        return clusters
    }

    /// (σ₁ − σ₂) / (σ₁ + σ₂) of K₂ᵀ·F·K₁ (x₂ᵀ F x₁ = 0), each photo with its own focal length.
    static func criterion(_ f: Matrix3, focal1: Double, focal2: Double, cx: Double, cy: Double) -> Double {
        let k1 = Matrix3(rowMajor: [focal1, 0, cx, 0, focal1, cy, 0, 0, 1])
        let k2 = Matrix3(rowMajor: [focal2, 0, cx, 0, focal2, cy, 0, 0, 1])
        let e = k2.transposed * f * k1
        let ete = e.transposed * e
        let values = SymmetricEigen((0..<3).map { i in (0..<3).map { j in ete[i, j] } }).values
        let s1 = max(0, values[0]).squareRoot(), s2 = max(0, values[1]).squareRoot()
        return s1 + s2 > 0 ? (s1 - s2) / (s1 + s2) : 1
    }
}
