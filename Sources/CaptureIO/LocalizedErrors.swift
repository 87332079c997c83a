import Foundation

// As in Reconstruction's LocalizedErrors.swift: `localizedDescription` says what went wrong.

extension CaptureIOError: LocalizedError { public var errorDescription: String? { description } }
