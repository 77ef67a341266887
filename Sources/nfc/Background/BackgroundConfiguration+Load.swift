import Foundation
import NFCBackgroundConfiguration
import NFCJSON
import NFCSimulator

extension BackgroundConfiguration {
    /// Loads a configuration file.
    /// - Throws: ``CLIError`` naming the file and the key path of what is wrong.
    static func load(_ path: String) throws -> BackgroundConfiguration {
        let bytes = try Input.readFile(path)
        do {
            _ = try JSONText.parse(bytes)  // syntax first, so a truncated file says where it ends
        } catch {
            throw CLIError(
                .badInput, "\(path): not valid JSON: \(error.reason)\(error.location.map { " at \($0)" } ?? "")", file: path,
                offset: error.location?.offset)
        }
        do {
            // Association files are read as regular files only (a FIFO would block the load).
            return try parse(Data(bytes), relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent()) { url in
                (try? RegularFile.read(url.path)).map { Data($0) }
            }
        } catch let error as BackgroundConfigurationError {
            throw CLIError(.badInput, "\(path): \(error.description)", file: path)
        }
    }
}
