import Foundation
import NFCPN532
import NFCTestSupport
import Testing

/// `nfc emulate`: argument errors (no pcscd needed), and whole runs against an in-process vpcd
/// on a loopback socket (the pcscd integration suite lives elsewhere).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct EmulateCommandTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nfc-emulate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func newImage(_ type: String, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("\(type).json").path
        let created = try await NFCTool.run(["tag", "new", type, "-o", path])
        #expect(created.status == 0, "\(created.stderr)")
        return path
    }

    /// The `memory` hex string of a Type 2 image.
    private func memory(_ path: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let tag = try #require(object?["tag"] as? [String: Any])
        return try #require(tag["memory"] as? String)
    }

    @Test(arguments: [[], ["--pcsc", "--pn532", "/tmp/never-pn532"], ["--pn532", "/tmp/never-pn532", "--nfcpy-udp", "54321"]])
    func oneKindOfEmulationIsRequired(_ options: [String]) async throws {
        let result = try await NFCTool.run(["emulate", "--image", "/tmp/never.json"] + options)
        #expect(result.status != 0)
        #expect(result.stderr.contains("give one of --pcsc (pcscd's vpcd reader), --pn532 PATH"), "\(result.stderr)")
    }

    @Test(arguments: ["0", "65536", "host:", "localhost:port"])
    func nfcpyUDPTakesAPort(_ endpoint: String) async throws {
        let result = try await NFCTool.run(["emulate", "--image", "/tmp/never.json", "--nfcpy-udp", endpoint])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--nfcpy-udp takes [HOST:]PORT"), "\(result.stderr)")
    }

    @Test("--pn532 never replaces a file that is not a symbolic link")
    func pn532RefusesAFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag213", in: directory)
        let path = directory.appendingPathComponent("pn532").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        let result = try await NFCTool.run(["emulate", "--image", image, "--pn532", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("exists and is not a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    @Test("--pn532: a host talks to the virtual PN532 through the link; its write lands in the image; SIGTERM removes the link")
    func pn532WholeRun() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag213", in: directory)
        let linkPath = directory.appendingPathComponent("pn532").path
        let emulator = try RunningTool.start(["emulate", "--image", image, "--pn532", linkPath])
        let banner = await emulator.readStandardError(until: "Ctrl-C to stop")
        #expect(banner.contains("emulating ntag213 045A7B138C2180 in a virtual PN532"))
        let link = PN532Link(line: try PN532Line.openSerial(path: linkPath))
        // UM0701-02: GetFirmwareVersion, InListPassiveTarget (106 kbit/s type A), then WRITE
        // (A2h, NTAG213 data sheet §10.4) of page 6 through InDataExchange.
        #expect(try await link.execute(.getFirmwareVersion, timeout: .seconds(5)) == [0x32, 0x01, 0x06, 0x07])
        #expect(try await link.execute(.inListPassiveTarget, [0x01, 0x00], timeout: .seconds(5)).prefix(4) == [0x01, 0x01, 0x00, 0x44])
        #expect(try await link.execute(.inDataExchange, [0x01, 0xA2, 0x06, 0x01, 0x02, 0x03, 0x04], timeout: .seconds(5)) == [0x00])
        link.line.close()
        emulator.process.terminate()
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped after 3 commands: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: linkPath), "the link is gone")
        #expect(try memory(image).dropFirst(48).hasPrefix("01020304"), "page 6 saved")
    }

    @Test("--reader pn532: reads and writes through nfc emulate --pn532 as sim: does; a missing device is one line")
    func pn532ReaderThroughTheEmulator() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag216", in: directory)
        let linkPath = directory.appendingPathComponent("pn532").path
        let emulator = try RunningTool.start(["emulate", "--image", image, "--pn532", linkPath])
        _ = await emulator.readStandardError(until: "Ctrl-C to stop")
        let written = try await NFCTool.run(["write", "--reader", "pn532:\(linkPath)", "--uri", "https://example.org/through-a-pn532"])
        #expect(written.status == 0, "\(written.stderr)")
        let read = try await NFCTool.run(["read", "--reader", "pn532:\(linkPath)", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        emulator.process.terminate()
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let direct = try await NFCTool.run(["read", "--reader", "sim:\(image)", "--json"])
        #expect(direct.stdout.contains("https://example.org/through-a-pn532"), "the write landed in the image")
        #expect(read.stdout == direct.stdout, "pn532: reads what sim: reads")

        let missing = directory.appendingPathComponent("ttyUSB9").path
        let refused = try await NFCTool.run(["read", "--reader", "pn532:\(missing)"])
        #expect(refused.status == 3, "not found")
        #expect(refused.stderr.contains(missing) && refused.stderr.contains("no such serial device"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
    }

    @Test(arguments: ["localhost", "127.0.0.1:", ":35963", "127.0.0.1:70000", "127.0.0.1:port"])
    func badVPCD(_ value: String) async throws {
        let result = try await NFCTool.run(["emulate", "--image", "/tmp/never.json", "--pcsc", "--vpcd", value])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--vpcd takes HOST:PORT"), "\(result.stderr)")
    }

    @Test func negativeRemoveAfter() async throws {
        let result = try await NFCTool.run(["emulate", "--image", "/tmp/never.json", "--pcsc", "--remove-after=-1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--remove-after"))
    }

    @Test func missingImage() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("absent.json").path
        let result = try await NFCTool.run(["emulate", "--image", path, "--pcsc"])
        #expect(result.status == 3, "not found")
        #expect(result.stderr.contains(path) && result.stderr.contains("cannot open"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try await NFCTool.run(["emulate", "--pcsc"]).status != 0, "--image is required")
    }

    @Test func corruptImage() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("corrupt.json").path
        try Data("{\"format\":".utf8).write(to: URL(fileURLWithPath: path))
        let result = try await NFCTool.run(["emulate", "--image", path, "--pcsc"])
        #expect(result.status == 2, "bad input")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test("--remove-after 2: two APDUs answered, the third finds no card; the write was saved")
    func removeAfter() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag216", in: directory)
        let vpcd = try LoopbackVPCD()
        let emulator = try RunningTool.start([
            "emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(vpcd.port)", "--remove-after", "2",
        ])
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit([0x04]) == hexBytes("3B8F8001804F0CA0000003060300030000000068"))
        #expect(try vpcd.transmit(hexBytes("FF D6 00 05 04 DE AD BE EF")) == [0x90, 0x00])
        #expect(try vpcd.transmit(hexBytes("FF B0 00 05 04")) == hexBytes("DE AD BE EF 90 00"))
        #expect(try vpcd.transmit(hexBytes("FF B0 00 05 04")) == nil)
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("emulating ntag216 045A7B168C2180 on vpcd 127.0.0.1:\(vpcd.port) (Ctrl-C to stop)"))
        #expect(result.stderr.contains("card removed after 2 commands"))
        #expect(try memory(image).dropFirst(40).hasPrefix("deadbeef"), "page 5 saved")
    }

    @Test("SIGTERM stops cleanly with the image saved")
    func terminate() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag213", in: directory)
        let vpcd = try LoopbackVPCD()
        let emulator = try RunningTool.start(["emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(vpcd.port)"])
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit(hexBytes("FF D6 00 06 04 01 02 03 04")) == [0x90, 0x00])
        emulator.process.terminate()
        #expect(try vpcd.receive() == nil, "the card left")
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped after 1 commands"))
        #expect(try memory(image).dropFirst(48).hasPrefix("01020304"), "page 6 saved")
    }

    @Test("A SIGTERM right after the connection is never lost (it was, 1 time in 20, with a dispatch signal source)")
    func earlySIGTERM() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag213", in: directory)
        for round in 0..<16 {
            let vpcd = try LoopbackVPCD()
            // Started from a cooperative thread, the tool inherits SIGTERM blocked, as from any
            // dispatch thread: the case where the signal used to be dropped.
            let emulator = try RunningTool.start(["emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(vpcd.port)"])
            try vpcd.accept()
            emulator.process.terminate()
            #expect(try vpcd.receive() == nil, "round \(round): the card left")
            let result = await emulator.finish()
            #expect(result.status == 0, "round \(round): \(result.stderr)")
        }
    }

    @Test("--reader-profile acr122u: the manual's ATR, firmware string, Read Binary and Direct Transmit through vpcd")
    func acr122uProfile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag216", in: directory)
        let vpcd = try LoopbackVPCD()
        let emulator = try RunningTool.start([
            "emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(vpcd.port)", "--reader-profile", "acr122u",
        ])
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit([0x04]) == hexBytes("3B8F8001804F0CA0000003060300030000000068"))
        #expect(try vpcd.transmit(hexBytes("FF 00 48 00 00")) == Array("ACR122U215".utf8))
        #expect(try vpcd.transmit(hexBytes("FF C2 00 00 02 81 00")) == [0x63, 0x00])
        #expect(try vpcd.transmit(hexBytes("FF 00 00 00 08 D4 42 A2 05 DE AD BE EF")) == hexBytes("D5 43 02 90 00"))
        #expect(try vpcd.transmit(hexBytes("FF B0 00 05 04")) == hexBytes("DE AD BE EF 90 00"))
        emulator.process.interrupt()
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try memory(image).dropFirst(40).hasPrefix("deadbeef"), "the write through Direct Transmit was saved")
    }

    @Test(
        "--reader-profile omnikey5022 and utrust3700f through vpcd: Read Binary of 16 answers 16 and 4 bytes, HID's product name, Identiv's FF 4A refused for a Type 2 tag",
        arguments: ["omnikey5022", "utrust3700f"])
    func vendorProfiles(profile: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("ntag216", in: directory)
        let vpcd = try LoopbackVPCD()
        let emulator = try RunningTool.start([
            "emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(vpcd.port)", "--reader-profile", profile,
        ])
        try vpcd.accept()
        try vpcd.send([0x01])
        #expect(try vpcd.transmit([0x04]) == hexBytes("3B8F8001804F0CA0000003060300030000000068"), "a Part 3 ATR")
        let read = try #require(try vpcd.transmit(hexBytes("FF B0 00 04 10")))
        #expect(read.count == (profile == "omnikey5022" ? 18 : 6) && read.suffix(2) == [0x90, 0x00])
        let product = try #require(try vpcd.transmit(hexBytes("FF 70 07 6B 08 A2 06 A0 04 A0 02 82 00 00")))
        if profile == "omnikey5022" {
            #expect(product.prefix(3) == [0xBD, 32, 0x82] && product.suffix(2) == [0x90, 0x00])
        } else {
            #expect(product == [0x6A, 0x81])
            #expect(try vpcd.transmit(hexBytes("FF 4A 00 00 00")) == [0x6A, 0x81])
        }
        emulator.process.interrupt()
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(
        "--reader-profile: unknown, without --pcsc, with --basic-reader, or for a tag the reader cannot see is a usage error",
        arguments: [
            (
                ["--pcsc", "--reader-profile", "acr38u"],
                "the profiles are generic, acr122u, acr1252u, acr1552u, omnikey5022, omnikey5427, utrust3700f"
            ),
            (["--nfcpy-udp", "54321", "--reader-profile", "acr122u"], "--reader-profile goes with --pcsc"),
            (["--pcsc", "--basic-reader", "--reader-profile", "acr122u"], "does not go with --reader-profile acr122u"),
        ])
    func badReaderProfile(options: [String], message: String) async throws {
        let result = try await NFCTool.run(["emulate", "--image", "/tmp/never.json"] + options)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(
        "--reader-profile acr122u or utrust3700f refuses an ISO/IEC 15693 tag: neither reader sees one",
        arguments: ["acr122u", "utrust3700f"])
    func cannotSeeISO15693(profile: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("slix2", in: directory)
        let result = try await NFCTool.run(["emulate", "--image", image, "--pcsc", "--reader-profile", profile])
        #expect(result.status == 64)
        #expect(result.stderr.contains("cannot see") && result.stderr.contains("ISO/IEC 15693"), "\(result.stderr)")
    }

    @Test("--reader-profile on a reading command: PC/SC readers only, and a known profile")
    func readerProfileOnReadingCommands() async throws {
        let simulated = try await NFCTool.run([
            "read", "--reader", "sim:/tmp/never-\(UUID().uuidString).json", "--reader-profile", "acr122u",
        ])
        #expect(simulated.status == 64)
        #expect(simulated.stderr.contains("--reader-profile is for PC/SC readers"), "\(simulated.stderr)")
        let unknown = try await NFCTool.run(["read", "--reader", "pcsc", "--reader-profile", "nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no reader profile \"nope\""), "\(unknown.stderr)")
    }

    @Test("Started before vpcd: one waiting line, then it connects; it reconnects when vpcd goes")
    func waitsAndReconnects() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try await newImage("slix2", in: directory)
        let port = try LoopbackVPCD().port  // free now, listened on later
        let emulator = try RunningTool.start(["emulate", "--image", image, "--pcsc", "--vpcd", "127.0.0.1:\(port)", "--basic-reader"])
        let waiting = await emulator.readStandardError(until: "waiting for vpcd")
        #expect(waiting.contains("connection refused — is pcscd running with vsmartcard-vpcd?"))
        let vpcd = try LoopbackVPCD(port: port)
        try vpcd.accept()
        #expect(try vpcd.transmit(hexBytes("FF C2 00 00 02 81 00")) == [0x6A, 0x81], "--basic-reader")
        vpcd.closeConnection()
        try vpcd.accept()
        #expect(try vpcd.transmit(hexBytes("FF B0 00 00 00")) == hexBytes("E1 40 27 01 90 00"))
        emulator.process.interrupt()
        #expect(try vpcd.receive() == nil)
        let result = await emulator.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let text = waiting + result.stderr
        #expect(text.components(separatedBy: "waiting for vpcd").count == 2, "one waiting line: \(text)")
        #expect(text.contains("vpcd closed the connection; reconnecting"))
        #expect(text.contains("connected to vpcd at 127.0.0.1:\(port)"))
        #expect(text.contains("stopped after 2 commands"))
    }
}

/// The `nfc` executable running in the background, its standard error read as it comes. Its
/// waits run off the cooperative pool (``offCooperativePool(_:)``).
struct RunningTool: @unchecked Sendable {
    let process: Process
    let output: Pipe
    let error: Pipe

    static func start(_ arguments: [String]) throws -> RunningTool {
        guard let executable = NFCTool.executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "nfc executable not built next to the tests"])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningTool(process: process, output: output, error: error)
    }

    /// Reads standard error until `marker` appears (or it ends), and returns what was read.
    func readStandardError(until marker: String) async -> String {
        await offCooperativePool { self.readStandardErrorBlocking(until: marker) }
    }

    private func readStandardErrorBlocking(until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// Waits for the process to end and returns its status and the rest of its output.
    func finish() async -> NFCTool.Result {
        await offCooperativePool { self.finishBlocking() }
    }

    private func finishBlocking() -> NFCTool.Result {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return NFCTool.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
