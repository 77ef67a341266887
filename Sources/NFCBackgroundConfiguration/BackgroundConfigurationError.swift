/// Why an `--apps` configuration file cannot be used, with the key path of what is wrong.
///
/// A struct with a stable ``Code-swift.struct`` (the project's one error shape).
package struct BackgroundConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, as a stable, comparable value.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        package let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name.
        package var description: String { name }

        /// The file breaks the documented form (docs/background.md): a wrong type, an unknown
        /// key, an invalid entry, an unreadable association file.
        package static let invalid = Code("invalid")
    }

    /// What was wrong.
    package let code: Code
    /// The key path (`apps[0].associatedDomains[1]`); empty for the whole file.
    package let path: String
    /// What was wrong, for people.
    package let reason: String

    init(_ path: String, _ reason: String) {
        code = .invalid
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or the reason alone.
    package var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
