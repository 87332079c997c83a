import ReconstructionCore

/// Photos of more than one scene in one folder (or one capture with a gap no verified pair
/// bridges): the view graph falls apart into groups. The mapper reconstructs one group, the one
/// most photos show; each other group large enough is reconstructed on its own here, in its own
/// frame, as COLMAP writes `sparse/0`, `sparse/1`, …
extension PoseEstimation {
    /// Of the view graph's groups (`ViewGraphGroups.bySize()`), those with at least `minImages`
    /// images and none registered in the main model, largest first.
    static func separateGroups(_ groups: [[Int]], main: SparseScene, minImages: Int) -> [[Int]] {
        guard minImages >= 2 else { return [] }
        return groups.filter { group in
            group.count >= minImages && !group.contains { main.images[$0].cameraFromWorld != nil }
        }
    }

    /// Reconstructs `group` (mapper-input indices, ascending) alone: its images, the verified
    /// pairs among them and their tracks.
    /// Returns the model over the group's images (named), or nil when fewer than `minImages` of
    /// them register (a group that cannot start a reconstruction included).
    static func reconstruct(
        _ group: [Int], inputs: [IncrementalMapper.ImageInput], names: [String], geometries: [TwoViewGeometry],
        options: IncrementalMapper.Options, minImages: Int, isCancelled: () -> Bool, progress: (MappingProgress) -> Void
    ) throws -> SparseScene? {
        var local = [Int](repeating: -1, count: inputs.count)
        for (k, i) in group.enumerated() { local[i] = k }
        let groupGeometries = geometries.compactMap { g -> TwoViewGeometry? in
            let a = local[g.pair.first], b = local[g.pair.second]
            guard a >= 0, b >= 0 else { return nil }
            var h = g
            h.pair = ImagePair(a, b)
            return h
        }
        let groupInputs = group.map { inputs[$0] }
        let tracks = FeatureTracks(keypointCounts: groupInputs.map(\.features.count), geometries: groupGeometries)
        var mapper = IncrementalMapper(images: groupInputs, tracks: tracks, geometries: groupGeometries, options: options)
        mapper.imageNames = group.map { names[$0] }
        var scene: SparseScene
        do {
            scene = try mapper.run(isCancelled: isCancelled, progress: progress)
        } catch is IncrementalMapper.MapperError {
            return nil  // a group that cannot start a model stays unregistered in the main one
        }
        guard scene.registeredCount >= minImages else { return nil }
        for (k, i) in group.enumerated() { scene.images[k].name = names[i] }
        return scene
    }

    /// The reason given in the main model for an image reconstructed in separate model `number`.
    static func separateModelReason(number: Int, imageCount: Int) -> String {
        SparseScene.separateModelReasonStart + "\(number) (\(imageCount) images): no verified pair joins "
            + "those images to this model's (another scene, or a part the photos do not connect)"
    }
}
