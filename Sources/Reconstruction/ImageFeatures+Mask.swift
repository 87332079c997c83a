import ReconstructionCore

extension ImageFeatures {
    /// The features whose keypoints fall where `mask` is non-zero. The mask may have any size: it
    /// is stretched over the image (nearest pixel).
    public func inside(mask: GrayImage) -> ImageFeatures {
        guard mask.width > 0, mask.height > 0, imageWidth > 0, imageHeight > 0 else { return self }
        let sx = Float(mask.width) / Float(imageWidth), sy = Float(mask.height) / Float(imageHeight)
        var keep: [Int] = []
        keep.reserveCapacity(count)
        mask.pixels.withUnsafeBufferPointer { m in
            for i in 0..<count {
                let x = min(mask.width - 1, max(0, Int(positions[2 * i] * sx)))
                let y = min(mask.height - 1, max(0, Int(positions[2 * i + 1] * sy)))
                if m[y * mask.width + x] != 0 { keep.append(i) }
            }
        }
        guard keep.count < count else { return self }
        var out = ImageFeatures(imageWidth: imageWidth, imageHeight: imageHeight, positions: [], scales: [],
                                descriptors: [], colors: [])
        out.positions.reserveCapacity(2 * keep.count)
        out.scales.reserveCapacity(keep.count)
        out.descriptors.reserveCapacity(128 * keep.count)
        out.colors.reserveCapacity(3 * keep.count)
        for i in keep {
            out.positions += [positions[2 * i], positions[2 * i + 1]]
            out.scales.append(scales[i])
            out.descriptors += descriptors[(128 * i)..<(128 * i + 128)]
            out.colors += colors[(3 * i)..<(3 * i + 3)]
        }
        return out
    }
}
