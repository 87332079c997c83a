import ReconstructionCore

extension MappingStageOutput: CheckpointCodable {
    func encode(to writer: inout CheckpointWriter) {
        writer.write(trackCount)
        Self.encode(scene, to: &writer)
        writer.write(separateModels.count)
        for model in separateModels { Self.encode(model, to: &writer) }
    }

    init(from reader: inout CheckpointReader) throws {
        let trackCount = try reader.readInt()
        let scene = try Self.decodeScene(from: &reader)
        let count = try reader.readCount()
        var separate: [SparseScene] = []
        for _ in 0..<count { separate.append(try Self.decodeScene(from: &reader)) }
        self.init(scene: scene, separateModels: separate, trackCount: trackCount)
    }

    static func encode(_ scene: SparseScene, to writer: inout CheckpointWriter) {
        writer.write(scene.images.count)
        for image in scene.images {
            writer.write(image.name)
            let k = image.intrinsics
            writer.write(k.width)
            writer.write(k.height)
            for value in [k.fx, k.fy, k.cx, k.cy, k.k1, k.k2] { writer.write(value) }
            writer.write(image.intrinsicsSource.rawValue)
            writer.write(optional: image.cameraFromWorld)
            writer.write(optional: image.unregisteredReason)
            writer.write(array: image.keypoints.flatMap { [$0.x, $0.y] })
            writer.write(array: image.pointIndexOfKeypoint)
        }
        let points = scene.points
        writer.write(array: points.flatMap { [$0.position.x, $0.position.y, $0.position.z] })
        writer.write(array: points.flatMap { [$0.rgb.0, $0.rgb.1, $0.rgb.2] })
        writer.write(array: points.map(\.meanReprojectionErrorPixels))
        writer.write(array: points.map { Int32($0.track.count) })
        writer.write(array: points.flatMap { $0.track.flatMap { [Int32($0.imageIndex), Int32($0.keypointIndex)] } })
    }

    static func decodeScene(from reader: inout CheckpointReader) throws -> SparseScene {
        func corrupt(_ why: String) -> CheckpointReader.Corrupt { CheckpointReader.Corrupt(description: why) }
        let imageCount = try reader.readCount()
        var images: [SparseScene.Image] = []
        for _ in 0..<imageCount {
            let name = try reader.readString()
            let width = try reader.readInt(), height = try reader.readInt()
            var v: [Double] = []
            for _ in 0..<6 { v.append(try reader.readDouble()) }
            let intrinsics = CameraIntrinsics(width: width, height: height, fx: v[0], fy: v[1], cx: v[2], cy: v[3], k1: v[4], k2: v[5])
            guard let source = IntrinsicsSource(rawValue: try reader.readString()) else { throw corrupt("unknown intrinsics source") }
            let pose = try reader.readOptionalRigidTransform()
            let reason = try reader.readOptionalString()
            let xy = try reader.readArray(of: Float.self)
            let pointIndex = try reader.readArray(of: Int.self)
            guard xy.count == 2 * pointIndex.count else { throw corrupt("keypoint arrays of inconsistent sizes") }
            let keypoints = (0..<pointIndex.count).map { SparseScene.Keypoint(x: xy[2 * $0], y: xy[2 * $0 + 1]) }
            images.append(SparseScene.Image(name: name, intrinsics: intrinsics, intrinsicsSource: source, cameraFromWorld: pose,
                                            unregisteredReason: reason, keypoints: keypoints, pointIndexOfKeypoint: pointIndex))
        }
        let positions = try reader.readArray(of: Double.self)
        let rgb = try reader.readArray(of: UInt8.self)
        let errors = try reader.readArray(of: Double.self)
        let lengths = try reader.readArray(of: Int32.self)
        let observations = try reader.readArray(of: Int32.self)
        let n = errors.count
        guard positions.count == 3 * n, rgb.count == 3 * n, lengths.count == n,
              observations.count == 2 * lengths.reduce(0, { $0 + Int($1) }) else { throw corrupt("point arrays of inconsistent sizes") }
        var points: [SparseScene.Point] = []
        points.reserveCapacity(n)
        var o = 0
        for p in 0..<n {
            var track: [SparseScene.Observation] = []
            for _ in 0..<Int(lengths[p]) {
                let image = Int(observations[o]), keypoint = Int(observations[o + 1])
                guard image >= 0, image < images.count, keypoint >= 0, keypoint < images[image].keypoints.count else {
                    throw corrupt("observation out of range")
                }
                track.append(SparseScene.Observation(imageIndex: image, keypointIndex: keypoint))
                o += 2
            }
            points.append(SparseScene.Point(position: Vector3(positions[3 * p], positions[3 * p + 1], positions[3 * p + 2]),
                                            rgb: (rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]),
                                            meanReprojectionErrorPixels: errors[p], track: track))
        }
        return SparseScene(images: images, points: points)
    }
}
