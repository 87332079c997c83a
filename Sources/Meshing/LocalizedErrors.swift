import Foundation

// As in Reconstruction's LocalizedErrors.swift: `localizedDescription` says what went wrong.

extension TSDFVolume.IntegrationError: LocalizedError { public var errorDescription: String? { description } }
