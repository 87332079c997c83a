import ArgumentParser
import Foundation
import ReconstructionCore

@main
struct Photogrammetry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photogrammetry",
        abstract: "Photos to camera poses and 3D models, on the CPU.",
        discussion: """
            Coordinate conventions (all outputs): cameras look down +z with x right and y down \
            (OpenCV/COLMAP); pixel (0, 0) is the image's top-left corner, so the first pixel's centre \
            is (0.5, 0.5). poses.json stores camera-to-world poses; COLMAP's images.txt stores \
            world-to-camera; transforms.json uses nerfstudio's OpenGL camera axes (x right, y up, z back).
            """,
        version: PhotogrammetryVersion.string,
        subcommands: [PosesCommand.self, EvaluatePosesCommand.self, RegressionCommand.self, SynthCommand.self, SynthFramesCommand.self, CaptureCommand.self, ScalingCommand.self, ReconstructCommand.self, EvaluateCommand.self,
                      BatchCommand.self, JobsCommand.self, ServeCommand.self]
    )

    /// ArgumentParser's own entry point, except that a command line that asks for JSON (`--json`)
    /// and is refused before the command runs (an unknown value, a bad option, an output path that
    /// cannot be written) also gets its `error` event on standard output; failures while running
    /// are reported by the commands themselves.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(joiningNegativeValues(Array(CommandLine.arguments.dropFirst())))
        } catch {
            if CommandLine.arguments.dropFirst().contains("--json"), exitCode(for: error) != .success {
                print(#"{"event":"error","message":"\#(ProgressReporter.escaped(message(for: error)))"}"#)
            }
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                var synchronous = command
                try synchronous.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// `arguments` with each negative number that follows an option joined to it (`--window -1`
    /// → `--window=-1`): ArgumentParser takes a word starting with "-" for an option, and said
    /// "Missing value for '--window'" instead of what is wrong with -1 (`--elevation -10`, a
    /// valid value, was refused the same way).
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for argument in arguments {
            if let last = out.last, last.hasPrefix("--"), last.count > 2, !last.contains("="),
               argument.hasPrefix("-"), argument.count > 1, Double(argument) != nil {
                out[out.count - 1] = last + "=" + argument
            } else {
                out.append(argument)
            }
        }
        return out
    }
}
