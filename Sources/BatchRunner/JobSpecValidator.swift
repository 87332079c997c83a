import CaptureIO
import Foundation
import ModelExport
import ReconstructionCore

/// Checks one job of a jobs file: its shape (known keys, types, values) and its inputs (the
/// capture folder has photos, the intrinsics file reads, the output folder is ours to replace),
/// and makes its paths absolute.
struct JobSpecValidator {
    /// Relative paths in the spec are resolved against this folder.
    var baseDirectory: URL

    /// Names the job's outputs take in its output folder; a model path must not collide with them.
    static let reservedOutputNames: Set<String> = ["poses.json", "colmap", "transforms.json", "points.ply", "bounds.json",
                                                   PoseExport.sparsePointsFileName, PoseExport.separateModelsFolderName,
                                                   OutputManifest.fileName]

    func check(_ value: Any, fallbackID: String) -> JobsFile.Entry {
        let raw = Self.text(of: value)
        guard let object = value as? [String: Any] else {
            return .invalid(id: fallbackID, raw: raw, problem: "job #\(fallbackID.split(separator: "#").last ?? ""): expected a JSON object")
        }
        var id = fallbackID
        var label = "job #\(fallbackID.split(separator: "#").last ?? "") (no usable id)"
        if let given = object["id"] as? String, JobSpec.isValidID(given) {
            id = given
            label = "job '\(given)'"
        }
        do {
            if object["id"] == nil { throw JobProblem("missing 'id'") }
            guard let given = object["id"] as? String else { throw JobProblem("'id' must be a string") }
            guard JobSpec.isValidID(given) else {
                throw JobProblem("invalid id '\(given)': use 1–128 letters, digits, '.', '_' or '-', starting with a letter or digit")
            }
            try Self.checkKeys(object)
            let spec = try decode(object)
            return .valid(try resolve(spec))
        } catch let problem as JobProblem {
            return .invalid(id: id, raw: raw, problem: "\(label): \(problem.text)")
        } catch {
            return .invalid(id: id, raw: raw, problem: "\(label): \(error)")
        }
    }

    /// Unknown keys are reported (a misspelt optional key would otherwise be ignored silently).
    static func checkKeys(_ object: [String: Any]) throws {
        try unknown(in: object, known: JobSpec.CodingKeys.allCases.map(\.rawValue), at: "")
        if let retry = object["retry"] as? [String: Any] {
            try unknown(in: retry, known: RetryPolicy.CodingKeys.allCases.map(\.rawValue), at: "retry.")
        }
        for (i, request) in ((object["requests"] as? [Any]) ?? []).enumerated() {
            if let request = request as? [String: Any] {
                try unknown(in: request, known: JobRequest.CodingKeys.allCases.map(\.rawValue), at: "requests[\(i)].")
            }
        }
    }

    private static func unknown(in object: [String: Any], known: [String], at prefix: String) throws {
        if let key = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw JobProblem("unknown key '\(prefix)\(key)' (known: \(known.joined(separator: ", ")))")
        }
    }

    private func decode(_ object: [String: Any]) throws -> JobSpec {
        do { return try Self.decodeSpec(object) } catch let error as DecodingError {
            // Foundation's decoder reports a fractional or too large number for an integer field
            // as "not valid JSON", without the key: find the number whose replacement decodes.
            // The replacement may fail otherwise (0 is below maxPolygons' minimum): what counts is
            // that this error goes away.
            func isTheUnkeyedError(_ error: Error) -> Bool {
                if case .dataCorrupted(let context)? = error as? DecodingError { return context.codingPath.isEmpty }
                return false
            }
            if isTheUnkeyedError(error) {
                for (path, number) in Self.nonIntegers(in: object, path: []) {
                    do { _ = try Self.decodeSpec(Self.replacing(object, at: path, with: 0) as! [String: Any]) } catch where isTheUnkeyedError(error) {
                        continue
                    } catch {}
                    throw JobProblem("'\(Self.describe(path))' must be an integer, not \(number)")
                }
            }
            throw JobProblem(Self.describe(error))
        }
    }

    private static func decodeSpec(_ object: [String: Any]) throws -> JobSpec {
        try JSONDecoder().decode(JobSpec.self, from: JSONSerialization.data(withJSONObject: object))
    }

    /// A key of an object or an index of an array.
    private enum PathStep { case key(String), index(Int) }

    /// The numbers in `value` no integer can hold (fractional, or beyond 64 bits), with their paths.
    private static func nonIntegers(in value: Any, path: [PathStep]) -> [([PathStep], NSNumber)] {
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { nonIntegers(in: object[$0]!, path: path + [.key($0)]) }
        }
        if let array = value as? [Any] {
            return array.indices.flatMap { nonIntegers(in: array[$0], path: path + [.index($0)]) }
        }
        guard !(value is String), let number = value as? NSNumber else { return [] }
        let x = number.doubleValue
        return x.rounded() != x || abs(x) >= 9.2e18 ? [(path, number)] : []
    }

    private static func replacing(_ value: Any, at path: [PathStep], with leaf: Any) -> Any {
        guard let step = path.first else { return leaf }
        switch step {
        case .key(let key):
            guard var object = value as? [String: Any], let child = object[key] else { return value }
            object[key] = replacing(child, at: Array(path.dropFirst()), with: leaf)
            return object
        case .index(let i):
            guard var array = value as? [Any], array.indices.contains(i) else { return value }
            array[i] = replacing(array[i], at: Array(path.dropFirst()), with: leaf)
            return array
        }
    }

    private static func describe(_ path: [PathStep]) -> String {
        path.reduce("") { text, step in
            switch step {
            case .key(let key): return text.isEmpty ? key : "\(text).\(key)"
            case .index(let i): return "\(text)[\(i)]"
            }
        }
    }

    /// Checks values and inputs, and makes paths absolute.
    func resolve(_ given: JobSpec) throws -> JobSpec {
        var spec = given
        guard !spec.requests.isEmpty else { throw JobProblem("'requests' is empty: ask for poses, pointCloud, bounds or a model") }
        if let problem = spec.retry.problem { throw JobProblem(problem) }
        var paths: Set<String> = []
        var asked: Set<String> = []
        for request in spec.requests {
            guard case .model(let model) = request else {
                let name = "\(request)"
                guard asked.insert(name).inserted else { throw JobProblem("'requests' asks for \(name) twice") }
                continue
            }
            let path = model.path
            guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("."), !path.split(separator: "/").contains("..") else {
                throw JobProblem("model path '\(path)' must be a plain relative name inside the output folder")
            }
            guard !Self.reservedOutputNames.contains(String(path.split(separator: "/").first ?? "")) else {
                throw JobProblem("model path '\(path)' collides with another output's name")
            }
            guard paths.insert(path).inserted else { throw JobProblem("two model requests write '\(path)'") }
            if let custom = model.custom, let format = ModelExportFormat(rawValue: model.format.rawValue),
               let problem = format.problem(carrying: custom.outputTextureMaps) {
                throw JobProblem("model '\(path)': \(problem)")
            }
        }
        let customs = spec.requests.compactMap { request -> CustomDetailSpecification? in
            if case .model(let model) = request { return model.custom }
            return nil
        }
        guard Set(customs).count <= 1 else {
            throw JobProblem("the job's custom models ask for different budgets: a job has one custom budget (split it into two jobs)")
        }
        let input = absolute(spec.input, from: baseDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
            throw JobProblem("input folder \(input.path) does not exist")
        }
        guard isDirectory.boolValue else { throw JobProblem("input \(input.path) is not a folder") }
        let images = Self.imagesDirectory(of: input)
        let photos = (try? ImageFolder.listImages(in: images)) ?? []
        guard photos.count >= 2 else {
            throw JobProblem("input folder \(images.path) has \(photos.count) photo\(photos.count == 1 ? "" : "s"); at least 2 are needed")
        }
        // Two photos give poses but no surface: refused now rather than after the pose stage.
        let wantsModel = spec.requests.contains { if case .model = $0 { true } else { false } }
        if wantsModel, photos.count < 3, !Self.holdsDepth(images) {
            throw JobProblem("input folder \(images.path) has \(photos.count) photos: a model needs at least 3 (stereo keeps a depth only where "
                             + "two other photos agree) or depth sidecars (NNNN_depth.png) beside them; ask for \"poses\" alone, or add photos")
        }
        spec.input = input.path
        if let file = spec.intrinsicsFile {
            let url = absolute(file, from: input)
            do { _ = try PinholeIntrinsics.load(kFile: url) } catch { throw JobProblem("intrinsicsFile: \(error)") }
            spec.intrinsicsFile = url.path
        }
        if let output = spec.output {
            let url = absolute(output, from: baseDirectory)
            if let problem = JobOutputs.problemReplacing(url, jobID: spec.id) ?? Self.problemCreating(url) { throw JobProblem(problem) }
            spec.output = url.path
        }
        return spec
    }

    /// Whether `folder` may hold depth with its photos: sidecars, an RGB-D keyframe set's depth_N
    /// files, or HEIC photos (an iPhone's carry their depth inside). Only a folder that surely has
    /// none is refused a model of two photos.
    static func holdsDepth(_ folder: URL) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { name in
            let lowered = name.lowercased()
            return lowered.contains("depth") || lowered.hasSuffix(".heic") || lowered.hasSuffix(".heif")
        }
    }

    /// Why the output folder `url` could not be made (its staging folder is made beside it), or
    /// nil: the nearest folder above it that exists must be a folder, and one we can create in
    /// (tried with a hidden folder, removed at once: permissions, read-only or immutable folders).
    static func problemCreating(_ url: URL) -> String? {
        var ancestor = url.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.path != "/" { ancestor.deleteLastPathComponent() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "output \(url.path) cannot be made: \(ancestor.path) is a file, not a folder"
        }
        let probe = ancestor.appendingPathComponent(".photogrammetry-probe-\(UUID().uuidString)")
        guard mkdir(probe.path, 0o700) == 0 else {
            return "output \(url.path) cannot be made: cannot create folders in \(ancestor.path) (\(String(cString: strerror(errno))))"
        }
        rmdir(probe.path)
        return nil
    }

    /// `input/images` when it exists, else `input`.
    static func imagesDirectory(of input: URL) -> URL {
        let nested = input.appendingPathComponent("images", isDirectory: true)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory) && isDirectory.boolValue ? nested : input
    }

    private func absolute(_ path: String, from base: URL) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        let url = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : base.appendingPathComponent(expanded)
        return url.standardizedFileURL
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return "\(text)[\(index)]" }
                return text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "'\(path(context.codingPath))' must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "'\(path(context.codingPath))' must be \(typeName(type)), not null"
        case .keyNotFound(let key, let context):
            return "missing '\(path(context.codingPath + [key]))'"
        case .dataCorrupted(let context):
            let at = path(context.codingPath)
            return at.isEmpty ? context.debugDescription : "'\(at)': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [JobRequest].Type, is [Any].Type: return "an array"
        default: return "an object"
        }
    }

    static func text(of value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) else { return "\(value)" }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.dropFirst().dropLast())
    }
}
