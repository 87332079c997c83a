import CaptureIO
import Foundation
import ReconstructionCore

/// Scores a reconstructed surface against a ground-truth mesh, after bringing it into the
/// ground truth's frame with the similarity that aligns its camera centres to the true ones.
public enum SurfaceEvaluation {
    /// The similarity from the estimated poses' frame to the ground truth's (cameras matched as
    /// `PoseAccuracyReport.evaluate` matches them: by name, or by name without its extension).
    public static func alignment(estimated: [NamedPose], groundTruth: [NamedPose]) -> SimilarityTransform? {
        let pairs = PoseAccuracyReport.matchedPairs(estimated: estimated, groundTruth: groundTruth)
        guard pairs.count >= 3 else { return nil }
        return SimilarityTransform.aligning(pairs.map(\.est.translation), onto: pairs.map(\.truth.translation))
    }

    /// `mesh` moved by `similarity` (positions; normals rotated).
    public static func transformed(_ mesh: TriangleMesh, by similarity: SimilarityTransform) -> TriangleMesh {
        var out = mesh
        out.positions = mesh.positions.map { p in
            let q = similarity.apply(Vector3(Double(p.x), Double(p.y), Double(p.z)))
            return SIMD3(Float(q.x), Float(q.y), Float(q.z))
        }
        if mesh.hasNormals {
            out.normals = mesh.normals.map { n in
                let q = similarity.rotation * Vector3(Double(n.x), Double(n.y), Double(n.z))
                return SIMD3(Float(q.x), Float(q.y), Float(q.z))
            }
        }
        return out
    }

    /// Precision, recall, F-score and chamfer distance of `mesh` (in the frame of `estimated`)
    /// against the ground-truth mesh, cropped to the ground truth's box with a 5 % margin.
    public static func evaluate(mesh: TriangleMesh, estimated: [NamedPose], groundTruth: GroundTruth,
                                thresholdFraction: Double = 0.01) throws -> SurfaceAccuracy {
        guard let meshURL = groundTruth.meshURL else { throw RegressionError.dataset("ground truth", "has no mesh.ply to score surfaces against") }
        guard let similarity = alignment(estimated: estimated, groundTruth: groundTruth.poses) else {
            throw RegressionError.dataset("ground truth", "fewer than 3 registered cameras match it by name: cannot align the surface")
        }
        let truth = try PLYReader.readMesh(meshURL)
        var options = SurfaceAccuracy.Options()
        options.thresholdFraction = thresholdFraction
        options.cropMarginFraction = 0.05
        return try SurfaceAccuracy.evaluate(reconstruction: transformed(mesh, by: similarity), groundTruth: truth, options: options)
    }
}
