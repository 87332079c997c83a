extension GrayImage {
    /// Every k-th pixel in both directions (the top-left one of each k × k block), with k the
    /// smallest whole factor that brings the longer side to at most `limit`; the image itself when
    /// it is that small already. For masks, which keep their object wherever they are looked up
    /// (nearest pixel, stretched over their photo), at a fraction of the memory.
    public func subsampled(toLongerSideAtMost limit: Int) -> GrayImage {
        let longer = Swift.max(width, height)
        guard limit > 0, longer > limit else { return self }
        let k = (longer + limit - 1) / limit
        let w = (width + k - 1) / k, h = (height + k - 1) / k
        var out = GrayImage(width: w, height: h, fill: 0)
        pixels.withUnsafeBufferPointer { source in
            out.pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<h {
                    let row = y * k * width
                    for x in 0..<w { target[y * w + x] = source[row + x * k] }
                }
            }
        }
        return out
    }
}
