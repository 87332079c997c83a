import Foundation
import ReconstructionCore
import Rendering

/// Turns exact depth at LiDAR resolution into a LiDAR-like depth map and confidence map.
enum LiDARSimulator {
    /// Why a pixel has no return.
    private enum Loss: UInt8 {
        case none = 0, noSurface, beyondRange, grazing, depthEdge, dropout
    }

    /// Depth with noise and lost returns, and ARKit-style confidence.
    /// - Parameters:
    ///   - geometry: exact depth and triangles at the LiDAR's pixel centres.
    ///   - faceNormals: unit normal of each triangle of the rendered mesh, in its frame.
    ///   - intrinsics: the LiDAR image's intrinsics.
    ///   - worldFromCamera: the LiDAR camera's pose in the mesh's frame.
    ///   - random: the view's generator for noise and dropouts (one uniform and one normal per pixel).
    static func simulate(
        geometry g: GeometryBuffer, faceNormals: [SIMD3<Float>], intrinsics: CameraIntrinsics,
        worldFromCamera: RigidTransform, model: LiDARModel, random: inout SplitMix64
    ) -> (depth: DepthMap, confidence: GrayImage) {
        let width = g.width, height = g.height, count = width * height
        let m = worldFromCamera.rotation.m
        let rotation = (SIMD3<Float>(Float(m[0]), Float(m[3]), Float(m[6])),
                        SIMD3<Float>(Float(m[1]), Float(m[4]), Float(m[7])),
                        SIMD3<Float>(Float(m[2]), Float(m[5]), Float(m[8])))  // columns
        let grazingCosine = cos(model.grazingLimitDegrees * .pi / 180)
        let mediumCosine = cos(model.mediumConfidenceAngleDegrees * .pi / 180)
        var loss = [Loss](repeating: .none, count: count)
        var cosine = [Float](repeating: 0, count: count)
        for y in 0..<height {
            for x in 0..<width {
                let k = y * width + x
                let d = g.depth[k]
                guard d > 0 else {
                    loss[k] = .noSurface
                    continue
                }
                let u = Float((Double(x) + 0.5 - intrinsics.cx) / intrinsics.fx)
                let v = Float((Double(y) + 0.5 - intrinsics.cy) / intrinsics.fy)
                let ray = (rotation.0 * u + rotation.1 * v + rotation.2) / (u * u + v * v + 1).squareRoot()
                let n = faceNormals[Int(g.triangleIndex[k])]
                cosine[k] = abs(n.x * ray.x + n.y * ray.y + n.z * ray.z)
                if d > model.maximumRange {
                    loss[k] = .beyondRange
                } else if cosine[k] < grazingCosine {
                    loss[k] = .grazing
                } else if onDepthEdge(g.depth, x: x, y: y, width: width, height: height, jump: model.depthEdgeJump) {
                    loss[k] = .depthEdge
                }
            }
        }
        var depth = [Float](repeating: 0, count: count)
        for k in 0..<count {
            let dropout = random.unit()
            let normal = random.gaussian()
            guard loss[k] == .none else { continue }
            if Float(dropout) < model.dropoutProbability {
                loss[k] = .dropout
                continue
            }
            let d = g.depth[k]
            depth[k] = max(d + model.noiseSigma(atDepth: d) * Float(normal), 0.001)
        }
        var confidence = [UInt8](repeating: LiDARModel.Confidence.low.rawValue, count: count)
        let mediumRange = model.mediumConfidenceRangeFraction * model.maximumRange
        for y in 0..<height {
            for x in 0..<width {
                let k = y * width + x
                guard loss[k] == .none else { continue }
                var level = LiDARModel.Confidence.high
                if cosine[k] < mediumCosine || g.depth[k] > mediumRange {
                    level = .medium
                } else {
                    // Next to a silhouette, a depth edge or a grazing surface.
                    outer: for dy in -1...1 {
                        for dx in -1...1 {
                            let nx = x + dx, ny = y + dy
                            guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                            switch loss[ny * width + nx] {
                            case .noSurface, .grazing, .depthEdge:
                                level = .medium
                                break outer
                            default:
                                break
                            }
                        }
                    }
                }
                confidence[k] = level.rawValue
            }
        }
        return (DepthMap(width: width, height: height, metres: depth), GrayImage(width: width, height: height, pixels: confidence))
    }

    /// Whether a 4-neighbour of (x, y) has no surface or a depth differing by more than `jump` × depth.
    private static func onDepthEdge(_ depth: [Float], x: Int, y: Int, width: Int, height: Int, jump: Float) -> Bool {
        let d = depth[y * width + x]
        @inline(__always) func differs(_ nx: Int, _ ny: Int) -> Bool {
            guard nx >= 0, ny >= 0, nx < width, ny < height else { return false }
            let n = depth[ny * width + nx]
            return n == 0 || abs(n - d) > jump * d
        }
        if differs(x + 1, y) || differs(x - 1, y) || differs(x, y + 1) || differs(x, y - 1) { return true }
        return false
    }
}
