import ArgumentParser
import Foundation
import Regression

struct RegressionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regression",
        abstract: "Run the reference datasets of a manifest, check their thresholds and write a report.",
        discussion: """
            For each dataset of MANIFEST (default Datasets/manifest.json), optionally restricted to \
            --subset: generates the synthetic capture (cached by its settings) or reads the real scene \
            in place, runs the pipeline, measures the metrics, and compares them with the dataset's \
            thresholds. Prints a table; writes OUT/report/index.html with one page per dataset (plots \
            rendered by this program) and OUT/results.json. Exit code 1 when any threshold breaks or a \
            run fails; datasets whose data is absent are reported as skipped.
            """
    )

    @Option(help: "Manifest of datasets and thresholds.")
    var manifest = "Datasets/manifest.json"

    @Option(help: "Only datasets in this subset (e.g. ci).")
    var subset: String?

    @Option(help: "Only these datasets (comma-separated names).")
    var only: String?

    @Option(name: .shortAndLong, help: "Work and report folder.")
    var output = "out/regression"

    func run() throws {
        let manifestURL = URL(fileURLWithPath: manifest)
        let loaded = try RegressionManifest.load(manifestURL)
        var datasets = loaded.datasets(inSubset: subset)
        if let only {
            let names = Set(only.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
            let unknown = names.subtracting(loaded.datasets.map(\.name))
            guard unknown.isEmpty else {
                throw CommandFailure("unknown dataset(s): \(unknown.sorted().joined(separator: ", ")); \(manifest) has "
                                     + loaded.datasets.map(\.name).joined(separator: ", "))
            }
            datasets = datasets.filter { names.contains($0.name) }
        }
        guard !datasets.isEmpty else {
            let subsets = Set(loaded.datasets.flatMap(\.subsets)).sorted().joined(separator: ", ")
            throw CommandFailure(subset.map { "no dataset of \(manifest) is in subset '\($0)' (its subsets: \(subsets))" } ?? "\(manifest) lists no datasets")
        }

        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        try FileManager.default.createDirectory(at: outputURL, withIntermediateDirectories: true)
        let runner = RegressionRunner(manifestDirectory: manifestURL.deletingLastPathComponent(), workDirectory: outputURL) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
        var runs: [DatasetRun] = []
        for dataset in datasets {
            let run = runner.run(dataset)
            FileHandle.standardError.write(Data("\(dataset.name): \(run.outcome.status.rawValue)\(run.outcome.message.map { " — \($0)" } ?? "")\n".utf8))
            runs.append(run)
        }
        let outcomes = runs.map(\.outcome)
        print(RegressionTable.render(outcomes))
        let report = try RegressionReportWriter.write(runs, to: outputURL.appendingPathComponent("report", isDirectory: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(outcomes).write(to: outputURL.appendingPathComponent("results.json"), options: .atomic)
        print("report: \(report.path)")
        if !outcomes.allSatisfy(\.isAcceptable) { throw ExitCode(1) }
    }
}
