import Foundation
import ReconstructionCore
import Rendering

/// Depth of the model seen from each view, at a reduced resolution: a surface point is visible in
/// a view when its depth matches the nearest surface there (within a tolerance).
struct VisibilityBuffers: Sendable {
    /// Per view: depth buffer (0 = nothing), its size and its scale from photo pixels.
    let depths: [[Float]]
    let sizes: [(width: Int, height: Int)]
    let scales: [Float]
    let relativeTolerance: Float
    let absoluteTolerance: Float

    init(mesh: TriangleMesh, views: [BakingView], longerSide: Int, relativeTolerance: Float, absoluteTolerance: Float, workers: Int) {
        var rasterizerOptions = MeshRasterizer.Options()
        rasterizerOptions.culling = .none
        rasterizerOptions.supersampling = 1
        let rasterizer = MeshRasterizer(options: rasterizerOptions)
        let buffers = parallelMap(views.count, workers: workers) { v -> ([Float], Int, Int, Float) in
            let k = views[v].intrinsics
            // A view cut from a photo gets the density the whole photo would.
            let scale = min(1, Float(longerSide) / Float(views[v].uncroppedLongerSide ?? max(k.width, k.height)))
            let w = max(1, Int((Float(k.width) * scale).rounded())), h = max(1, Int((Float(k.height) * scale).rounded()))
            var pinhole = k.scaled(toWidth: w, height: h)
            pinhole.k1 = 0
            pinhole.k2 = 0
            let geometry = rasterizer.geometry(of: mesh, intrinsics: pinhole, cameraFromWorld: views[v].cameraFromWorld)
            return (geometry.depth, w, h, Float(w) / Float(k.width))
        }
        depths = buffers.map(\.0)
        sizes = buffers.map { ($0.1, $0.2) }
        scales = buffers.map(\.3)
        self.relativeTolerance = relativeTolerance
        self.absoluteTolerance = absoluteTolerance
    }

    /// Whether `point` (world) is the nearest surface in view `view`, and in its frame.
    @inline(__always) func sees(view: Int, point: SIMD3<Float>, camera: BakingCamera) -> Bool {
        let q = camera.camera(point)
        return sees(view: view, cameraPoint: q, camera: camera)
    }

    @inline(__always) func sees(view: Int, cameraPoint q: SIMD3<Float>, camera: BakingCamera) -> Bool {
        guard q.z > 0 else { return false }
        let p = camera.pinholePixel(q, scale: scales[view])
        let (w, h) = sizes[view]
        guard p.x >= 0, p.y >= 0, p.x < Float(w), p.y < Float(h) else { return false }
        let d = depths[view][Int(p.y) * w + Int(p.x)]
        // Nothing drawn there: the point lies on a silhouette edge of the reduced buffer.
        return d <= 0 || q.z <= d + relativeTolerance * q.z + absoluteTolerance
    }

    /// 1 inside a smooth visible region; `edgeWeight` when a neighbouring depth-buffer pixel shows
    /// nothing or a nearer surface, i.e. next to a silhouette or an occluding edge, where a photo's
    /// pixel mixes the surface with what lies beside or in front of it.
    @inline(__always) func interiorWeight(view: Int, cameraPoint q: SIMD3<Float>, camera: BakingCamera, edgeWeight: Float) -> Float {
        let p = camera.pinholePixel(q, scale: scales[view])
        let (w, h) = sizes[view]
        let x = Int(p.x), y = Int(p.y)
        let tolerance = relativeTolerance * q.z + absoluteTolerance
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let xx = x + dx, yy = y + dy
            guard xx >= 0, yy >= 0, xx < w, yy < h else { return edgeWeight }
            let d = depths[view][yy * w + xx]
            if d <= 0 || d < q.z - tolerance { return edgeWeight }
        }
        return 1
    }
}
