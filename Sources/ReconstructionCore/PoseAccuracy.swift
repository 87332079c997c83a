/// Scores estimated camera poses against ground truth with the Strecha / openMVG protocol:
/// a 7-DoF similarity aligns estimated centres to true centres; per camera, the distance between
/// aligned and true centre and the angle of R_trueᵀ · R_aligned (camera-to-world rotations).
public struct PoseAccuracyReport: Sendable, Codable, Equatable {
    public struct CameraError: Sendable, Codable, Equatable {
        public var name: String
        public var registered: Bool
        /// Whether the estimate has an image matching this camera's name (registered or not); when
        /// not, the camera is missing because of its name, e.g. a photo renamed after estimation.
        public var hasEstimate: Bool?
        /// Distance between aligned and true centre, in ground-truth units (metres for Strecha).
        public var positionError: Double?
        /// Rotation error in degrees.
        public var rotationErrorDegrees: Double?
        /// True camera centre, ground-truth units.
        public var truePosition: Vector3?
        /// Estimated camera centre after the similarity alignment, ground-truth units.
        public var alignedPosition: Vector3?
    }

    public var cameraCount: Int
    public var registeredCount: Int
    public var medianPositionError: Double
    public var maxPositionError: Double
    public var medianRotationErrorDegrees: Double
    public var maxRotationErrorDegrees: Double
    /// Scale of the aligning similarity (ground-truth units per estimated unit).
    public var alignmentScale: Double
    /// Diagonal of the bounding box of all true camera centres, ground-truth units: the scene size
    /// that relative position errors are divided by.
    public var sceneSize: Double
    public var cameras: [CameraError]
    /// Registered estimated images whose names match no ground-truth camera (not scored): photos of
    /// another scene, or renamed ones.
    public var unmatchedEstimates: [String]?
    /// Median over every pair of scored cameras of the angle between their true and estimated
    /// relative rotations (R_iᵀ·R_j), degrees: free of the alignment, which fits centres only and
    /// leaves the turn about a line of cameras undetermined (three fountain-P11 cameras: 0.57°
    /// after alignment, 0.03° relative).
    public var medianRelativeRotationErrorDegrees: Double?
    /// Warnings about the result (printed by `evaluate-poses`; nil when there are none).
    public var warnings: [String]?
}

/// A camera pose to score: the camera-to-world transform, or nil when not registered.
public struct NamedPose: Sendable {
    public var name: String
    public var worldFromCamera: RigidTransform?
    public init(name: String, worldFromCamera: RigidTransform?) {
        self.name = name
        self.worldFromCamera = worldFromCamera
    }
}

public enum PoseAccuracyError: Error, Equatable, CustomStringConvertible {
    /// Fewer than 3 registered cameras match the ground truth by name; with a few names of
    /// registered estimated images and of ground-truth cameras, to show how they differ.
    case tooFewCommonCameras(Int, estimated: [String] = [], groundTruth: [String] = [])
    /// Enough cameras match, but their centres (estimated or true) coincide or lie on one line, so
    /// no similarity aligns them.
    case degenerateCentres(Int)

    public var description: String {
        switch self {
        case .tooFewCommonCameras(let n, let estimated, let truth):
            var text = "only \(n) registered camera(s) match the ground truth by name; at least 3 are needed to align"
            if !estimated.isEmpty || !truth.isEmpty {
                text += " (registered: \(estimated.isEmpty ? "none" : estimated.joined(separator: ", ")); ground truth: \(truth.joined(separator: ", ")))"
            }
            return text
        case .degenerateCentres(let n):
            return "the \(n) cameras that match the ground truth by name have centres (estimated or true) that coincide or lie on "
                + "one line, so no similarity can align them"
        }
    }
}

extension PoseAccuracyReport {
    /// The estimate matching a ground-truth camera's name: the same name, or else the same name
    /// without its extension when only one estimate has it.
    static func matcher(_ estimated: [NamedPose]) -> (String) -> NamedPose? {
        let estimatedByName = Dictionary(estimated.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let estimatedByStem = Dictionary(grouping: estimated) { stem($0.name) }
        return { name in
            if let exact = estimatedByName[name] { return exact }
            guard let same = estimatedByStem[stem(name)], same.count == 1 else { return nil }
            return same[0]
        }
    }

    /// The ground-truth cameras with a registered estimate (matched as `evaluate` matches them), in
    /// ground-truth order: the pairs a similarity alignment is fitted to.
    public static func matchedPairs(estimated: [NamedPose], groundTruth: [NamedPose])
        -> [(name: String, est: RigidTransform, truth: RigidTransform)]
    {
        pairs(groundTruth, matching: matcher(estimated))
    }

    static func pairs(_ groundTruth: [NamedPose], matching match: (String) -> NamedPose?)
        -> [(name: String, est: RigidTransform, truth: RigidTransform)]
    {
        groundTruth.compactMap { truth in
            guard let gt = truth.worldFromCamera, let est = match(truth.name)?.worldFromCamera else { return nil }
            return (truth.name, est, gt)
        }
    }

    /// Scores `estimated` against `groundTruth` (every ground-truth camera counts). Cameras match by
    /// name, or else by name without its extension when that is unambiguous: a scene whose photos
    /// were re-encoded (`0000.jpg`) may keep ground truth named for the originals (`0000.png.camera`).
    public static func evaluate(estimated: [NamedPose], groundTruth: [NamedPose]) throws -> PoseAccuracyReport {
        let match = matcher(estimated)
        let pairs = pairs(groundTruth, matching: match)
        guard pairs.count >= 3 else {
            throw PoseAccuracyError.tooFewCommonCameras(pairs.count, estimated: Array(estimated.filter { $0.worldFromCamera != nil }.map(\.name).prefix(3)),
                                                        groundTruth: Array(groundTruth.map(\.name).prefix(3)))
        }
        guard let sim = SimilarityTransform.aligning(pairs.map(\.est.translation), onto: pairs.map(\.truth.translation)) else {
            throw PoseAccuracyError.degenerateCentres(pairs.count)
        }
        let matchedNames = Set(groundTruth.compactMap { match($0.name)?.name })
        let unmatched = estimated.filter { $0.worldFromCamera != nil && !matchedNames.contains($0.name) }.map(\.name)

        var byName: [String: CameraError] = [:]
        for p in pairs {
            let alignedCentre = sim.apply(p.est.translation)
            let alignedRotation = sim.rotation * p.est.rotation
            let rotationError = (p.truth.rotation.transposed * alignedRotation).rotationAngleDegrees
            byName[p.name] = CameraError(name: p.name, registered: true, hasEstimate: true,
                                         positionError: alignedCentre.distance(to: p.truth.translation),
                                         rotationErrorDegrees: rotationError, truePosition: p.truth.translation,
                                         alignedPosition: alignedCentre)
        }
        let cameras = groundTruth.map {
            byName[$0.name] ?? CameraError(name: $0.name, registered: false, hasEstimate: match($0.name) != nil,
                                           positionError: nil, rotationErrorDegrees: nil,
                                           truePosition: $0.worldFromCamera?.translation, alignedPosition: nil)
        }
        let centres = groundTruth.compactMap { $0.worldFromCamera?.translation }
        var lo = centres[0], hi = centres[0]
        for c in centres {
            lo = Vector3(min(lo.x, c.x), min(lo.y, c.y), min(lo.z, c.z))
            hi = Vector3(max(hi.x, c.x), max(hi.y, c.y), max(hi.z, c.z))
        }
        let positions = cameras.compactMap(\.positionError)
        let rotations = cameras.compactMap(\.rotationErrorDegrees)
        return PoseAccuracyReport(
            cameraCount: groundTruth.count, registeredCount: pairs.count,
            medianPositionError: Statistics.median(positions), maxPositionError: positions.max() ?? 0,
            medianRotationErrorDegrees: Statistics.median(rotations), maxRotationErrorDegrees: rotations.max() ?? 0,
            alignmentScale: sim.scale, sceneSize: lo.distance(to: hi), cameras: cameras, unmatchedEstimates: unmatched,
            medianRelativeRotationErrorDegrees: relativeRotationError(pairs.map { ($0.est.rotation, $0.truth.rotation) }))
    }

    /// The median angle between true and estimated relative rotations over every pair (degrees),
    /// of at most `maxCameras` cameras spread over the list (pairs grow with their square).
    static func relativeRotationError(_ all: [(est: Matrix3, truth: Matrix3)], maxCameras: Int = 300) -> Double {
        let rotations = all.count <= maxCameras ? all : (0..<maxCameras).map { all[$0 * all.count / maxCameras] }
        var angles: [Double] = []
        for i in rotations.indices {
            for j in rotations.indices where j > i {
                let est = rotations[i].est.transposed * rotations[j].est
                let truth = rotations[i].truth.transposed * rotations[j].truth
                angles.append((truth.transposed * est).rotationAngleDegrees)
            }
        }
        return Statistics.median(angles)
    }

    /// A file name without its last extension ("0000.jpg" → "0000").
    static func stem(_ name: String) -> Substring {
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return Substring(name) }
        return name[..<dot]
    }
}
