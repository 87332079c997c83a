import Foundation
import ReconstructionCore

/// What `reconstruct` keeps of its dense stages in a checkpoint (`dense.ckpt`): the cleaned mesh
/// and everything the later stages and the summary read of the run, so that a second run on the
/// same poses, options and capture files (another format or level of the model, or a run whose
/// model stage failed) goes straight to the model. The stereo point cloud is not kept.
public struct SavedDenseResult: Sendable, Equatable {
    public var mesh: TriangleMesh
    /// The box the mesh was cropped to.
    public var bounds: BoundingBox
    public var voxelSize: Float
    public var metresPerUnit: Double?
    public var up: Vector3?
    public var lidarViews: Int
    public var trackedScaleCameras: Int
    public var fusedPoints: Int
    public var stereoSeconds: Double
    public var fusionSeconds: Double
    /// The run's warnings, given again when the result is loaded.
    public var warnings: [String]

    public init(mesh: TriangleMesh, bounds: BoundingBox, voxelSize: Float, metresPerUnit: Double?, up: Vector3?, lidarViews: Int,
                trackedScaleCameras: Int, fusedPoints: Int, stereoSeconds: Double, fusionSeconds: Double, warnings: [String]) {
        self.mesh = mesh
        self.bounds = bounds
        self.voxelSize = voxelSize
        self.metresPerUnit = metresPerUnit
        self.up = up
        self.lidarViews = lidarViews
        self.trackedScaleCameras = trackedScaleCameras
        self.fusedPoints = fusedPoints
        self.stereoSeconds = stereoSeconds
        self.fusionSeconds = fusionSeconds
        self.warnings = warnings
    }

    /// The checkpoint entry.
    public static let entry = "dense.ckpt"
}

extension SavedDenseResult: CheckpointCodable {
    func encode(to writer: inout CheckpointWriter) {
        SurfaceStageOutput(mesh: mesh, metresPerUnit: metresPerUnit).encode(to: &writer)
        for value in [bounds.centre, bounds.halfExtents] { writer.write(array: [value.x, value.y, value.z]) }
        writer.write(voxelSize)
        writer.write(up != nil)
        if let up { writer.write(array: [up.x, up.y, up.z]) }
        writer.write(lidarViews)
        writer.write(trackedScaleCameras)
        writer.write(fusedPoints)
        writer.write(stereoSeconds)
        writer.write(fusionSeconds)
        writer.write(warnings.count)
        for warning in warnings { writer.write(warning) }
    }

    init(from reader: inout CheckpointReader) throws {
        let surface = try SurfaceStageOutput(from: &reader)
        func vector() throws -> Vector3 {
            let xyz = try reader.readArray(of: Double.self)
            guard xyz.count == 3 else { throw CheckpointReader.Corrupt(description: "a vector of \(xyz.count) numbers") }
            return Vector3(xyz[0], xyz[1], xyz[2])
        }
        let bounds = BoundingBox(centre: try vector(), halfExtents: try vector())
        let voxelSize = try reader.readFloat()
        let up = try reader.readBool() ? try vector() : nil
        let lidarViews = try reader.readInt(), trackedScaleCameras = try reader.readInt(), fusedPoints = try reader.readInt()
        let stereoSeconds = try reader.readDouble(), fusionSeconds = try reader.readDouble()
        let count = try reader.readCount()
        var warnings: [String] = []
        for _ in 0..<count { warnings.append(try reader.readString()) }
        self.init(mesh: surface.mesh, bounds: bounds, voxelSize: voxelSize, metresPerUnit: surface.metresPerUnit, up: up,
                  lidarViews: lidarViews, trackedScaleCameras: trackedScaleCameras, fusedPoints: fusedPoints,
                  stereoSeconds: stereoSeconds, fusionSeconds: fusionSeconds, warnings: warnings)
    }
}

extension StageCheckpointStore {
    /// The dense result saved under `fingerprint`, with the seconds it took; else nil and, when a
    /// file was there but cannot be used, why ("saved for other photos or options", "damaged", …).
    public func loadDense(fingerprint: Fingerprint) -> (saved: (result: SavedDenseResult, computeSeconds: Double)?, setAside: String?) {
        let lookup = lookup(SavedDenseResult.self, entry: SavedDenseResult.entry, fingerprint: fingerprint)
        if case .found(let result, let seconds) = lookup { return ((result, seconds), nil) }
        return (nil, lookup.setAsideReason)
    }

    /// Saves `result` under `fingerprint`, atomically.
    public func saveDense(_ result: SavedDenseResult, fingerprint: Fingerprint, computeSeconds: Double) throws {
        try save(result, entry: SavedDenseResult.entry, fingerprint: fingerprint, computeSeconds: computeSeconds)
    }
}
