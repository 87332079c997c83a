import ArgumentParser

/// An option whose values are lower-case words, read in any case (`--close-openings Never`), as
/// `--detail` and `--texture-format` are.
protocol LowercaseArgument: ExpressibleByArgument, RawRepresentable, CaseIterable where RawValue == String {}

extension LowercaseArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
