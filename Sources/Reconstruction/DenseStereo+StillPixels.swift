import ReconstructionCore

extension DenseStereo {
    /// `images` with each active view's still pixels (`StillPixels`, against its sources with
    /// the same intrinsics: one camera, one size) taken out of its masks, at both levels; and the
    /// fraction of the active views' pixels found still.
    func withoutStillPixels(_ images: [StereoImage?], active: [Int], plans: [StereoViewSelection.Plan],
                            workers: Int) -> (images: [StereoImage?], stillFraction: Double) {
        guard options.stillPixels.enabled else { return (images, 0) }
        let finder = StillPixels(options: options.stillPixels)
        let masked = parallelMap(active.count, workers: workers) { a -> (image: StereoImage, still: Int)? in
            let v = active[a]
            guard var image = images[v] else { return nil }
            let sources = plans[v].sources.compactMap { images[$0] }.filter { $0.level.intrinsics == image.level.intrinsics }
            guard let still = finder.mask(reference: image.level.gray, sources: sources.map(\.level.gray)) else { return nil }
            image.level.mask = Self.excluding(still, from: image.level.mask)
            if let halved = finder.mask(reference: image.halved.gray, sources: sources.map(\.halved.gray)) {
                image.halved.mask = Self.excluding(halved, from: image.halved.mask)
            }
            return (image, still.pixels.reduce(0) { $0 + ($1 != 0 ? 1 : 0) })
        }
        var out = images
        var still = 0, total = 0
        for (a, v) in active.enumerated() {
            total += images[v].map { $0.level.gray.pixels.count } ?? 0
            guard let found = masked[a] else { continue }
            out[v] = found.image
            still += found.still
        }
        return (out, total > 0 ? Double(still) / Double(total) : 0)
    }

    /// `mask` (nil: every pixel) without the pixels `still` marks.
    static func excluding(_ still: GrayImage, from mask: GrayImage?) -> GrayImage {
        var pixels = mask?.pixels ?? [UInt8](repeating: 255, count: still.pixels.count)
        for i in pixels.indices where still.pixels[i] != 0 { pixels[i] = 0 }
        return GrayImage(width: still.width, height: still.height, pixels: pixels)
    }
}
