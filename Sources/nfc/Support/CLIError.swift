import ArgumentParser

/// A failure reported to the user as one line on standard error, with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
