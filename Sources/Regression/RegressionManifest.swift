import Foundation
import ReconstructionCore

/// The reference datasets the regression command runs, and the thresholds each must meet
/// (`Datasets/manifest.json`).
public struct RegressionManifest: Codable, Sendable, Equatable {
    public var datasets: [Dataset]

    public init(datasets: [Dataset]) { self.datasets = datasets }

    /// One reference dataset: where its data comes from, what runs on it, what it must reach.
    public struct Dataset: Codable, Sendable, Equatable {
        /// Unique name; also the report page's and work folder's name.
        public var name: String
        /// Generator settings of a synthetic capture (exclusive with `path`).
        public var synthetic: SyntheticSource?
        /// Folder of a real scene in the Strecha layout (`images/`, `images/K.txt`,
        /// `gt_dense_cameras/`), relative to the manifest's folder (exclusive with `synthetic`).
        public var path: String?
        /// Named subsets this dataset belongs to (`ci` is what CI runs).
        public var subsets: [String]
        /// Whether the pose stage gets the true intrinsics (`given`) or calibrates itself (`estimated`).
        public var intrinsics: IntrinsicsMode
        /// Metric name → bounds. Metric names are listed in `Metric`.
        public var thresholds: [String: Threshold]
        /// Free text shown in the report.
        public var notes: String?

        public init(name: String, synthetic: SyntheticSource? = nil, path: String? = nil, subsets: [String] = [],
                    intrinsics: IntrinsicsMode = .given, thresholds: [String: Threshold], notes: String? = nil) {
            self.name = name
            self.synthetic = synthetic
            self.path = path
            self.subsets = subsets
            self.intrinsics = intrinsics
            self.thresholds = thresholds
            self.notes = notes
        }
    }

    public enum IntrinsicsMode: String, Codable, Sendable {
        case given, estimated
    }

    /// Settings of `photogrammetry synth` that regenerate a synthetic capture exactly.
    public struct SyntheticSource: Codable, Sendable, Equatable {
        public var scene: String
        public var views: Int
        public var seed: UInt64
        public var width: Int
        public var height: Int
        /// `synth --surroundings` (studio when absent).
        public var surroundings: String?
        /// False: photos only, as `synth --photos-only` writes them (true when absent).
        public var sidecars: Bool?

        public init(scene: String, views: Int, seed: UInt64, width: Int, height: Int, surroundings: String? = nil, sidecars: Bool? = nil) {
            self.scene = scene
            self.views = views
            self.seed = seed
            self.width = width
            self.height = height
            self.surroundings = surroundings
            self.sidecars = sidecars
        }
    }

    /// Inclusive bounds on a metric; either may be absent.
    public struct Threshold: Codable, Sendable, Equatable {
        public var min: Double?
        public var max: Double?

        public init(min: Double? = nil, max: Double? = nil) {
            self.min = min
            self.max = max
        }

        public func admits(_ value: Double) -> Bool {
            guard value.isFinite else { return false }
            if let lo = min, value < lo { return false }
            if let hi = max, value > hi { return false }
            return true
        }

        /// "≥ 0.9", "≤ 0.05", "0.1 … 0.2".
        public var description: String {
            switch (min, max) {
            case let (lo?, hi?): return "\(Self.format(lo)) … \(Self.format(hi))"
            case let (lo?, nil): return "≥ \(Self.format(lo))"
            case let (nil, hi?): return "≤ \(Self.format(hi))"
            default: return "any"
            }
        }

        static func format(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e6 ? String(Int(value)) : String(format: "%.4g", value)
        }
    }

    /// Reads and checks a manifest: names unique, each dataset with exactly one source, known
    /// metric names, non-empty bounds.
    public static func load(_ url: URL) throws -> RegressionManifest {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RegressionError.manifest(url.path, "cannot be read: \(FileReadFailure.reason(url, error))")
        }
        let manifest: RegressionManifest
        do {
            manifest = try JSONDecoder().decode(RegressionManifest.self, from: data)
        } catch {
            throw RegressionError.manifest(url.path, "is not a valid manifest: \(error)")
        }
        try manifest.validate(file: url.path)
        return manifest
    }

    public func validate(file: String) throws {
        var seen = Set<String>()
        for dataset in datasets {
            // The name is the dataset's work and report folder: a plain name, never a path out of them.
            guard !dataset.name.isEmpty, !dataset.name.contains("/"), dataset.name != ".", dataset.name != "..", !dataset.name.hasPrefix(".") else {
                throw RegressionError.manifest(file, "dataset name \"\(dataset.name)\" must be a plain name (no \"/\", not starting with \".\")")
            }
            guard seen.insert(dataset.name).inserted else {
                throw RegressionError.manifest(file, "dataset name \"\(dataset.name)\" appears twice")
            }
            guard (dataset.synthetic == nil) != (dataset.path == nil) else {
                throw RegressionError.manifest(file, "dataset \"\(dataset.name)\" needs exactly one of \"synthetic\" and \"path\"")
            }
            for (name, bound) in dataset.thresholds {
                guard Metric.all.contains(name) else {
                    throw RegressionError.manifest(file, "dataset \"\(dataset.name)\": unknown metric \"\(name)\" (known: \(Metric.all.sorted().joined(separator: ", ")))")
                }
                guard bound.min != nil || bound.max != nil else {
                    throw RegressionError.manifest(file, "dataset \"\(dataset.name)\": threshold for \(name) has neither min nor max")
                }
            }
        }
    }

    /// The datasets of `subset` (all when nil), in manifest order.
    public func datasets(inSubset subset: String?) -> [Dataset] {
        guard let subset else { return datasets }
        return datasets.filter { $0.subsets.contains(subset) }
    }
}
