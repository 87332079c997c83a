import Foundation
import ReconstructionCore

/// Reads the camera poses back from a `poses.json` written by `PosesJSONWriter`.
public enum PosesJSONReader {
    /// One `NamedPose` per image entry, in file order: the camera-to-world transform built from
    /// the rotation quaternion [w, x, y, z] and the camera centre, or nil for an unregistered image.
    /// - Throws: `ModelExportError` naming the file when it cannot be read or is malformed.
    public static func load(_ url: URL) throws -> [NamedPose] {
        let document = try self.document(url)
        if let convention = document.convention, convention != "camera_to_world" {
            throw ModelExportError(file: url, "convention is \"\(convention)\", expected \"camera_to_world\"")
        }
        if let order = document.quaternionOrder, order != "wxyz" {
            throw ModelExportError(file: url, "quaternion_order is \"\(order)\", expected \"wxyz\"")
        }
        var seen: [String: Int] = [:]
        for (index, entry) in document.images.enumerated() {
            if let first = seen[entry.file] {
                throw ModelExportError(file: url, "images \(first) and \(index) are both \"\(entry.file)\"; each photo may have one pose")
            }
            seen[entry.file] = index
        }
        return try document.images.enumerated().map { index, entry in
            let label = "image \(index) (\"\(entry.file)\")"
            guard entry.registered else { return NamedPose(name: entry.file, worldFromCamera: nil) }
            guard let q = entry.rotation, q.count == 4, q.allSatisfy(\.isFinite) else {
                throw ModelExportError(file: url, "\(label): registered but \"rotation\" is not 4 finite numbers [w, x, y, z]")
            }
            let norm = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).squareRoot()
            guard abs(norm - 1) < 1e-6 else {
                throw ModelExportError(file: url, "\(label): rotation quaternion has norm \(norm), expected 1")
            }
            guard let t = entry.translation, t.count == 3, t.allSatisfy(\.isFinite) else {
                throw ModelExportError(file: url, "\(label): registered but \"translation\" is not 3 finite numbers")
            }
            let rotation = UnitQuaternion(w: q[0], x: q[1], y: q[2], z: q[3]).matrix
            return NamedPose(name: entry.file,
                             worldFromCamera: RigidTransform(rotation: rotation, translation: Vector3(t[0], t[1], t[2])))
        }
    }

    /// Whether the file says its units are metres (top-level "metric", see `PosesWorld`); nil when
    /// it does not say (files from other tools, or from before the field).
    /// - Throws: `ModelExportError` naming the file when it cannot be read or is malformed.
    public static func isMetric(_ url: URL) throws -> Bool? {
        try document(url).metric
    }

    /// The intrinsics of each registered image that records them, by file name.
    /// - Throws: `ModelExportError` naming the file when it cannot be read or is malformed.
    public static func loadIntrinsics(_ url: URL) throws -> [String: CameraIntrinsics] {
        let document = try self.document(url)
        var out: [String: CameraIntrinsics] = [:]
        for entry in document.images {
            guard let k = entry.intrinsics, k.width > 0, k.height > 0, k.fx > 0, k.fy > 0 else { continue }
            out[entry.file] = CameraIntrinsics(width: k.width, height: k.height, fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy,
                                               k1: k.k1 ?? 0, k2: k.k2 ?? 0)
        }
        return out
    }

    /// Why each unregistered image that says so was not registered, by file name.
    /// - Throws: `ModelExportError` naming the file when it cannot be read or is malformed.
    public static func loadReasons(_ url: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for entry in try document(url).images where !entry.registered {
            if let reason = entry.reason, !reason.isEmpty { out[entry.file] = reason }
        }
        return out
    }

    /// The decoded file, or an error naming it.
    private static func document(_ url: URL) throws -> Document {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelExportError(file: url, "cannot read poses file: \(FileReadFailure.reason(url, error))")
        }
        do {
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw ModelExportError(file: url, "not a poses.json document: \(describe(error))")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(path(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(path(context)): \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            return "invalid JSON: \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return keys.isEmpty ? "top level" : keys
    }

    private struct Document: Decodable {
        var convention: String?
        var quaternionOrder: String?
        var metric: Bool?
        var images: [Entry]

        enum CodingKeys: String, CodingKey {
            case convention, images, metric
            case quaternionOrder = "quaternion_order"
        }
    }

    private struct Entry: Decodable {
        var file: String
        var registered: Bool
        var reason: String?
        var rotation: [Double]?
        var translation: [Double]?
        var intrinsics: Intrinsics?
    }

    private struct Intrinsics: Decodable {
        var width: Int
        var height: Int
        var fx: Double
        var fy: Double
        var cx: Double
        var cy: Double
        var k1: Double?
        var k2: Double?
    }
}
