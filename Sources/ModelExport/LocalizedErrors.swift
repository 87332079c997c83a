import Foundation

// As in Reconstruction's LocalizedErrors.swift: `localizedDescription` says what went wrong.

extension ModelExportError: LocalizedError { public var errorDescription: String? { description } }
