import Foundation
import NFCTestSupport
import Testing

/// `--reader pn532-target:PATH` in a CLI command: the pseudo-terminal's link goes away with the
/// command, also when Ctrl-C or SIGTERM ends it while it waits for a program.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PN532TargetCommandTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWhileWaitingRemovesTheLink(_ signal: Int32) async throws {
        let executable = try #require(NFCTool.executable)
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("pn532-target-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = executable
        process.arguments = ["read", "--reader", "pn532-target:\(link)"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The command says it waits once the link is made: read standard error up to that line.
        let said = await offCooperativePool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        #expect(said.contains("waiting for a program to drive the PN532 at \(link)"), "\(said)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil, "the link is there while it waits")
        kill(process.processIdentifier, signal)
        let status = await offCooperativePool {
            process.waitUntilExit()
            return (process.terminationReason, process.terminationStatus)
        }
        #expect(status.0 == .uncaughtSignal && status.1 == signal, "the process still dies of the signal")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil, "the link is gone")
        try? FileManager.default.removeItem(atPath: link)
    }
}
