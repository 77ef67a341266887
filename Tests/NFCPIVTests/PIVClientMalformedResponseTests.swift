import Crypto
import ISO7816
import NFCPIV
import NFCTestSupport
import Testing

/// The client reads whatever a card answers without trapping: malformed answers throw
/// `PIVError.malformedResponse` naming the command and the field.
@Suite struct PIVClientMalformedResponseTests {
    func malformed(_ error: any Error) -> (command: String, field: String)? {
        if let error = error as? PIVError, error.code == .malformedResponse, let command = error.command, let field = error.field {
            return (command, field)
        }
        return nil
    }

    @Test(
        arguments: [
            ([0x61, 0x05, 0x4F, 0x06, 0x00, 0x90, 0x00], "application property template"),  // 61 overruns the data
            ([0x6F, 0x02, 0x84, 0x00, 0x90, 0x00], "61"),  // not an application property template
            ([0x61, 0x03, 0x50, 0x01, 0x41, 0x90, 0x00], "61/4F"),  // no AID
            ([0x61, 0x0A, 0x4F, 0x01, 0x00, 0xAC, 0x05, 0x80, 0x02, 0x11, 0x11, 0x06, 0x90, 0x00], "61/AC"),
            ([0x61, 0x09, 0x4F, 0x01, 0x00, 0xAC, 0x04, 0x80, 0x02, 0x11, 0x11, 0x90, 0x00], "61/AC/80"),
            ([0x61, 0x03, 0x4F, 0x05, 0x00, 0x90, 0x00], "61"),  // 4F overruns the template
            ([0x90, 0x00], "61"),  // nothing at all
        ] as [([UInt8], String)])
    func selectAnswers(response: [UInt8], field: String) async throws {
        let client = PIVClient(transmitter: ScriptedTransmitter([response]))
        do {
            try await client.select()
            Issue.record("expected a malformed-response error")
        } catch {
            #expect(malformed(error)?.field == field, "\(error)")
        }
    }

    @Test func getDataAnswers() async throws {
        // 53 says 0x20 bytes but 2 follow.
        var client = PIVClient(transmitter: ScriptedTransmitter([[0x53, 0x20, 0x30, 0x00, 0x90, 0x00]]))
        await #expect(throws: PIVError.self) { _ = try await client.readCHUID() }
        // A certificate object without 70.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x53, 0x03, 0x71, 0x01, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.readCertificate(slot: .authentication)
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "70")
        }
        // Another tag than 53.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x54, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.getObject(.chuid)
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "53")
        }
        // A CHUID whose GUID is not 16 bytes.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x53, 0x03, 0x34, 0x01, 0xAA, 0x90, 0x00]]))
        do {
            _ = try await client.readCHUID()
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "CHUID/34")
        }
        // A discovery object with a one-byte PIN usage policy.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x7E, 0x07, 0x4F, 0x01, 0xA0, 0x5F, 0x2F, 0x01, 0x40, 0x90, 0x00]]))
        do {
            _ = try await client.readDiscovery()
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7E/5F2F")
        }
        // 6A82: the object does not exist.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x6A, 0x82]]))
        #expect(try await client.readCertificate(slot: .signature) == nil)
    }

    @Test func generalAuthenticateAnswers() async throws {
        // A signature that is not DER.
        var client = PIVClient(transmitter: ScriptedTransmitter([[0x7C, 0x04, 0x82, 0x02, 0x30, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.sign(slot: .cardAuthentication, digest: [UInt8](repeating: 1, count: 32))
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7C/82")
        }
        // No 7C template.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x82, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.sign(slot: .cardAuthentication, digest: [UInt8](repeating: 1, count: 32))
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7C")
        }
        // A witness that is not one AES block.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x7C, 0x04, 0x80, 0x02, 0x01, 0x02, 0x90, 0x00]]))
        do {
            try await client.authenticate(managementKey: [UInt8](repeating: 1, count: 24))
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7C/80")
        }
        // An ECDH answer of the wrong size.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x7C, 0x03, 0x82, 0x01, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.keyAgreement(slot: .keyManagement, peer: P256.KeyAgreement.PrivateKey().publicKey)
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7C/82")
        }
    }

    @Test func generateAnswers() async throws {
        // A point that is not on the curve.
        let point = [0x04] + [UInt8](repeating: 0x01, count: 64)
        var client = PIVClient(
            transmitter: ScriptedTransmitter([BERTLV(tag: 0x7F49, value: BERTLV(tag: 0x86, value: point).encoded).encoded + [0x90, 0x00]]))
        do {
            _ = try await client.generateKey(slot: .authentication)
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7F49/86")
        }
        // 7F49 without 86.
        client = PIVClient(transmitter: ScriptedTransmitter([[0x7F, 0x49, 0x03, 0x81, 0x01, 0x00, 0x90, 0x00]]))
        do {
            _ = try await client.generateKey(slot: .authentication)
            Issue.record("expected an error")
        } catch {
            #expect(malformed(error)?.field == "7F49/86")
        }
    }

    @Test func pinStatusWordsAndBlocks() async throws {
        let transmitter = ScriptedTransmitter([[0x63, 0xC2], [0x69, 0x83], [0x63, 0xC0], [0x90, 0x00]])
        let client = PIVClient(transmitter: transmitter)
        await #expect(throws: PIVError.wrongReference(.pin, retriesLeft: 2)) { try await client.verifyPIN("1234567") }
        await #expect(throws: PIVError.blocked(.pin)) { try await client.verifyPIN("1234567") }
        await #expect(throws: PIVError.blocked(.pin)) { try await client.verifyPIN("1234567") }
        try await client.verifyPIN("123456")
        // The PIN block is the PIN padded with FF to 8 bytes (SP 800-73-4 Part 2 §2.4.3).
        #expect(transmitter.commands.last == [0x00, 0x20, 0x00, 0x80, 0x08, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0xFF, 0xFF])
        await #expect(throws: PIVError.self) { try await client.verifyPIN("12345") }
        await #expect(throws: PIVError.self) { try await client.verifyPIN("123456789") }
    }
}

/// What the client refuses before it sends anything.
@Suite struct PIVClientArgumentTests {
    /// SP 800-73-4 Part 2 §2.4.3: a PIN is 6 to 8 characters (padded with FF to 8 bytes), a PUK 8.
    @Test("a PIN of 5 characters is refused without a command; 6 is sent as its padded block")
    func pinLength() async throws {
        let short = ScriptedTransmitter([])
        await #expect(throws: PIVError.invalidArgument("a PIN has 6–8 characters")) {
            try await PIVClient(transmitter: short).verifyPIN("12345")
        }
        #expect(short.commands.isEmpty)
        let six = ScriptedTransmitter([[0x90, 0x00]])
        try await PIVClient(transmitter: six).verifyPIN("123456")
        // VERIFY 00 20 00 80 08 | "123456" FF FF
        #expect(six.commands == [[0x00, 0x20, 0x00, 0x80, 0x08, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0xFF, 0xFF]])
    }
}
