import ArgumentParser
import Foundation
import Reconstruction
import Regression
import SyntheticCapture

struct ScalingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaling",
        abstract: "Measure how the pose stage grows with the number of views (synthetic ordered captures).",
        discussion: """
            For each view count, generates the synthetic capture (cached in OUT), runs the pose \
            pipeline with the chosen pair selection, and records per-stage wall time and peak resident \
            memory. Prints a Markdown table with growth factors (1.0 = linear) and writes \
            OUT/scaling.json.
            """
    )

    @Option(help: "Comma-separated view counts.")
    var views = "50,100,200"

    @Option(help: "Synthetic scene.")
    var scene: SyntheticSceneKind = .texturedVase

    @Option(help: "Photo size, WxH.")
    var size = "1024x768"

    @Option(help: "Pair selection: auto (the pipeline's default: retrieval plus a window beyond \(PairSelection.exhaustiveLimit) views) or sequential.")
    var matching: Mode = .auto

    @Option(help: "Window (next images matched per image) with --matching sequential.")
    var window = 10

    enum Mode: String, LowercaseArgument {
        case auto, sequential
    }

    @Option(name: .shortAndLong, help: "Work folder.")
    var output = "out/scaling"

    var counts: [Int] { views.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        guard !counts.isEmpty, counts.allSatisfy({ (3...100_000).contains($0) }) else { throw ValidationError("--views must list counts of 3…100000") }
        _ = try PixelSize.parse(size, maximum: 16384)
        if matching == .sequential && window < 1 { throw ValidationError("--window must be at least 1 with --matching sequential") }
    }

    func run() throws {
        let (width, height) = try PixelSize.parse(size, maximum: 16384)
        let dims = [width, height]
        let folder = URL(fileURLWithPath: output, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var runs: [ScalingRun] = []
        for n in counts {
            FileHandle.standardError.write(Data("\(n) views…\n".utf8))
            runs.append(try ScalingRun.run(scene: scene, views: n, width: dims[0], height: dims[1], pairSelection: matching == .auto ? .automatic : .sequential(window: window), folder: folder) {
                FileHandle.standardError.write(Data(($0 + "\n").utf8))
            })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(runs).write(to: folder.appendingPathComponent("scaling.json"), options: .atomic)
        print(ScalingRun.markdown(runs))
    }
}
