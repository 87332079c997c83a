import Foundation

// As in Reconstruction's LocalizedErrors.swift: `localizedDescription` says what went wrong.

extension DetailRequestError: LocalizedError { public var errorDescription: String? { description } }
extension CaptureError: LocalizedError { public var errorDescription: String? { description } }
