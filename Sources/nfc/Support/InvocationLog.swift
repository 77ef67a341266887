import Foundation
import NFCJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `OPENCORENFC_CLI_COVERAGE_LOG=FILE`: each run of the tool appends its arguments to FILE, one
/// JSON array per line, so `scripts/check-cli-coverage` can tell which options of which commands
/// the test suites really passed. For tests only: arguments may hold secrets, so the file is
/// created `0600`; one `write` per line to a file opened `O_APPEND`, so concurrent runs do not
/// interleave.
enum InvocationLog {
    static let variable = "OPENCORENFC_CLI_COVERAGE_LOG"

    static func record(_ arguments: [String]) {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let line = Array((JSONValue.array(arguments.map { .string($0) }).serialized(pretty: false) + "\n").utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
