import ReconstructionCore
import Reporting

/// A picture of a sparse reconstruction: its points, in their colours, seen through one of its
/// registered cameras (far points drawn first), for the regression report.
enum SparseModelView {
    static func render(_ scene: SparseScene, width: Int = 800) -> RGBImage? {
        guard let cameraIndex = scene.images.firstIndex(where: \.isRegistered),
              let cameraFromWorld = scene.images[cameraIndex].cameraFromWorld else { return nil }
        let k = scene.images[cameraIndex].intrinsics
        let scale = Double(width) / Double(max(1, k.width))
        let height = max(1, Int((Double(k.height) * scale).rounded()))
        var projected: [(depth: Double, x: Double, y: Double, color: RGBColor)] = []
        for point in scene.points {
            let p = cameraFromWorld.apply(point.position)
            guard p.z > 0, let pixel = k.project(p) else { continue }
            let x = pixel.x * scale, y = pixel.y * scale
            guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { continue }
            projected.append((p.z, x, y, RGBColor(point.rgb.0, point.rgb.1, point.rgb.2)))
        }
        var canvas = Canvas(width: width, height: height, background: RGBColor(24, 26, 30))
        for p in projected.sorted(by: { $0.depth > $1.depth }) {
            canvas.fillCircle(centre: SIMD2(p.x, p.y), radius: 1.6, color: p.color)
        }
        canvas.drawText("\(projected.count) points seen from \(scene.images[cameraIndex].name)", at: SIMD2(10, 10),
                        scale: 2, color: .white)
        return canvas.image
    }
}
