import CReconstruction
import Foundation
import ReconstructionCore

/// Image retrieval for pair selection: which photos probably show the same part of the scene,
/// found without matching every pair. Each image becomes one global vector (VLAD: per visual word,
/// the sum of its descriptors' residuals to that word, power- and intra-normalised) over a small
/// vocabulary learnt by k-means from the capture's own descriptors; images are ranked by the
/// cosine of those vectors. The products run through oneDNN's sgemm in the shim.
public struct ImageRetrieval: Sendable {
    public struct Options: Sendable, Equatable {
        /// Visual words (k-means centres); the global vector has 128 × `words` entries.
        public var words = 64
        /// Descriptors sampled per image to learn the vocabulary…
        public var samplesPerImage = 256
        /// …and at most this many in all.
        public var maxSamples = 60_000
        /// k-means iterations.
        public var iterations = 10
        public var seed: UInt64 = 1
        /// Threads for the per-image vectors.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        public init() {}

        /// The settings that shape the result (not `workers`), for checkpoint fingerprints.
        public var resultKey: String { "words \(words) samples \(samplesPerImage)/\(maxSamples) iterations \(iterations) seed \(seed)" }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// For each image, the indices of the `count` most similar other images, most similar first.
    public func neighbours(of features: [ImageFeatures], count: Int) throws -> [[Int]] {
        let n = features.count
        guard n > 1, count > 0 else { return Array(repeating: [], count: n) }
        let vocabulary = try learnVocabulary(from: features)
        guard !vocabulary.isEmpty else { return Array(repeating: [], count: n) }
        let vectors = try globalVectors(of: features, vocabulary: vocabulary)
        let dimension = vocabulary.count
        var flat = [Float]()
        flat.reserveCapacity(n * dimension)
        for v in vectors { flat += v }
        var result: [[Int]] = []
        result.reserveCapacity(n)
        let block = 256
        for start in stride(from: 0, to: n, by: block) {
            let rows = min(block, n - start)
            let similarity = try Self.multiplyTransposed(Array(flat[(start * dimension)..<((start + rows) * dimension)]), flat,
                                                         m: rows, n: n, k: dimension, threads: options.workers)
            for r in 0..<rows {
                let i = start + r
                result.append(Self.largest(count, of: similarity[(r * n)..<((r + 1) * n)], excluding: i))
            }
        }
        return result
    }

    /// Offsets (within the row) of the `count` largest values, largest first, ties to the lower offset.
    static func largest(_ count: Int, of row: ArraySlice<Float>, excluding excluded: Int) -> [Int] {
        var top: [(value: Float, offset: Int)] = []
        top.reserveCapacity(count + 1)
        for (offset, value) in row.enumerated() where offset != excluded {
            if top.count == count, let last = top.last, value <= last.value { continue }
            let at = top.firstIndex { value > $0.value } ?? top.count
            top.insert((value, offset), at: at)
            if top.count > count { top.removeLast() }
        }
        return top.map(\.offset)
    }

    // MARK: Vocabulary

    /// k-means centres (`words × 128`, row-major) of descriptors sampled evenly from every image.
    func learnVocabulary(from features: [ImageFeatures]) throws -> [Float] {
        let total = features.reduce(0) { $0 + $1.count }
        let perImage = max(1, min(options.samplesPerImage, options.maxSamples / max(1, features.count)))
        var samples: [Float] = []
        for f in features where f.count > 0 {
            let take = min(perImage, f.count)
            for s in 0..<take {
                let i = s * f.count / take
                samples += f.descriptors[(128 * i)..<(128 * i + 128)].map(Float.init)
            }
        }
        let m = samples.count / 128
        guard total > 0, m > 0 else { return [] }
        let k = min(options.words, m)
        var generator = SeededGenerator(seed: options.seed)
        var centres: [Float] = []
        for index in Array(0..<m).shuffled(using: &generator).prefix(k) {
            centres += samples[(128 * index)..<(128 * index + 128)]
        }
        for _ in 0..<options.iterations {
            let assignment = try nearestWords(of: samples, count: m, vocabulary: centres, threads: options.workers)
            var sums = [Double](repeating: 0, count: k * 128)
            var sizes = [Int](repeating: 0, count: k)
            for (s, w) in assignment.enumerated() {
                sizes[w] += 1
                for d in 0..<128 { sums[128 * w + d] += Double(samples[128 * s + d]) }
            }
            for w in 0..<k {
                if sizes[w] == 0 {
                    // An empty word restarts at a random sample.
                    let index = Int.random(in: 0..<m, using: &generator)
                    for d in 0..<128 { centres[128 * w + d] = samples[128 * index + d] }
                } else {
                    for d in 0..<128 { centres[128 * w + d] = Float(sums[128 * w + d] / Double(sizes[w])) }
                }
            }
        }
        return centres
    }

    /// Index of the nearest word of each of `count` descriptors (rows of `descriptors`):
    /// argmin |d − c|² = argmax (d·c − |c|²/2).
    func nearestWords(of descriptors: [Float], count: Int, vocabulary: [Float], threads: Int) throws -> [Int] {
        let k = vocabulary.count / 128
        let halfNorms = (0..<k).map { w in vocabulary[(128 * w)..<(128 * w + 128)].reduce(0) { $0 + $1 * $1 } / 2 }
        let dots = try Self.multiplyTransposed(descriptors, vocabulary, m: count, n: k, k: 128, threads: threads)
        return (0..<count).map { i in
            var best = 0
            var bestScore = -Float.infinity
            for w in 0..<k {
                let score = dots[i * k + w] - halfNorms[w]
                if score > bestScore { bestScore = score; best = w }
            }
            return best
        }
    }

    // MARK: Global vectors

    /// One unit-length VLAD vector (128 × words) per image; all zeros for an image without features.
    func globalVectors(of features: [ImageFeatures], vocabulary: [Float]) throws -> [[Float]] {
        let k = vocabulary.count / 128
        let results = parallelMap(features.count, workers: options.workers) { i -> Result<[Float], Error> in
            Result { try vlad(features[i], vocabulary: vocabulary, words: k) }
        }
        return try results.map { try $0.get() }
    }

    func vlad(_ f: ImageFeatures, vocabulary: [Float], words k: Int) throws -> [Float] {
        var v = [Float](repeating: 0, count: 128 * k)
        guard f.count > 0 else { return v }
        let descriptors = f.descriptors.map(Float.init)
        let assignment = try nearestWords(of: descriptors, count: f.count, vocabulary: vocabulary, threads: 1)
        for (i, w) in assignment.enumerated() {
            for d in 0..<128 { v[128 * w + d] += descriptors[128 * i + d] - vocabulary[128 * w + d] }
        }
        // Signed square root (tames bursts of repeated texture), then unit length per word and overall.
        for j in v.indices { v[j] = v[j] < 0 ? -(-v[j]).squareRoot() : v[j].squareRoot() }
        for w in 0..<k {
            let norm = v[(128 * w)..<(128 * w + 128)].reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { for d in 0..<128 { v[128 * w + d] /= norm } }
        }
        let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
        if norm > 0 { for j in v.indices { v[j] /= norm } }
        return v
    }

    /// Row-major `a · bᵀ` (a: m × k, b: n × k) through the shim.
    static func multiplyTransposed(_ a: [Float], _ b: [Float], m: Int, n: Int, k: Int, threads: Int) throws -> [Float] {
        var c = [Float](repeating: 0, count: m * n)
        try ShimError.check { rc_multiply_transposed(a, b, Int32(m), Int32(n), Int32(k), Int32(max(1, threads)), &c, $0) }
        return c
    }
}
