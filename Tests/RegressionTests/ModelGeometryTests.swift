import Foundation
import CaptureIO
import ModelExport
import PhotogrammetryKit
import Reconstruction
import ReconstructionCore
import Regression
import SyntheticCapture
import XCTest

/// A model request's geometry is in the frame and units of the session's `bounds` result: the box
/// `bounds` gives crops what it bounds, on a capture whose depth sidecars make the model metric
/// while structure from motion's own units are not metres.
final class ModelGeometryTests: XCTestCase {
    typealias Session = PhotogrammetrySession

    private func run(_ session: Session, _ requests: [Session.Request]) async throws -> [Session.Output] {
        try session.process(requests: requests)
        var outputs: [Session.Output] = []
        for await output in session.outputs {
            outputs.append(output)
            if case .processingComplete = output { break }
        }
        for case .requestError(let request, let error) in outputs { XCTFail("\(request): \(error)") }
        return outputs
    }

    /// Smallest and largest vertex coordinates of a GLB model.
    private func extent(_ url: URL) throws -> (min: Vector3, max: Vector3) {
        let positions = try GLBReader.read(url).mesh.positions
        XCTAssertFalse(positions.isEmpty, url.lastPathComponent)
        var lo = Vector3(.infinity, .infinity, .infinity), hi = Vector3(-.infinity, -.infinity, -.infinity)
        for p in positions {
            let v = Vector3(Double(p.x), Double(p.y), Double(p.z))
            lo = Vector3(min(lo.x, v.x), min(lo.y, v.y), min(lo.z, v.z))
            hi = Vector3(max(hi.x, v.x), max(hi.y, v.y), max(hi.z, v.z))
        }
        return (lo, hi)
    }

    func testTheBoundsResultCropsAModelWithDepthScale() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-geometry-\(UUID())")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let capture = SyntheticCapture(scene: .texturedVase, views: 24, seed: 5, imageWidth: 480, imageHeight: 360)
        let images = try SyntheticCaptureWriter.write(capture, to: folder.appendingPathComponent("capture"))
        let session = try Session(input: images, intrinsics: try PinholeIntrinsics.load(kFile: images.appendingPathComponent("K.txt")))

        let posesRun = try await run(session, [.poses, .bounds])
        let box = try XCTUnwrap(posesRun.lazy.compactMap { output -> BoundingBox? in
            if case .requestComplete(_, .bounds(let box)) = output { return box } else { return nil }
        }.first)
        let poses = try XCTUnwrap(posesRun.lazy.compactMap { output -> Session.Poses? in
            if case .requestComplete(_, .poses(let poses)) = output { return poses } else { return nil }
        }.first)
        XCTAssertEqual(poses.posesBySample.count, capture.viewCount)
        // Metres per pose unit: the true cameras' spread over the estimated ones'.
        let scale = try XCTUnwrap(capture.shots.map(\.worldFromCamera.translation).rmsSpread)
            / XCTUnwrap(poses.posesBySample.values.map(\.worldFromCamera.translation).rmsSpread)
        XCTAssertFalse(abs(scale - 1) < 0.2, "this test needs pose units that are not metres (scale \(scale))")

        // The whole box, placed as the world is (identity): the model is in metres, the box is not.
        let whole = folder.appendingPathComponent("whole.glb")
        let identity = SimilarityTransform(scale: 1, rotation: .identity, translation: Vector3(0, 0, 0))
        _ = try await run(session, [.modelFile(url: whole, detail: .preview, geometry: .init(bounds: box, modelFromWorld: identity))])
        let all = try extent(whole)
        let diagonal = (all.max - all.min).length
        XCTAssertEqual(diagonal, capture.objectBounds.diagonal, accuracy: 0.5 * capture.objectBounds.diagonal,
                       "the whole object, in metres (true diagonal \(capture.objectBounds.diagonal) m)")

        // The box's lower half along x (the session's units) keeps the lower half of the model.
        var half = box
        half.halfExtents.x /= 2
        half.centre.x -= box.halfExtents.x / 2
        let shift = Vector3(0.5, 0, 0)  // pose units
        let halfURL = folder.appendingPathComponent("half.glb")
        _ = try await run(session, [.modelFile(url: halfURL, detail: .preview,
                                               geometry: .init(bounds: half, modelFromWorld: SimilarityTransform(scale: 1, rotation: .identity, translation: shift)))])
        let cut = try extent(halfURL)
        let width = all.max.x - all.min.x
        XCTAssertLessThan(cut.max.x - cut.min.x, 0.65 * width, "a half-width box keeps about half the width")
        XCTAssertGreaterThan(cut.max.x - cut.min.x, 0.3 * width)
        // The translation is in the session's units too: 0.5 units moves the model by 0.5 × scale metres.
        XCTAssertEqual(cut.min.x - all.min.x, shift.x * scale, accuracy: 0.03 * shift.x * scale + 0.02 * width,
                       "the lower half, moved by the translation (\(shift.x) units of \(scale) m)")
        XCTAssertEqual(cut.min.y, all.min.y, accuracy: 0.05 * width)
    }
}
