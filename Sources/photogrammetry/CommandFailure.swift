/// A failure of a command's input or output that is not a usage mistake: ArgumentParser prints
/// "Error: <description>" without the usage lines, and the command exits with code 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
