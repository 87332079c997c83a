import Foundation

/// One job: a capture folder in, the requested outputs out.
///
/// ```json
/// {"id": "vase-01", "input": "captures/vase-01", "intrinsicsFile": "images/K.txt",
///  "requests": ["poses", "bounds", {"type": "model", "detail": "preview", "format": "glb"}],
///  "output": "results/vase-01", "priority": 5,
///  "retry": {"maxAttempts": 3, "backoffSeconds": 10, "backoffMultiplier": 2}}
/// ```
/// Relative paths are resolved against the jobs file's folder when the job is enqueued; the
/// ledger stores the resolved spec.
public struct JobSpec: Codable, Sendable, Equatable {
    /// Unique in the ledger: 1–128 letters, digits, `.`, `_` or `-`, starting with a letter or
    /// digit (it names the job's folder).
    public var id: String
    /// A capture folder: photos, or a folder holding `images/` (with `_mask`, `_depth`, `_gravity`
    /// sidecars and an optional `K.txt`).
    public var input: String
    /// What to produce; at least one.
    public var requests: [JobRequest]
    /// Where the outputs go (a folder, replaced atomically when the job completes). Default
    /// `OUT/jobs/<id>/output`.
    public var output: String?
    /// Higher runs first; equal priorities run in the order they were enqueued. Default 0.
    public var priority: Int
    /// Default: 3 attempts, 10 s backoff doubling up to 600 s.
    public var retry: RetryPolicy
    /// A 3×3 intrinsics matrix file (Strecha's `K.txt`), relative to `input`; held fixed. Default:
    /// EXIF focal length, else self-calibration.
    public var intrinsicsFile: String?
    /// Whether to isolate the object (`PhotogrammetrySession.Configuration.isObjectMaskingEnabled`):
    /// its masks, or without them the object an all-round capture surrounds. Nil: the session's
    /// default (on); false keeps everything the photos show.
    public var objectMasking: Bool?

    public init(id: String, input: String, requests: [JobRequest], output: String? = nil, priority: Int = 0,
                retry: RetryPolicy = RetryPolicy(), intrinsicsFile: String? = nil, objectMasking: Bool? = nil) {
        self.id = id
        self.input = input
        self.requests = requests
        self.output = output
        self.priority = priority
        self.retry = retry
        self.intrinsicsFile = intrinsicsFile
        self.objectMasking = objectMasking
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, input, requests, output, priority, retry, intrinsicsFile, objectMasking
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        input = try container.decode(String.self, forKey: .input)
        requests = try container.decode([JobRequest].self, forKey: .requests)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0
        retry = try container.decodeIfPresent(RetryPolicy.self, forKey: .retry) ?? RetryPolicy()
        intrinsicsFile = try container.decodeIfPresent(String.self, forKey: .intrinsicsFile)
        objectMasking = try container.decodeIfPresent(Bool.self, forKey: .objectMasking)
    }

    /// Whether `id` can name a job (and its folder).
    public static func isValidID(_ id: String) -> Bool {
        guard (1...128).contains(id.utf8.count), let first = id.unicodeScalars.first,
              first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    /// The spec as stored in the ledger: canonical JSON (sorted keys).
    public func canonicalJSON() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// A fingerprint of `canonicalJSON()` (64-bit FNV-1a, hex): equal specs, equal digests.
    public var digest: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in canonicalJSON().utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
