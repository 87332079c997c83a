import Foundation

// Errors a session's requests can end with say what went wrong through `localizedDescription`
// too (code ported from Apple's platforms prints that; without `LocalizedError`, Foundation on
// Linux gives only "The operation could not be completed").

extension PhotogrammetrySession.Error: LocalizedError { public var errorDescription: String? { description } }
extension PoseEstimation.PoseEstimationError: LocalizedError { public var errorDescription: String? { description } }
extension IncrementalMapper.MapperError: LocalizedError { public var errorDescription: String? { description } }
extension DenseStereo.DenseStereoError: LocalizedError { public var errorDescription: String? { description } }
extension SurfaceReconstruction.SurfaceError: LocalizedError { public var errorDescription: String? { description } }
extension ObjectIsolation.Refusal: LocalizedError { public var errorDescription: String? { description } }
extension HEIFDepth.NotMetric: LocalizedError { public var errorDescription: String? { description } }
extension ModelBuildError: LocalizedError { public var errorDescription: String? { description } }
extension ShimError: LocalizedError { public var errorDescription: String? { description } }
