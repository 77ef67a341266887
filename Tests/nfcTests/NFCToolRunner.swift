import Foundation
import NFCTestSupport
import Testing

/// Runs the built `nfc` executable, as a user would.
struct NFCTool {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `nfc` binary next to the test bundle (SwiftPM builds it with the tests).
    static var executable: URL? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("nfc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `nfc` to its end. The wait happens on a thread of its own, never on the cooperative
    /// pool (see ``offCooperativePool(_:)``).
    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) async throws -> Result {
        try await offCooperativePool { try runBlocking(arguments, stdin: stdin, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], stdin: String?, environment: [String: String]) throws -> Result {
        guard let executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "nfc executable not built next to the tests"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        let inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let stdin { inp.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
