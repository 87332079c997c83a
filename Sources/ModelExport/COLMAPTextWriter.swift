import Foundation
import ReconstructionCore

/// Writes a sparse model in COLMAP's text format: `cameras.txt`, `images.txt` and `points3D.txt`.
///
/// - Cameras: one per distinct `CameraIntrinsics` among the registered images, ids from 1, in
///   order of first use. `PINHOLE fx fy cx cy` without distortion, else
///   `OPENCV fx fy cx cy k1 k2 0 0` (same radial model: x_d = x · (1 + k1 r² + k2 r⁴)).
/// - Images: registered images only, ids 1, 2, … in scene order; the pose is world-to-camera
///   (QW QX QY QZ TX TY TZ), followed by a line of keypoints "X Y POINT3D_ID" in pixels
///   (COLMAP convention), POINT3D_ID = -1 for keypoints without a 3D point.
/// - Points: POINT3D_ID = point index + 1; the track lists (IMAGE_ID, POINT2D_IDX) pairs of
///   registered images only; points with no registered observation are left out.
///
/// Numbers are written with Swift's shortest round-tripping representation (no precision lost).
public enum COLMAPTextWriter {
    public static let camerasFileName = "cameras.txt"
    public static let imagesFileName = "images.txt"
    public static let pointsFileName = "points3D.txt"

    /// Writes the three files into `directory` (created if needed; each file written atomically).
    /// - Throws: `ModelExportError` naming the file that could not be written.
    public static func write(scene: SparseScene, to directory: URL) throws {
        let files = makeFiles(scene: scene)
        try AtomicFileWriter.write(files.cameras, to: directory.appendingPathComponent(camerasFileName, isDirectory: false))
        try AtomicFileWriter.write(files.images, to: directory.appendingPathComponent(imagesFileName, isDirectory: false))
        try AtomicFileWriter.write(files.points, to: directory.appendingPathComponent(pointsFileName, isDirectory: false))
    }

    /// COLMAP image id of each scene image: 1, 2, … over registered images in scene order; nil if unregistered.
    static func imageIDs(of scene: SparseScene) -> [Int?] {
        var next = 1
        return scene.images.map { image in
            guard image.isRegistered else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// The contents of cameras.txt, images.txt and points3D.txt.
    static func makeFiles(scene: SparseScene) -> (cameras: String, images: String, points: String) {
        let imageIDs = imageIDs(of: scene)

        // Cameras: deduplicate equal intrinsics.
        var cameraIDOfKey: [IntrinsicsKey: Int] = [:]
        var cameras: [CameraIntrinsics] = []
        var cameraIDOfImage = [Int](repeating: 0, count: scene.images.count)
        for (index, image) in scene.images.enumerated() where image.isRegistered {
            let key = IntrinsicsKey(image.intrinsics)
            if let id = cameraIDOfKey[key] {
                cameraIDOfImage[index] = id
            } else {
                cameras.append(image.intrinsics)
                cameraIDOfKey[key] = cameras.count
                cameraIDOfImage[index] = cameras.count
            }
        }

        // Points: keep only observations in registered images; drop points left with none.
        var tracks: [[(imageID: Int, keypoint: Int)]] = []
        tracks.reserveCapacity(scene.points.count)
        var observationCount = 0
        for point in scene.points {
            var track: [(imageID: Int, keypoint: Int)] = []
            track.reserveCapacity(point.track.count)
            for observation in point.track {
                guard scene.images.indices.contains(observation.imageIndex),
                      let imageID = imageIDs[observation.imageIndex]
                else { continue }
                track.append((imageID, observation.keypointIndex))
            }
            observationCount += track.count
            tracks.append(track)
        }
        let writtenPointCount = tracks.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) }

        var camerasText = "# Camera list with one line of data per camera:\n"
        camerasText += "#   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n"
        camerasText += "# Number of cameras: \(cameras.count)\n"
        for (index, k) in cameras.enumerated() {
            camerasText += "\(index + 1) "
            if k.hasDistortion {
                camerasText += "OPENCV \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy) \(k.k1) \(k.k2) 0 0\n"
            } else {
                camerasText += "PINHOLE \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy)\n"
            }
        }

        // Images.
        let registeredCount = scene.registeredCount
        var observedKeypoints = 0
        var keypointCount = 0
        for (index, image) in scene.images.enumerated() where imageIDs[index] != nil {
            keypointCount += image.keypoints.count
            for pointIndex in image.pointIndexOfKeypoint.prefix(image.keypoints.count)
            where tracks.indices.contains(pointIndex) && !tracks[pointIndex].isEmpty {
                observedKeypoints += 1
            }
        }
        let meanObservations = registeredCount > 0 ? Double(observedKeypoints) / Double(registeredCount) : 0
        var imagesText = ""
        imagesText.reserveCapacity(256 + registeredCount * 160 + keypointCount * 28)
        imagesText += "# Image list with two lines of data per image:\n"
        imagesText += "#   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n"
        imagesText += "#   POINTS2D[] as (X, Y, POINT3D_ID)\n"
        imagesText += "# Number of images: \(registeredCount), mean observations per image: \(meanObservations)\n"
        for (index, image) in scene.images.enumerated() {
            guard let imageID = imageIDs[index], let pose = image.cameraFromWorld else { continue }
            let q = UnitQuaternion(pose.rotation)
            let t = pose.translation + Vector3.zero  // + 0 turns -0 into 0
            imagesText += "\(imageID) \(q.w.description) \(q.x.description) \(q.y.description) \(q.z.description) "
            imagesText += "\(t.x.description) \(t.y.description) \(t.z.description) \(cameraIDOfImage[index]) \(image.name)\n"
            var first = true
            for (k, keypoint) in image.keypoints.enumerated() {
                if !first { imagesText.append(" ") }
                first = false
                imagesText.append(keypoint.x.description)
                imagesText.append(" ")
                imagesText.append(keypoint.y.description)
                imagesText.append(" ")
                let pointIndex = k < image.pointIndexOfKeypoint.count ? image.pointIndexOfKeypoint[k] : -1
                if pointIndex >= 0 && pointIndex < tracks.count && !tracks[pointIndex].isEmpty {
                    imagesText.append(String(pointIndex + 1))
                } else {
                    imagesText.append("-1")
                }
            }
            imagesText.append("\n")
        }

        // Points.
        let meanTrackLength = writtenPointCount > 0 ? Double(observationCount) / Double(writtenPointCount) : 0
        var pointsText = ""
        pointsText.reserveCapacity(256 + writtenPointCount * 96 + observationCount * 12)
        pointsText += "# 3D point list with one line of data per point:\n"
        pointsText += "#   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)\n"
        pointsText += "# Number of points: \(writtenPointCount), mean track length: \(meanTrackLength)\n"
        for (index, point) in scene.points.enumerated() where !tracks[index].isEmpty {
            let p = point.position
            pointsText.append(String(index + 1))
            pointsText.append(" ")
            pointsText.append(p.x.description)
            pointsText.append(" ")
            pointsText.append(p.y.description)
            pointsText.append(" ")
            pointsText.append(p.z.description)
            pointsText.append(" \(point.rgb.0) \(point.rgb.1) \(point.rgb.2) ")
            pointsText.append(point.meanReprojectionErrorPixels.description)
            for observation in tracks[index] {
                pointsText.append(" ")
                pointsText.append(String(observation.imageID))
                pointsText.append(" ")
                pointsText.append(String(observation.keypoint))
            }
            pointsText.append("\n")
        }
        return (camerasText, imagesText, pointsText)
    }

    /// Hashable identity of `CameraIntrinsics` values that compare equal (-0 and +0 unified).
    private struct IntrinsicsKey: Hashable {
        var width: Int
        var height: Int
        var bits: [UInt64]

        init(_ k: CameraIntrinsics) {
            width = k.width
            height = k.height
            bits = [k.fx, k.fy, k.cx, k.cy, k.k1, k.k2].map { ($0 + 0.0).bitPattern }
        }
    }
}
