import ReconstructionCore

/// Feature tracks: connected components of keypoints linked by verified matches.
public struct FeatureTracks: Sendable {
    /// Each track's observations, at most one per image.
    public var tracks: [[SparseScene.Observation]]
    /// For each image, for each keypoint, its track index or -1.
    public var trackOfKeypoint: [[Int32]]

    /// Builds tracks with union-find. A component that holds two keypoints of one image is
    /// ambiguous in that image; those observations are dropped.
    public init(keypointCounts: [Int], geometries: [TwoViewGeometry]) {
        var offsets = [Int](repeating: 0, count: keypointCounts.count + 1)
        for (i, n) in keypointCounts.enumerated() { offsets[i + 1] = offsets[i] + n }
        var parent = [Int32](repeating: -1, count: offsets.last!)
        func find(_ x: Int32) -> Int32 {
            var root = x
            while parent[Int(root)] >= 0 { root = parent[Int(root)] }
            var node = x
            while parent[Int(node)] >= 0 {
                let next = parent[Int(node)]
                parent[Int(node)] = root
                node = next
            }
            return root
        }
        var linked = [Bool](repeating: false, count: offsets.last!)
        for g in geometries {
            let base1 = offsets[g.pair.first], base2 = offsets[g.pair.second]
            for (a, b) in zip(g.keypoints1, g.keypoints2) {
                let x = Int32(base1 + Int(a)), y = Int32(base2 + Int(b))
                linked[Int(x)] = true
                linked[Int(y)] = true
                let rx = find(x), ry = find(y)
                if rx != ry { parent[Int(rx)] = ry }
            }
        }
        var componentOfRoot: [Int32: Int] = [:]
        var components: [[SparseScene.Observation]] = []
        for image in keypointCounts.indices {
            for k in 0..<keypointCounts[image] where linked[offsets[image] + k] {
                let root = find(Int32(offsets[image] + k))
                let c: Int
                if let existing = componentOfRoot[root] {
                    c = existing
                } else {
                    c = components.count
                    componentOfRoot[root] = c
                    components.append([])
                }
                components[c].append(SparseScene.Observation(imageIndex: image, keypointIndex: k))
            }
        }
        var tracks: [[SparseScene.Observation]] = []
        var trackOfKeypoint = keypointCounts.map { [Int32](repeating: -1, count: $0) }
        for component in components {
            var perImage: [Int: Int] = [:]
            for o in component { perImage[o.imageIndex, default: 0] += 1 }
            let kept = component.filter { perImage[$0.imageIndex] == 1 }
            guard kept.count >= 2 else { continue }
            for o in kept { trackOfKeypoint[o.imageIndex][o.keypointIndex] = Int32(tracks.count) }
            tracks.append(kept)
        }
        self.tracks = tracks
        self.trackOfKeypoint = trackOfKeypoint
    }
}
