import Foundation
import NFCTestSupport
import Testing

/// `nfc mifare-plus` on virtual MIFARE Plus images: a blank card personalised and committed, then
/// blocks, keys and values at SL3 with every option.
@Suite struct MIFAREPlusCommandTests {
    static let ff = String(repeating: "FF", count: 16)
    static let master = "00112233445566778899AABBCCDDEEFF"

    func image(blank: Bool) async throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plus-\(UUID().uuidString).json").path
        let made = try await NFCTool.run(["tag", "new", "mifare-plus", "-o", path] + (blank ? ["--blank"] : []))
        #expect(made.status == 0, "\(made.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the image holds AES keys")
        return path
    }

    func run(_ arguments: [String], stdin: String? = nil) async throws -> NFCTool.Result {
        let result = try await NFCTool.run(arguments, stdin: stdin)
        #expect(result.status == 0, "\(arguments.prefix(2).joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test func personalizeCommitAndUse() async throws {
        let path = try await image(blank: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = ["--reader", "sim:" + path]
        let info = try await run(["mifare-plus", "info"] + sim + ["--json"])
        #expect(info.stdout.contains("\"securityLevel\" : 0") || info.stdout.contains("\"securityLevel\": 0"), "\(info.stdout)")
        let early = try await NFCTool.run(["mifare-plus", "commit"] + sim)
        #expect(early.status != 0 && early.stderr.contains("0B"), "\(early.stderr)")
        for address in ["9000", "9001"] {
            _ = try await run(["mifare-plus", "perso"] + sim + ["--address", address, "--hex", Self.master])
        }
        _ = try await run(["mifare-plus", "perso"] + sim + ["--address", "9003", "--hex", "-"], stdin: Self.master + "\n")
        _ = try await run(["mifare-plus", "perso"] + sim + ["--address", "0008", "--hex", String(repeating: "88", count: 32)])
        _ = try await run(["mifare-plus", "commit"] + sim + ["--level", "3"])
        let level = try await run(["mifare-plus", "info"] + sim)
        #expect(level.stdout.contains("SL3") && level.stdout.contains("MIFARE Plus EV2"), "\(level.stdout)")

        let key = ["--key", Self.ff]
        let read = try await run(["mifare-plus", "read"] + sim + key + ["--block", "8", "--count", "2", "--json"])
        #expect(read.stdout.contains(String(repeating: "88", count: 32)), "\(read.stdout)")
        _ = try await run(["mifare-plus", "write"] + sim + key + ["--block", "9", "--hex", String(repeating: "99", count: 16), "--plain"])
        let plain = try await run(["mifare-plus", "read"] + sim + key + ["--block", "9", "--plain", "--messaging", "ev0"])
        #expect(plain.stdout.contains("9: " + String(repeating: "99", count: 16)), "\(plain.stdout)")
        let keyB = "B0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF"
        _ = try await run(["mifare-plus", "write"] + sim + key + ["--key-address", "4005", "--hex", keyB])
        _ = try await run(["mifare-plus", "value"] + sim + ["--key", keyB, "--key-b", "--block", "10", "--set", "500"])
        _ = try await run(["mifare-plus", "value"] + sim + ["--key", keyB, "--key-b", "--block", "10", "--increment", "25"])
        let value = try await run(
            ["mifare-plus", "value"] + sim + ["--key", Self.ff, "--key-block", "4004", "--block", "10", "--decrement", "5", "--json"])
        #expect(value.stdout.contains("520"), "\(value.stdout)")
        _ = try await run(
            ["mifare-plus", "write"] + sim + [
                "--key", keyB, "--key-b", "--messaging", "ev0", "--block", "9", "--hex", String(repeating: "A9", count: 16),
            ])
        _ = try await run(
            ["mifare-plus", "write"] + sim + [
                "--key", Self.ff, "--key-block", "4004", "--block", "8", "--hex", String(repeating: "A8", count: 16),
            ])
        let viaB = try await run(["mifare-plus", "read"] + sim + ["--key", keyB, "--key-b", "--block", "8", "--count", "2"])
        #expect(
            viaB.stdout.contains(String(repeating: "A8", count: 16)) && viaB.stdout.contains(String(repeating: "A9", count: 16)),
            "\(viaB.stdout)")
        let ev0 = try await run(["mifare-plus", "value"] + sim + ["--key", keyB, "--key-b", "--messaging", "ev0", "--block", "10"])
        #expect(ev0.stdout.contains("block 10: 520"), "\(ev0.stdout)")
        let wrong = try await NFCTool.run(["mifare-plus", "read"] + sim + ["--key", keyB, "--block", "8"])
        #expect(wrong.status == 4 && wrong.stderr.contains("AuthenticateFirst"), "key A is still FF…: \(wrong.stderr)")
        let other = try await NFCTool.run(["mifare-plus", "read"] + sim + key + ["--key-block", "4004", "--block", "12"])
        #expect(other.status == 4, "block 12 is in sector 3: \(other.stderr)")
        _ = try await run(
            ["mifare-plus", "write"] + sim + ["--key", Self.master, "--key-address", "B000", "--hex", String(repeating: "B0", count: 16)])
        let crossing = try await NFCTool.run(["mifare-plus", "read"] + sim + key + ["--block", "6", "--count", "3"])
        #expect(crossing.status == 64 && crossing.stderr.contains("sector"), "\(crossing.stderr)")
        let slOne = try await NFCTool.run(["mifare-plus", "perso"] + sim + ["--address", "0001", "--hex", Self.ff])
        #expect(slOne.status != 0 && slOne.stderr.contains("0B"), "WritePerso at SL3: \(slOne.stderr)")
    }
}
