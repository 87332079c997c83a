extension GrayImage {
    /// The mask without its small pieces: of the 8-connected regions of non-zero pixels, only those
    /// with at least `minimumFraction` of the largest region's pixels stay (as they were); the
    /// rest become 0. Speckles a depth map leaves around an object go; the object stays whole.
    public func keepingLargeComponents(minimumFraction: Double) -> GrayImage {
        let (label, sizes) = components()
        guard let largest = sizes.max() else { return self }
        return keeping(label, sizes, atLeast: Double(largest) * minimumFraction)
    }

    /// The mask without its regions (8-connected, non-zero) of fewer than `minimumPixels` pixels.
    public func keepingComponents(ofAtLeast minimumPixels: Int) -> GrayImage {
        let (label, sizes) = components()
        return keeping(label, sizes, atLeast: Double(minimumPixels))
    }

    private func keeping(_ label: [Int32], _ sizes: [Int], atLeast minimum: Double) -> GrayImage {
        var out = self
        for i in pixels.indices where label[i] >= 0 && Double(sizes[Int(label[i])]) < minimum { out.pixels[i] = 0 }
        return out
    }

    /// Each pixel's region (-1 for zero pixels) and each region's size.
    private func components() -> (label: [Int32], sizes: [Int]) {
        var label = [Int32](repeating: -1, count: pixels.count)
        var sizes: [Int] = []
        var stack: [Int] = []
        for start in pixels.indices where pixels[start] != 0 && label[start] < 0 {
            let id = Int32(sizes.count)
            var size = 0
            label[start] = id
            stack.append(start)
            while let i = stack.popLast() {
                size += 1
                let x = i % width, y = i / width
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let j = ny * width + nx
                        if pixels[j] != 0 && label[j] < 0 {
                            label[j] = id
                            stack.append(j)
                        }
                    }
                }
            }
            sizes.append(size)
        }
        return (label, sizes)
    }
}

