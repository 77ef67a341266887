import Foundation
import NFCPN532
import OpenCoreNFC
import Testing

/// Core NFC's NDEF reader session on a card an outside program plays: libnfc 1.8's
/// `nfc-emulate-forum-tag4` drives a virtual PN532 as a target (`pn532-target:PATH`), serving
/// the NDEF file it is given as an NFC Forum Type 4 tag. The message the session delivers must
/// be that file, byte for byte: our Type 4 engine checked by libnfc's own tag.
extension SessionTests {
    @Suite(.enabled(if: LibNFCEmulator.isInstalled, Comment(rawValue: LibNFCEmulator.skipReason)))
    struct PN532TargetSessionTests {
        @Test func ndefSessionReadsLibnfcsEmulatedType4Tag() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pn532-target-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let message = NFCNDEFMessage(records: [
                try #require(NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org/from-libnfc")),
                try #require(
                    NFCNDEFPayload.wellKnownTypeTextPayload(string: "read by a Core NFC session", locale: Locale(identifier: "en"))),
            ])
            let file = directory.appendingPathComponent("message.ndef")
            let bytes = try message.encoded()
            try bytes.write(to: file)
            let link = directory.appendingPathComponent("pn532").path

            let reader = try PN532TargetReader(linkPath: link)
            NFCSessionEnvironment.shared.reset()
            NFCSessionEnvironment.shared.driver = reader
            NFCSessionEnvironment.shared.appConfiguration = SessionBench.appConfiguration
            let emulator = try LibNFCEmulator.start(file: file.path, device: link)

            let delegate = NDEFReaderDelegate()
            let session = NFCNDEFReaderSession(delegate: delegate, queue: nil, invalidateAfterFirstRead: true)
            session.begin()
            let event = await delegate.log.nextSignificant()
            if case .ndefs(let messages)? = event {
                #expect(messages.count == 1)
                #expect(try messages.first?.encoded() == bytes)
            } else {
                Issue.record("expected didDetectNDEFs, got \(String(describing: event)); libnfc said: \(emulator.output())")
            }
            #expect(await delegate.log.next()?.readerError?.code == .readerSessionInvalidationErrorFirstNDEFTagRead)
            // The session released the card: the program's TgGetData reports it and it exits.
            #expect(await emulator.exited(), "nfc-emulate-forum-tag4 did not end: \(emulator.output())")
            #expect(emulator.output().contains("In: 00  a4  04  00  07  d2  76  00  00  85  01  01  00"))
            await reader.stop()
            #expect(!FileManager.default.fileExists(atPath: link), "the link is removed")
        }
    }
}

/// libnfc's `nfc-emulate-forum-tag4` (Debian's libnfc-bin), run against a virtual PN532.
final class LibNFCEmulator: @unchecked Sendable {
    static let path = "/usr/bin/nfc-emulate-forum-tag4"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }
    static let skipReason = "needs libnfc's nfc-emulate-forum-tag4 (apt install libnfc-bin; .ci/run installs it)"

    let process: Process
    let pipe: Pipe
    /// Yields once, when the process ends (its termination handler).
    let ended: AsyncStream<Void>
    /// What it printed, read once it ended (the test's one task uses it).
    private var printed: String?

    private init(process: Process, pipe: Pipe, ended: AsyncStream<Void>) {
        self.process = process
        self.pipe = pipe
        self.ended = ended
    }

    /// Starts the program on `device` serving `file`.
    static func start(file: String, device: String) throws -> LibNFCEmulator {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [file]
        process.environment = ["LIBNFC_DEVICE": "pn532_uart:\(device)", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let (ended, end) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in
            end.yield()
            end.finish()
        }
        try process.run()
        return LibNFCEmulator(process: process, pipe: pipe, ended: ended)
    }

    /// Waits for the program to end on its own, as an event; if the test is cancelled first
    /// (the suite's time limit), the program is stopped. Returns whether it ended by itself.
    func exited() async -> Bool {
        let byItself = await withTaskCancellationHandler {
            var iterator = ended.makeAsyncIterator()
            return await iterator.next() != nil && !Task.isCancelled
        } onCancel: { [process] in
            process.terminate()
        }
        // Reaped, so that Foundation lets the Process go.
        process.waitUntilExit()
        return byItself
    }

    /// What the program printed (read once it ended; "(still running)" before).
    func output() -> String {
        guard !process.isRunning else { return "(still running)" }
        if printed == nil {
            printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try? pipe.fileHandleForReading.close()
        }
        return printed ?? ""
    }
}
