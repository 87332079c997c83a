import Foundation
import ReconstructionCore

extension DenseStereo {
    /// Where a view's photo comes from.
    public enum ImageSource: Sendable {
        /// An encoded image file (JPEG decodes directly at the reduced working size).
        case file(URL)
        /// Decoded pixels.
        case pixels(RGBImage)
    }

    /// One posed photo.
    public struct View: Sendable {
        public var name: String
        public var image: ImageSource
        /// Intrinsics of the photo at its own resolution (distortion allowed), pixels.
        public var intrinsics: CameraIntrinsics
        /// The camera's pose: camera axes x right, y down, z forward.
        public var worldFromCamera: RigidTransform
        /// Optional object mask at any resolution (scaled to the working size): depth is estimated
        /// only where it is non-zero.
        public var mask: GrayImage?

        public init(name: String, image: ImageSource, intrinsics: CameraIntrinsics, worldFromCamera: RigidTransform,
                    mask: GrayImage? = nil) {
            self.name = name
            self.image = image
            self.intrinsics = intrinsics
            self.worldFromCamera = worldFromCamera
            self.mask = mask
        }
    }

    /// A sparse scene point and the views (indices into `Input.views`) that observe it.
    public struct SparsePoint: Sendable {
        public var position: Vector3
        public var viewIndices: [Int]
        public init(position: Vector3, viewIndices: [Int]) {
            self.position = position
            self.viewIndices = viewIndices
        }
    }

    /// Posed views and, when known, sparse points (they choose source views and depth ranges).
    public struct Input: Sendable {
        public var views: [View]
        public var points: [SparsePoint]

        public init(views: [View], points: [SparsePoint] = []) {
            self.views = views
            self.points = points
        }

        /// The registered images of a structure-from-motion result, read from `imagesDirectory`
        /// by name, with their points; `masks` by image name.
        public init(scene: SparseScene, imagesDirectory: URL, masks: [String: GrayImage] = [:]) {
            var viewIndexOfImage = [Int](repeating: -1, count: scene.images.count)
            var views: [View] = []
            for (i, image) in scene.images.enumerated() {
                guard let cameraFromWorld = image.cameraFromWorld else { continue }
                viewIndexOfImage[i] = views.count
                views.append(View(name: image.name, image: .file(imagesDirectory.appendingPathComponent(image.name)),
                                  intrinsics: image.intrinsics, worldFromCamera: cameraFromWorld.inverse,
                                  mask: masks[image.name]))
            }
            let points = scene.points.map { point in
                SparsePoint(position: point.position,
                            viewIndices: point.track.map { viewIndexOfImage[$0.imageIndex] }.filter { $0 >= 0 })
            }
            self.init(views: views, points: points)
        }
    }
}
