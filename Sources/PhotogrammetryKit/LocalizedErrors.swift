import Foundation

// As in Reconstruction's LocalizedErrors.swift: `localizedDescription` says what went wrong.

extension ModelRunError: LocalizedError { public var errorDescription: String? { description } }
extension DepthSidecarError: LocalizedError { public var errorDescription: String? { description } }
extension DepthDisagreement: LocalizedError { public var errorDescription: String? { description } }
extension CloudDisagreement: LocalizedError { public var errorDescription: String? { description } }
