import Foundation

extension BackgroundConfiguration {
    /// Loads a configuration file.
    /// - Throws: ``CLIError`` naming the file and the key path of what is wrong.
    static func load(_ path: String) throws -> BackgroundConfiguration {
        let data = try Data(Input.readFile(path))
        do {
            return try parse(data, relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent())
        } catch let error as ConfigurationError {
            throw CLIError("\(path): \(error.description)")
        }
    }
}
