import Foundation
import ReconstructionCore
import Rendering

/// Renders a textured mesh's base colour (unlit) through a camera, to compare it with a photo
/// taken from there: the texture-fidelity check.
public struct TexturedModelRenderer: Sendable {
    public init() {}

    /// The rendered colour and which pixels the model covers.
    public func render(mesh: TexturedMesh, diffuse: RGBImage, intrinsics: CameraIntrinsics,
                       cameraFromWorld: RigidTransform) -> (image: RGBImage, covered: [Bool]) {
        var options = MeshRasterizer.Options()
        options.culling = .none
        options.supersampling = 1
        let geometry = MeshRasterizer(options: options).geometry(of: mesh.triangleMesh, intrinsics: intrinsics, cameraFromWorld: cameraFromWorld)
        var pixels = [UInt8](repeating: 0, count: geometry.width * geometry.height * 3)
        var covered = [Bool](repeating: false, count: geometry.width * geometry.height)
        let size = SIMD2<Float>(Float(diffuse.width), Float(diffuse.height))
        for y in 0..<geometry.height {
            for x in 0..<geometry.width {
                guard let hit = geometry.hit(x: x, y: y) else { continue }
                let t = mesh.uvTriangles[hit.triangle], w = hit.barycentrics
                let uv = mesh.uvs[Int(t.x)] * w.x + mesh.uvs[Int(t.y)] * w.y + mesh.uvs[Int(t.z)] * w.z
                let c = TexelObserver.bilinear(diffuse, uv * size)
                let k = y * geometry.width + x
                for ch in 0..<3 { pixels[k * 3 + ch] = UInt8(clamping: Int(c[ch].rounded())) }
                covered[k] = true
            }
        }
        return (RGBImage(width: geometry.width, height: geometry.height, pixels: pixels), covered)
    }

    /// Peak signal-to-noise ratio (dB, 8-bit peak 255) between two images of one size over the
    /// pixels where `include` is true; nil when no pixel is included.
    public static func psnr(_ a: RGBImage, _ b: RGBImage, include: [Bool]) -> Double? {
        precondition(a.width == b.width && a.height == b.height && include.count == a.width * a.height)
        var sum = 0.0, n = 0
        for k in include.indices where include[k] {
            for ch in 0..<3 {
                let d = Double(a.pixels[k * 3 + ch]) - Double(b.pixels[k * 3 + ch])
                sum += d * d
            }
            n += 3
        }
        guard n > 0 else { return nil }
        let mse = sum / Double(n)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
