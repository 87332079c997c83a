import ReconstructionCore
import Rendering
import Texturing
import XCTest

/// A baking view cut to where the surface appears samples the same photo and mask pixels, and
/// bakes the same texture, as the whole photo.
final class BakingViewCropTests: XCTestCase {
    /// A small plane seen from 3 m: it covers the middle of the 320 × 240 photo.
    private let plane = Fixtures.grid(n: 4, half: 0.25)
    private let pose = Fixtures.camera(at: SIMD3(0.3, 0.2, 3), lookingAt: .zero)

    private func view(mask: GrayImage? = nil) -> BakingView {
        BakingView(name: "0", image: Fixtures.photo(of: plane.triangleMesh, from: pose, albedo: DiffuseBakerTests.ramp),
                   intrinsics: Fixtures.intrinsics, cameraFromWorld: pose, mask: mask)
    }

    /// Pixel of `p` through `k` and `pose` (pinhole; the fixtures have no distortion).
    private func pixel(_ p: SIMD3<Float>, _ k: CameraIntrinsics) -> SIMD2<Double> {
        let q = pose.apply(Vector3(Double(p.x), Double(p.y), Double(p.z)))
        return SIMD2(k.fx * q.x / q.z + k.cx, k.fy * q.y / q.z + k.cy)
    }

    func testTheCutKeepsEveryPointsPixelsAndMovesTheCamera() throws {
        // A mask at half the photo's resolution, its left half background.
        var mask = GrayImage(width: 160, height: 120, fill: 255)
        for y in 0..<120 { for x in 0..<80 { mask.pixels[y * 160 + x] = UInt8(x % 7) } }
        let whole = view(mask: mask)
        let cut = whole.cropped(toProjectionsOf: plane.positions, margin: 4)
        XCTAssertLessThan(cut.image.width * cut.image.height * 2, whole.image.width * whole.image.height, "the plane covers well under half the photo")
        let dx = Int((whole.intrinsics.cx - cut.intrinsics.cx).rounded()), dy = Int((whole.intrinsics.cy - cut.intrinsics.cy).rounded())
        XCTAssertEqual(Double(dx), whole.intrinsics.cx - cut.intrinsics.cx)
        XCTAssertEqual(cut.intrinsics.fx, whole.intrinsics.fx)
        XCTAssertEqual(cut.intrinsics.width, cut.image.width)
        XCTAssertEqual(dx % 2, 0, "the cut's edges fall on the half-resolution mask's grid")
        XCTAssertNil(whole.uncroppedLongerSide)
        XCTAssertEqual(cut.uncroppedLongerSide, 320, "visibility keeps the whole photo's density")
        XCTAssertEqual(cut.cropped(toProjectionsOf: Array(plane.positions.prefix(3)), margin: 2).uncroppedLongerSide, 320)
        for y in 0..<cut.image.height {
            for x in 0..<cut.image.width {
                for c in 0..<3 {
                    XCTAssertEqual(cut.image.pixels[(y * cut.image.width + x) * 3 + c], whole.image.pixels[((y + dy) * 320 + x + dx) * 3 + c])
                }
            }
        }
        let cutMask = try XCTUnwrap(cut.mask)
        XCTAssertEqual(cutMask.width * 2, cut.image.width)
        XCTAssertEqual(cutMask.height * 2, cut.image.height)
        for y in 0..<cutMask.height { for x in 0..<cutMask.width {
            XCTAssertEqual(cutMask.pixels[y * cutMask.width + x], mask.pixels[(y + dy / 2) * 160 + x + dx / 2])
        } }
        for p in plane.positions {
            let inCut = pixel(p, cut.intrinsics), inWhole = pixel(p, whole.intrinsics)
            XCTAssertEqual(inCut.x + Double(dx), inWhole.x, accuracy: 1e-9)
            XCTAssertGreaterThanOrEqual(inCut.x, 4)
            XCTAssertGreaterThanOrEqual(inCut.y, 4)
            XCTAssertLessThanOrEqual(inCut.x, Double(cut.image.width - 4))
            XCTAssertLessThanOrEqual(inCut.y, Double(cut.image.height - 4))
        }
    }

    func testTheWholePhotoStaysWhenItCannotOrNeedNotBeCut() {
        let whole = view()
        // A point behind the camera (a scene around it).
        XCTAssertEqual(whole.cropped(toProjectionsOf: plane.positions + [SIMD3(0.3, 0.2, 4)]).image.width, 320)
        // Points filling the photo.
        XCTAssertEqual(whole.cropped(toProjectionsOf: Fixtures.grid(n: 4, half: 3).positions).image.width, 320)
        // A mask whose pixel grid shares no edges with the photo's but the outer ones.
        let odd = view(mask: GrayImage(width: 101, height: 76, fill: 255))
        XCTAssertEqual(odd.cropped(toProjectionsOf: plane.positions).image.width, 320)
        XCTAssertEqual(odd.cropped(toProjectionsOf: plane.positions).mask?.width, 101)
    }

    func testCutViewsBakeTheSameTexture() {
        let poses = [pose, Fixtures.camera(at: SIMD3(-0.5, 0.1, 2.8), lookingAt: .zero)]
        let views = Fixtures.views(of: plane.triangleMesh, from: poses, albedo: DiffuseBakerTests.ramp)
        let surface = TexelSurface(mesh: plane, texels: AtlasTexelMap(mesh: plane, width: 48, height: 48))
        var options = DiffuseBaker.Options()
        options.balanceExposure = false
        let whole = DiffuseBaker(options: options).bake(surface: surface, views: views, roughness: false)
        let cut = DiffuseBaker(options: options).bake(surface: surface, views: views.map { $0.cropped(toProjectionsOf: plane.positions) },
                                                      roughness: false)
        XCTAssertEqual(whole.seenFraction, cut.seenFraction, accuracy: 0.01)
        let worst = zip(whole.diffuse.pixels, cut.diffuse.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
        XCTAssertLessThanOrEqual(worst, 2, "largest texel difference, 8-bit levels")
    }
}
