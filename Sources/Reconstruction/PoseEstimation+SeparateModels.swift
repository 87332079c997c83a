import ReconstructionCore

/// Photos of more than one scene in one folder (or one capture with a gap no verified pair
/// bridges): the view graph falls apart into groups. The mapper reconstructs one group, the one
/// most photos show; each other group large enough is reconstructed on its own here, in its own
/// frame, as COLMAP writes `sparse/0`, `sparse/1`, …
extension PoseEstimation {
    /// A group of images that no verified pair joins to the main model, reconstructed on its own.
    struct SeparateGroup {
        /// Mapper-input indices of the group's images, ascending.
        var members: [Int]
    }

    /// The groups other than the main model's with at least `minImages` images, largest first.
    static func separateGroups(imageCount: Int, geometries: [TwoViewGeometry], main: SparseScene,
                               minImages: Int) -> [SeparateGroup] {
        guard minImages >= 2 else { return [] }
        let graph = ViewGraphGroups(imageCount: imageCount, pairs: geometries.map { ($0.pair.first, $0.pair.second) })
        return graph.bySize().filter { group in
            group.count >= minImages && !group.contains { main.images[$0].cameraFromWorld != nil }
        }.map(SeparateGroup.init)
    }

    /// Reconstructs `group` alone: its images, the verified pairs among them and their tracks.
    /// Returns the model over the group's images (named), or nil when fewer than `minImages` of
    /// them register (a group that cannot start a reconstruction included).
    static func reconstruct(
        _ group: SeparateGroup, inputs: [IncrementalMapper.ImageInput], names: [String], geometries: [TwoViewGeometry],
        options: IncrementalMapper.Options, minImages: Int, isCancelled: () -> Bool, progress: (MappingProgress) -> Void
    ) throws -> SparseScene? {
        var local = [Int](repeating: -1, count: inputs.count)
        for (k, i) in group.members.enumerated() { local[i] = k }
        let groupGeometries = geometries.compactMap { g -> TwoViewGeometry? in
            let a = local[g.pair.first], b = local[g.pair.second]
            guard a >= 0, b >= 0 else { return nil }
            var h = g
            h.pair = ImagePair(a, b)
            return h
        }
        let groupInputs = group.members.map { inputs[$0] }
        let tracks = FeatureTracks(keypointCounts: groupInputs.map(\.features.count), geometries: groupGeometries)
        var mapper = IncrementalMapper(images: groupInputs, tracks: tracks, geometries: groupGeometries, options: options)
        var scene: SparseScene
        do {
            scene = try mapper.run(isCancelled: isCancelled, progress: progress)
        } catch is IncrementalMapper.MapperError {
            return nil  // a group that cannot start a model stays unregistered in the main one
        }
        guard scene.registeredCount >= minImages else { return nil }
        for (k, i) in group.members.enumerated() { scene.images[k].name = names[i] }
        return scene
    }

    /// The reason given in the main model for an image reconstructed in separate model `number`.
    static func separateModelReason(number: Int, imageCount: Int) -> String {
        "reconstructed in separate model \(number) (\(imageCount) images): no verified pair joins "
            + "those images to this model's (another scene, or a part the photos do not connect)"
    }
}
