import ReconstructionCore
import Rendering

/// Pictures of a reconstructed mesh for reports: the mesh, in its vertex colours with soft
/// shading, seen through some of the scene's registered cameras.
public enum MeshPreview {
    /// Up to `count` views through registered cameras spread over the capture, `width` pixels wide.
    public static func render(_ mesh: TriangleMesh, scene: SparseScene, count: Int = 2, width: Int = 800) -> [RGBImage] {
        let registered = scene.images.filter(\.isRegistered)
        guard !registered.isEmpty, mesh.triangleCount > 0 else { return [] }
        var options = MeshRasterizer.Options()
        options.culling = .none
        options.lighting = Lighting(ambient: 0.55, directionalIntensity: 0, headlightIntensity: 0.45)
        options.background = .color(SIMD3(0.09, 0.1, 0.12))
        let rasterizer = MeshRasterizer(options: options)
        let picks = (0..<min(count, registered.count)).map { registered[$0 * registered.count / max(1, count)] }
        return picks.compactMap { image in
            guard let cameraFromWorld = image.cameraFromWorld else { return nil }
            let k = image.intrinsics
            let height = max(1, width * k.height / max(1, k.width))
            let small = CameraIntrinsics(width: width, height: height,
                                         fx: k.fx * Double(width) / Double(k.width), fy: k.fy * Double(height) / Double(k.height),
                                         cx: k.cx * Double(width) / Double(k.width), cy: k.cy * Double(height) / Double(k.height))
            return rasterizer.render(mesh, intrinsics: small, cameraFromWorld: cameraFromWorld).color
        }
    }
}
