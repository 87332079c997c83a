import CReconstruction
import Reconstruction
import ReconstructionCore
import XCTest

/// `rc_patch_match` rejects bad arguments with a status and a message, never a crash.
final class PatchMatchErrorPathTests: XCTestCase {
    static let width = 16, height = 12
    let gray = [UInt8]((0..<(width * height)).map { UInt8(($0 * 37) % 251) })

    func options(min: Float = 1, max: Float = 10) -> rc_patch_match_options {
        rc_patch_match_options(depth_min: min, depth_max: max, iterations: 1, window_radius: 2, window_step: 1,
                               sigma_spatial: 2, sigma_color: 10, min_texture: 0, good_cost: 0.8, bad_cost: 1.2,
                               min_good: 1, max_bad: 3, geometric_weight: 0.2, geometric_max_error: 3,
                               depth_perturbation: 0.02, normal_perturbation: 0.3, random_hypotheses: 1, seed: 1,
                               num_threads: 1, portable_kernel: 0)
    }

    func view(_ pixels: UnsafePointer<UInt8>?, pixelCount: Int = width * height, x: Double = 0) -> rc_stereo_view {
        rc_stereo_view(width: Int32(Self.width), height: Int32(Self.height), pixel_count: pixelCount, gray: pixels,
                       fx: 20, fy: 20, cx: 8, cy: 6, rotation: (1, 0, 0, 0, 1, 0, 0, 0, 1), translation: (x, 0, 0), depth: nil)
    }

    /// Runs the call and returns its status and message.
    func call(reference: rc_stereo_view?, sources: [rc_stereo_view], options: rc_patch_match_options?,
              outputs: Bool = true) -> (Int32, String) {
        var depth = [Float](repeating: 0, count: Self.width * Self.height)
        var normal = [Float](repeating: 0, count: 3 * Self.width * Self.height)
        var cost = [Float](repeating: 0, count: Self.width * Self.height)
        var error = rc_error()
        var reference = reference
        var options = options
        var sources = sources
        let status = withOptionalPointer(&reference) { r in
            withOptionalPointer(&options) { o in
                sources.withUnsafeMutableBufferPointer { s in
                    outputs
                        ? rc_patch_match(r, s.baseAddress, Int32(s.count), nil, nil, nil, o, &depth, &normal, &cost, &error)
                        : rc_patch_match(r, s.baseAddress, Int32(s.count), nil, nil, nil, o, nil, nil, nil, &error)
                }
            }
        }
        let message = withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (status, message)
    }

    func withOptionalPointer<T, R>(_ value: inout T?, _ body: (UnsafePointer<T>?) -> R) -> R {
        guard var unwrapped = value else { return body(nil) }
        return withUnsafePointer(to: &unwrapped) { body($0) }
    }

    func testValidArgumentsSucceed() {
        gray.withUnsafeBufferPointer { g in
            let (status, message) = call(reference: view(g.baseAddress), sources: [view(g.baseAddress, x: -0.2)], options: options())
            XCTAssertEqual(status, Int32(RC_OK), message)
        }
    }

    func testNullBuffersAreInvalidArguments() {
        gray.withUnsafeBufferPointer { g in
            let good = view(g.baseAddress)
            var (status, message) = call(reference: nil, sources: [good], options: options())
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            XCTAssertFalse(message.isEmpty)
            (status, message) = call(reference: good, sources: [good], options: nil)
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            (status, message) = call(reference: view(nil), sources: [good], options: options())
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            XCTAssertTrue(message.contains("null"), message)
            (status, message) = call(reference: good, sources: [view(nil)], options: options())
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            (status, message) = call(reference: good, sources: [good], options: options(), outputs: false)
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            XCTAssertTrue(message.contains("output"), message)
            (status, message) = call(reference: good, sources: [], options: options())
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            XCTAssertTrue(message.contains("source_count"), message)
        }
    }

    func testSizeMismatchIsAnInvalidArgument() {
        gray.withUnsafeBufferPointer { g in
            let (status, message) = call(reference: view(g.baseAddress, pixelCount: 100), sources: [view(g.baseAddress)],
                                         options: options())
            XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT))
            XCTAssertTrue(message.contains("pixel_count"), message)
            let (sourceStatus, _) = call(reference: view(g.baseAddress), sources: [view(g.baseAddress, pixelCount: 0)],
                                         options: options())
            XCTAssertEqual(sourceStatus, Int32(RC_INVALID_ARGUMENT))
        }
    }

    func testEmptyOrNonPositiveDepthRangeIsAnInvalidArgument() {
        gray.withUnsafeBufferPointer { g in
            for (low, high) in [(Float(5), Float(5)), (5, 2), (0, 3), (-1, 3), (1, .infinity), (.nan, 2)] {
                let (status, message) = call(reference: view(g.baseAddress), sources: [view(g.baseAddress)],
                                             options: options(min: low, max: high))
                XCTAssertEqual(status, Int32(RC_INVALID_ARGUMENT), "\(low)…\(high)")
                XCTAssertTrue(message.contains("depth range"), message)
            }
        }
    }

    func testBadWindowAndIterationOptionsAreInvalidArguments() {
        gray.withUnsafeBufferPointer { g in
            var o = options()
            o.window_step = 3  // larger than the radius
            XCTAssertEqual(call(reference: view(g.baseAddress), sources: [view(g.baseAddress)], options: o).0, Int32(RC_INVALID_ARGUMENT))
            o = options()
            o.iterations = 0
            XCTAssertEqual(call(reference: view(g.baseAddress), sources: [view(g.baseAddress)], options: o).0, Int32(RC_INVALID_ARGUMENT))
            o = options()
            o.num_threads = 0
            XCTAssertEqual(call(reference: view(g.baseAddress), sources: [view(g.baseAddress)], options: o).0, Int32(RC_INVALID_ARGUMENT))
        }
    }

    func testBridgeRejectsMismatchedMaskAndIntrinsics() {
        let image = GrayImage(width: Self.width, height: Self.height, pixels: gray)
        let k = CameraIntrinsics(width: Self.width, height: Self.height, fx: 20, fy: 20, cx: 8, cy: 6)
        let reference = DepthMapEstimator.View(image: image, intrinsics: k, cameraFromWorld: .identity)
        let source = DepthMapEstimator.View(image: image, intrinsics: k,
                                            cameraFromWorld: RigidTransform(rotation: .identity, translation: Vector3(-0.2, 0, 0)))
        XCTAssertThrowsError(try DepthMapEstimator().estimate(reference: reference, sources: [source], depthRange: 1...10,
                                                              mask: GrayImage(width: 3, height: 3))) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
        var wrongSize = source
        wrongSize.intrinsics = k.scaled(toWidth: 32, height: 24)
        XCTAssertThrowsError(try DepthMapEstimator().estimate(reference: reference, sources: [wrongSize], depthRange: 1...10))
        XCTAssertThrowsError(try DepthMapEstimator().estimate(reference: reference, sources: [source], depthRange: 3...3)) { error in
            XCTAssertEqual((error as? ShimError)?.kind, .invalidArgument)
        }
    }
}
