import ArgumentParser

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Guided capture: the capture session's host, with recorded frames instead of a camera.",
        subcommands: [CaptureReplayCommand.self]
    )
}
