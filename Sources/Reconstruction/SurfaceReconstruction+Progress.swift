extension SurfaceReconstruction {
    /// The steps of `run` that report progress, in order.
    enum FusionStep: Hashable, Sendable {
        /// The hull's distance maps, the box and the voxel size.
        case preparation
        /// Integrating the depth maps and point clouds into the volume.
        case integration
        /// Filling what no depth observed from the masks' visual hull.
        case silhouettes
        /// Marching cubes.
        case extraction
        /// Cropping, removing fragments, colouring the hull, closing openings.
        case cleanup
    }

    /// The steps' shares of the fusion time, measured 2026-11-25. Without a hull (fountain-P11,
    /// 11 depth maps, 1.3 million triangles, 3.5 s): preparation 0.1, integration 0.35, marching
    /// cubes 0.15, cleanup 0.4. With one (a 24-view vase with 48 depth maps, 3 s): preparation
    /// 0.14, integration 0.12, filling 0.68, marching cubes 0.01, cleanup and closing 0.05.
    static func fusionSteps(hull: Bool) -> StepShares<FusionStep> {
        hull ? StepShares([(.preparation, 0.14), (.integration, 0.12), (.silhouettes, 0.68), (.extraction, 0.01), (.cleanup, 0.05)])
            : StepShares([(.preparation, 0.1), (.integration, 0.35), (.extraction, 0.15), (.cleanup, 0.4)])
    }
}
