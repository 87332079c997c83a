/// Why a surface accuracy cannot be computed.
public enum SurfaceAccuracyError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The ground-truth mesh has no triangle of positive, finite area.
    case emptyGroundTruth
    /// The reconstruction has no point (or no triangle of positive area), or none inside the crop box.
    case emptyReconstruction(cropped: Bool)

    public var description: String {
        switch self {
        case .emptyGroundTruth:
            return "the ground-truth mesh has no triangle with positive area"
        case .emptyReconstruction(let cropped):
            return cropped
                ? "no part of the reconstruction lies inside the ground truth's bounding box (with margin)"
                : "the reconstruction is empty"
        }
    }
}
