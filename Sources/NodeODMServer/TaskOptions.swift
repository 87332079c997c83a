import BatchRunner
import Foundation
import ReconstructionCore

/// The processing options a task accepts, in NodeODM's shapes: `GET /options` lists them as
/// `{"name", "type", "value", "domain", "help"}`; a task carries the chosen ones as
/// `[{"name": …, "value": …}]` (PyODM and WebODM send that JSON in the `options` form field).
public struct TaskOptions: Codable, Sendable, Equatable {
    /// `none` (camera poses and sparse points only) or an Object Capture detail level.
    public var detail: String = "reduced"
    public var modelFormat: JobRequest.ModelFormat = .usdz
    public var pointCloud = true
    public var bounds = false
    public var objectMasking = true

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case detail, modelFormat, pointCloud, bounds, objectMasking
    }

    /// A task saved by an older server lacks the options added since: they take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = TaskOptions()
        detail = try container.decodeIfPresent(String.self, forKey: .detail) ?? defaults.detail
        modelFormat = try container.decodeIfPresent(JobRequest.ModelFormat.self, forKey: .modelFormat) ?? defaults.modelFormat
        pointCloud = try container.decodeIfPresent(Bool.self, forKey: .pointCloud) ?? defaults.pointCloud
        bounds = try container.decodeIfPresent(Bool.self, forKey: .bounds) ?? defaults.bounds
        objectMasking = try container.decodeIfPresent(Bool.self, forKey: .objectMasking) ?? defaults.objectMasking
    }

    /// One entry of `GET /options`.
    public struct Definition: Codable, Sendable, Equatable {
        public var name: String
        public var type: String
        public var value: String
        public var domain: [String]
        public var help: String
    }

    public static let detailLevels = ["none", "preview", "reduced", "medium", "full", "raw"]

    /// What `GET /options` lists, with the defaults as values.
    public static let definitions: [Definition] = [
        Definition(name: "detail", type: "enum", value: "reduced", domain: detailLevels,
                   help: "Textured model at this Object Capture detail level (polygon cap, texture size and maps), or none for camera poses and sparse points only."),
        Definition(name: "model-format", type: "enum", value: "usdz", domain: JobRequest.ModelFormat.allCases.map(\.rawValue),
                   help: "The model's file format: usdz (ARKit), glb (glTF binary) or obj (with its MTL and textures)."),
        Definition(name: "point-cloud", type: "bool", value: "true", domain: ["true", "false"],
                   help: "Also write points.ply, the sparse points with their colours."),
        Definition(name: "bounds", type: "bool", value: "false", domain: ["true", "false"],
                   help: "Also write bounds.json, a box around the reconstructed object."),
        Definition(name: "object-masking", type: "bool", value: "true", domain: ["true", "false"],
                   help: "Isolate the object: its _mask photos, or without them the object that photos taken all round it surround, standing on its support. false keeps everything the photos show (a building's surroundings, the ground)."),
    ]

    /// Parses a task's `options` field: a JSON array of `{"name", "value"}` (values may be
    /// strings, numbers or booleans; `1` and `0` are booleans too); an empty field means the defaults.
    /// - Throws: `NodeODMError.refused` naming a bad value of a known option.
    public static func parse(_ text: String?) throws -> TaskOptions { try parseReportingIgnored(text).options }

    /// `parse`, with the names of the options this node does not have. They are ignored, as
    /// NodeODM ignores options its engine lacks, so that clients sending ODM's options (`dsm`,
    /// `orthophoto-resolution`) still run; the task's console output names them.
    public static func parseReportingIgnored(_ text: String?) throws -> (options: TaskOptions, ignored: [String]) {
        var options = TaskOptions()
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return (options, []) }
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw NodeODMError.refused("options must be a JSON array of {\"name\": …, \"value\": …}")
        }
        var given: [String: String] = [:]
        var ignored: [String] = []
        for item in array {
            guard let entry = item as? [String: Any], let name = entry["name"] as? String else {
                throw NodeODMError.refused("each option must be an object with a 'name' and a 'value'")
            }
            guard definitions.contains(where: { $0.name == name }) else {
                if !ignored.contains(name) { ignored.append(String(name.prefix(64))) }
                continue
            }
            let value = valueText(entry["value"])
            try options.set(name, value)
            // The same option twice with different values is a client's mistake, not a choice
            // (1 and true are the same value).
            if let earlier = given[name], normalised(name, earlier) != normalised(name, value) {
                throw NodeODMError.refused("option '\(name)' is given twice, as '\(earlier)' and '\(Self.shortened(value))': give it once")
            }
            given[name] = value
        }
        return (options, ignored)
    }

    /// JSON booleans as `true`/`false`; numbers as written (a 1 is `1`, not `true`).
    private static func valueText(_ value: Any?) -> String {
        switch value {
        case let number as NSNumber:
            // Foundation reads JSON's true and false as NSNumbers of type "c".
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return number.stringValue
        case let string as String: return string
        default: return ""
        }
    }

    /// A value quoted in an error, at most 64 characters.
    static func shortened(_ value: String) -> String { value.count > 64 ? value.prefix(64) + "…" : value }

    /// `value` as the option takes it: lower case, and 1/0 as true/false for booleans.
    private static func normalised(_ name: String, _ value: String) -> String {
        let lowered = value.lowercased()
        guard definitions.first(where: { $0.name == name })?.type == "bool" else { return lowered }
        return ["1": "true", "0": "false"][lowered] ?? lowered
    }

    private mutating func set(_ name: String, _ value: String) throws {
        guard let definition = Self.definitions.first(where: { $0.name == name }) else { return }
        let lowered = Self.normalised(name, value)
        guard definition.domain.contains(lowered) else {
            throw NodeODMError.refused("option '\(name)' is '\(Self.shortened(value))': use \(definition.domain.joined(separator: ", "))")
        }
        switch name {
        case "detail": detail = lowered
        case "model-format": modelFormat = JobRequest.ModelFormat(rawValue: lowered) ?? .usdz
        case "point-cloud": pointCloud = lowered == "true"
        case "bounds": bounds = lowered == "true"
        case "object-masking": objectMasking = lowered == "true"
        default: break
        }
    }

    /// The options as the task reports them (`info.options`): every option with its value.
    public var entries: [[String: String]] {
        [["name": "detail", "value": detail], ["name": "model-format", "value": modelFormat.rawValue],
         ["name": "point-cloud", "value": String(pointCloud)], ["name": "bounds", "value": String(bounds)],
         ["name": "object-masking", "value": String(objectMasking)]]
    }

    /// The batch job's requests: poses always; the sparse points, bounds and model as chosen.
    public var requests: [JobRequest] {
        var requests: [JobRequest] = [.poses]
        if pointCloud { requests.append(.pointCloud) }
        if bounds { requests.append(.bounds) }
        if let level = DetailLevel(rawValue: detail), level != .custom {
            requests.append(.model(.init(detail: level, format: modelFormat, path: "model.\(modelFormat.rawValue)")))
        }
        return requests
    }
}
