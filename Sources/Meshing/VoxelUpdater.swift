/// Updates the voxels of one block from one depth map (projective TSDF update).
struct VoxelUpdater: Sendable {
    let observations: DepthObservations
    let camera: ProjectiveCamera
    let colour: ColourSampler?
    /// Truncation distance in metres.
    let truncation: Float
    /// Voxels nearer to the camera than this (metres, along z) are not updated.
    let minimumDepth: Float

    /// Updates the 8³ voxels at `block`, whose first voxel centre is at `originWorld` (metres).
    /// With `box`, voxels whose centres lie outside it are left alone.
    func update(block: UnsafeMutablePointer<TSDFVoxel>, originWorld: SIMD3<Float>, voxelSize: Float, box: BoxClip?) {
        let colourPixels = colour?.image.pixels ?? []
        observations.depth.withUnsafeBufferPointer { depth in
            observations.distanceScale.withUnsafeBufferPointer { distanceScale in
                observations.weight.withUnsafeBufferPointer { weight in
                    colourPixels.withUnsafeBufferPointer { rgb in
                        update(block: block, originWorld: originWorld, voxelSize: voxelSize, box: box,
                               depth: depth, distanceScale: distanceScale, weight: weight, rgb: rgb)
                    }
                }
            }
        }
    }

    @inline(__always)
    private func update(block: UnsafeMutablePointer<TSDFVoxel>, originWorld: SIMD3<Float>, voxelSize: Float, box: BoxClip?,
                        depth: UnsafeBufferPointer<Float>, distanceScale: UnsafeBufferPointer<Float>,
                        weight: UnsafeBufferPointer<Float>, rgb: UnsafeBufferPointer<UInt8>) {
        let side = TSDFVolume.blockSide
        let camera = self.camera
        let width = observations.width, height = observations.height
        let widthF = Float(width), heightF = Float(height)
        let truncation = self.truncation, minimumDepth = self.minimumDepth
        let consistentSpread = truncation * 0.5  // largest depth spread of a smooth 2 × 2 patch, metres
        let start = camera.cameraPoint(originWorld)
        let stepX = camera.cameraDirection(SIMD3(voxelSize, 0, 0))
        let stepY = camera.cameraDirection(SIMD3(0, voxelSize, 0))
        let stepZ = camera.cameraDirection(SIMD3(0, 0, voxelSize))
        for z in 0..<side {
            for y in 0..<side {
                var pc = start + Float(y) * stepY + Float(z) * stepZ
                for x in 0..<side {
                    defer { pc += stepX }
                    if pc.z < minimumDepth { continue }
                    if let box, !box.contains(originWorld + SIMD3(Float(x), Float(y), Float(z)) * voxelSize) { continue }
                    let inverseZ = 1 / pc.z
                    let u = pc.x * inverseZ, v = pc.y * inverseZ
                    let p = camera.pixel(normalisedX: u, normalisedY: v)
                    guard p.x >= 0, p.y >= 0, p.x < widthF, p.y < heightF else { continue }
                    let pixel = Int(p.y) * width + Int(p.x)
                    var measured = depth[pixel]
                    if measured <= 0 { continue }
                    let observationWeight = weight[pixel]
                    if observationWeight <= 0 { continue }

                    // Bilinear depth between the four nearest pixel centres (extrapolated by up to
                    // half a pixel along the image border). Where one of them is missing or they
                    // disagree (a depth edge, a silhouette seen at a grazing angle) the nearest
                    // pixel's depth would be off by up to its footprint over the slope, so the
                    // voxel is left to other views; unless the pixels lie on a straight ramp (a
                    // surface seen at a grazing angle, such as a floor from standing height, which
                    // may have no other view).
                    if width > 1, height > 1 {
                        let sx = p.x - 0.5, sy = p.y - 0.5
                        let x0 = min(max(Int(sx.rounded(.down)), 0), width - 2)
                        let y0 = min(max(Int(sy.rounded(.down)), 0), height - 2)
                        let i = y0 * width + x0
                        let d00 = depth[i], d10 = depth[i + 1], d01 = depth[i + width], d11 = depth[i + width + 1]
                        let lo = min(min(d00, d10), min(d01, d11)), hi = max(max(d00, d10), max(d01, d11))
                        if lo > 0, hi - lo < consistentSpread
                            || Self.isSmoothRamp(depth, x0: x0, y0: y0, width: width, height: height,
                                                 tolerance: consistentSpread * 0.5) {
                            let ax = sx - Float(x0), ay = sy - Float(y0)
                            measured = (d00 * (1 - ax) + d10 * ax) * (1 - ay) + (d01 * (1 - ax) + d11 * ax) * ay
                        } else { continue }
                    }

                    // Distance along the ray (depth difference × ray length per unit depth). The
                    // band (± truncation) is measured along the ray, so a grazing view reaches no
                    // deeper behind the surface than a frontal one; the value stored is optionally
                    // turned towards the surface normal.
                    let alongRay = (measured - pc.z) * (1 + u * u + v * v).squareRoot()
                    if alongRay < -truncation { continue }
                    let clamped = min(alongRay * distanceScale[pixel], truncation)
                    let voxel = block + (x + side * (y + side * z))
                    let oldWeight = voxel.pointee.weight
                    let newWeight = oldWeight + observationWeight
                    voxel.pointee.distance = (voxel.pointee.distance * oldWeight + clamped * observationWeight) / newWeight
                    voxel.pointee.weight = newWeight
                    if let colour, alongRay < truncation {
                        let sample = colour.sample(p, pixels: rgb)
                        let previousWeight = voxel.pointee.colourFlag != 0 ? oldWeight : 0
                        let old = SIMD3<Float>(Float(voxel.pointee.red), Float(voxel.pointee.green), Float(voxel.pointee.blue))
                        let mixed = (old * previousWeight + sample * observationWeight) / (previousWeight + observationWeight)
                        let rounded = (mixed + 0.5).clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
                        voxel.pointee.red = UInt8(rounded.x)
                        voxel.pointee.green = UInt8(rounded.y)
                        voxel.pointee.blue = UInt8(rounded.z)
                        voxel.pointee.colourFlag = 1
                    }
                }
            }
        }
    }

    /// Whether the 2 × 2 pixels from (`x0`, `y0`) lie on a smooth surface however steep: along
    /// both rows and both columns through them, four consecutive depths (one more pixel on each
    /// side) are all present and bend by less than `tolerance` (second differences). A surface
    /// seen at a grazing angle passes; a depth edge, whose depths jump between two pixels and stay
    /// level on either side, does not.
    @inline(__always)
    static func isSmoothRamp(_ depth: UnsafeBufferPointer<Float>, x0: Int, y0: Int, width: Int, height: Int,
                             tolerance: Float) -> Bool {
        guard x0 >= 1, y0 >= 1, x0 + 2 < width, y0 + 2 < height else { return false }
        func straight(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Bool {
            a > 0 && b > 0 && c > 0 && d > 0 && abs(a - 2 * b + c) < tolerance && abs(b - 2 * c + d) < tolerance
        }
        let i = y0 * width + x0, j = i + width  // the 2 × 2's top-left and bottom-left pixels
        return straight(depth[i - 1], depth[i], depth[i + 1], depth[i + 2])
            && straight(depth[j - 1], depth[j], depth[j + 1], depth[j + 2])
            && straight(depth[i - width], depth[i], depth[j], depth[j + width])
            && straight(depth[i + 1 - width], depth[i + 1], depth[j + 1], depth[j + 1 + width])
    }
}
