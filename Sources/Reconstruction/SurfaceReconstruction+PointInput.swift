import Foundation
import Meshing
import ReconstructionCore

extension SurfaceReconstruction {
    /// A point cloud to fuse with the depth maps, e.g. a LiDAR scan in the cameras' world frame.
    public struct PointInput: Sendable {
        /// Points in world (scene) units; normals optional (estimated when missing), colours optional.
        public var cloud: PointCloud
        /// Weight of each point's observation, relative to a depth pixel of weight 1.
        public var weight: Float
        /// Lateral reach of each point, scene units; nil = the larger of 2 voxels and 1.5 × the
        /// cloud's median point spacing, so that neighbouring splats overlap.
        public var footprintRadius: Float?
        /// Where the points were seen from (scene units), to orient estimated normals; empty
        /// uses the depth maps' cameras, or with none, the direction away from the cloud's centroid.
        public var viewpoints: [SIMD3<Float>]
        /// Where the cloud came from (its file), for messages.
        public var name: String?

        public init(cloud: PointCloud, weight: Float = 1, footprintRadius: Float? = nil, viewpoints: [SIMD3<Float>] = [],
                    name: String? = nil) {
            self.name = name
            self.cloud = cloud
            self.weight = weight
            self.footprintRadius = footprintRadius
            self.viewpoints = viewpoints
        }

        /// This input with normals (estimated towards its viewpoints, else `defaultViewpoints`, when missing).
        func oriented(defaultViewpoints: [SIMD3<Float>], workers: Int) -> PointInput {
            guard !cloud.hasNormals else { return self }
            var copy = self
            copy.cloud = cloud.withEstimatedNormals(towards: viewpoints.isEmpty ? defaultViewpoints : viewpoints, workers: workers)
            return copy
        }
    }
}
