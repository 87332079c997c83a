import ReconstructionCore

extension DenseStereo {
    /// The coarse pass's depth maps, each filtered (`DepthConsistencyFilter` with the stereo's
    /// filter options, its cost limit lowered to `coarseFillMaxCost`) against its source views'
    /// coarse depth maps: what the finer passes' empty pixels may be filled with. `coarse[a]` is
    /// the estimate of view `active[a]`; views without one get nil.
    func filteredCoarse(_ coarse: [DepthMapEstimator.Estimate?], active: [Int], views: [View],
                        plans: [StereoViewSelection.Plan], loaded: [StereoImage?], workers: Int) -> [ViewDepth?] {
        var activeIndexOf = [Int: Int]()
        for (a, v) in active.enumerated() { activeIndexOf[v] = a }
        var filterOptions = options.filter
        filterOptions.maxCost = min(filterOptions.maxCost, options.coarseFillMaxCost)
        let filter = DepthConsistencyFilter(options: filterOptions)
        return active.enumerated().map { a, v -> ViewDepth? in
            guard let estimate = coarse[a], let level = loaded[v]?.halved else { return nil }
            let neighbours = plans[v].sources.compactMap { s -> DepthConsistencyFilter.Neighbour? in
                guard let b = activeIndexOf[s], let depth = coarse[b]?.depth, let other = loaded[s]?.halved else { return nil }
                return DepthConsistencyFilter.Neighbour(intrinsics: other.intrinsics,
                                                        worldFromCamera: views[s].worldFromCamera, depth: depth)
            }
            let view = ViewDepth(name: views[v].name, intrinsics: level.intrinsics, worldFromCamera: views[v].worldFromCamera,
                                 depth: estimate.depth, normalsInCamera: estimate.normalsInCamera)
            return filter.filter(view, costs: estimate.costs, neighbours: neighbours, workers: workers)
        }
    }
}
