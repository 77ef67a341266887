import Crypto
import ISO7816
import NFCCBOR
import NFCTestSupport
import Testing

@testable import NFCFIDO

/// The client against scripted answers: every malformed answer is a typed error naming the field.
@Suite struct FIDOClientResponseTests {
    @Test func selectAnswers() async throws {
        #expect(try await FIDOClient(transmitter: ScriptedTransmitter([Array("FIDO_2_0".utf8) + [0x90, 0x00]])).select() == .fido2)
        for answer in [[0x6A, 0x82], Array("U2F_V3".utf8) + [0x90, 0x00], [0xFF, 0xFE, 0x90, 0x00]] as [[UInt8]] {
            await #expect(throws: FIDOError.self) { try await FIDOClient(transmitter: ScriptedTransmitter([answer])).select() }
        }
    }

    @Test("NFCCTAP_MSG with P1 80, then NFCCTAP_GETRESPONSE while the key answers 9100")
    func statusUpdates() async throws {
        let info: CBOR = [1: ["FIDO_2_0"], 3: .bytes(Array(repeating: 0, count: 16))]
        let transmitter = ScriptedTransmitter([[0x01, 0x91, 0x00], [0x02, 0x91, 0x00], [0x00] + info.encoded + [0x90, 0x00]])
        let got = try await FIDOClient(transmitter: transmitter).getInfo()
        #expect(got.versions == ["FIDO_2_0"])
        #expect(
            transmitter.commands.map { Array($0.prefix(4)) } == [
                [0x80, 0x10, 0x80, 0x00], [0x80, 0x11, 0x00, 0x00], [0x80, 0x11, 0x00, 0x00],
            ])
        #expect(transmitter.commands.first?.dropFirst(7).first == 0x04)  // extended Lc, then the command byte

        let withoutGetResponse = ScriptedTransmitter([[0x00] + info.encoded + [0x90, 0x00]])
        _ = try await FIDOClient(transmitter: withoutGetResponse, usesGetResponse: false).getInfo()
        #expect(withoutGetResponse.commands.first?[2] == 0x00)

        let endless = ScriptedTransmitter(Array(repeating: [0x01, 0x91, 0x00], count: 10))
        await #expect(throws: FIDOError.tooManyStatusUpdates(5)) {
            try await FIDOClient(transmitter: endless, maximumStatusUpdates: 5).getInfo()
        }
    }

    @Test func errorStatusesAndBadCBOR() async throws {
        do {
            _ = try await FIDOClient(transmitter: ScriptedTransmitter([[0x31, 0x90, 0x00]])).getInfo()
            Issue.record("expected an error")
        } catch let error as FIDOError {
            #expect(error.code == .ctap2)
            #expect(error.ctap2Status == .pinInvalid && error.ctap2Status?.name == "CTAP2_ERR_PIN_INVALID")
            #expect(error.field == "authenticatorGetInfo")
            #expect(error.description == "authenticatorGetInfo: CTAP2_ERR_PIN_INVALID (0x31)")
        }
        // Unsorted keys in the answer.
        do {
            _ = try await FIDOClient(transmitter: ScriptedTransmitter([[0x00, 0xA2, 0x03, 0x00, 0x01, 0x00, 0x90, 0x00]])).getInfo()
            Issue.record("expected an error")
        } catch let error as FIDOError {
            #expect(error.code == .invalidCBOR)
            #expect(error.cborError?.code == .unsortedMapKeys && error.cborError?.offset == 3)
        }
        let cases: [[UInt8]] = [
            [0x90, 0x00],  // no status byte
            [0x00, 0x90, 0x00],  // no map
            [0x00, 0x01, 0x90, 0x00],  // not a map
            [0x00] + CBOR.map([1: ["FIDO_2_0"], 3: .bytes([1])]).encoded + [0x90, 0x00],  // short AAGUID
            [0x00, 0xA0, 0x6A, 0x80],  // SW error
        ]
        for answer in cases {
            await #expect(throws: FIDOError.self) { try await FIDOClient(transmitter: ScriptedTransmitter([answer])).getInfo() }
        }
        #expect(CTAP2Status(rawValue: 0x99).name == "0x99")
    }

    @Test func authenticatorDataParsing() throws {
        let key = P256.Signing.PrivateKey()
        let cose = COSEKey(publicKey: key.publicKey)
        let rpHash = Array(SHA256.hash(data: Array("a.example".utf8)))
        let good = rpHash + [0x45, 0, 0, 0, 9] + Array(repeating: 1, count: 16) + [0, 2, 0xAB, 0xCD] + cose.cbor.encoded
        let data = try AuthenticatorData(parsing: good)
        #expect(data.flags == [.userPresent, .userVerified, .attestedCredentialData])
        #expect(data.signatureCounter == 9)
        #expect(data.attestedCredential?.credentialID == [0xAB, 0xCD])
        #expect(data.attestedCredential?.publicKey == cose)
        #expect(data.matches(rpID: "a.example"))
        #expect(throws: FIDOError.self) { try AuthenticatorData(parsing: Array(good.prefix(36))) }
        #expect(throws: FIDOError.self) { try AuthenticatorData(parsing: Array(good.dropLast())) }
        #expect(throws: FIDOError.self) { try AuthenticatorData(parsing: good + [0x00]) }
        #expect(throws: FIDOError.self) { try AuthenticatorData(parsing: Array(good.prefix(60))) }
        // A COSE key of another algorithm, or off the curve.
        var rs256 = cose.cbor.mapValue ?? [:]
        rs256[.int(3)] = -257
        #expect(throws: FIDOError.self) { try COSEKey(.map(rs256)) }
        var offCurve = cose.cbor.mapValue ?? [:]
        offCurve[.int(-3)] = .bytes(Array(repeating: 1, count: 32))
        #expect(throws: FIDOError.self) { try COSEKey(.map(offCurve)) }
    }

    @Test("an implausible numberOfCredentials is refused instead of polled")
    func numberOfCredentials() async throws {
        let assertion: CBOR = [
            1: ["id": .bytes([1]), "type": "public-key"], 2: .bytes(Array(repeating: 0, count: 37)), 3: .bytes([0x30]), 5: 100_000,
        ]
        let client = FIDOClient(transmitter: ScriptedTransmitter([[0x00] + assertion.encoded + [0x90, 0x00]]))
        do {
            _ = try await client.getAssertions(rpID: "a", clientDataHash: Array(repeating: 0, count: 32))
            Issue.record("expected an error")
        } catch let error as FIDOError {
            #expect(error.code == .malformedResponse && error.field == "getAssertion.numberOfCredentials")
        }
    }

    @Test func u2fRegistrationParsing() throws {
        // 05, key, handle of 2, a certificate whose DER header says 0x82 0x01 0x00 (256 bytes).
        let head: [UInt8] = [0x05] + [0x04] + Array(repeating: 1, count: 64) + [2, 0xAA, 0xBB]
        let certificate: [UInt8] = [0x30, 0x82, 0x01, 0x00] + Array(repeating: 0, count: 256)
        let parsed = try U2FRegistration(parsing: head + certificate + [0x30, 0x01, 0x00])
        #expect(parsed.certificate.count == 260)
        #expect(parsed.keyHandle == [0xAA, 0xBB])
        #expect(parsed.signature == [0x30, 0x01, 0x00])
        #expect(throws: FIDOError.self) { try U2FRegistration(parsing: head + Array(certificate.prefix(100))) }
        #expect(throws: FIDOError.self) { try U2FRegistration(parsing: head + certificate) }  // no signature
        #expect(throws: FIDOError.self) { try U2FRegistration(parsing: [0x04] + Array(head.dropFirst()) + certificate + [1]) }
        #expect(throws: FIDOError.self) { try U2FRegistration(parsing: head + [0x30, 0x85, 1, 1, 1, 1, 1]) }
        #expect(throws: FIDOError.self) { try U2FAuthentication(parsing: [1, 0, 0, 0]) }
    }

    @Test func requestChecks() async throws {
        let client = FIDOClient(transmitter: ScriptedTransmitter([]))
        await #expect(throws: FIDOError.self) { try await client.setPIN("123") }
        await #expect(throws: FIDOError.self) { try await client.setPIN(String(repeating: "9", count: 64)) }
        await #expect(throws: FIDOError.self) {
            try await client.makeCredential(clientDataHash: [1], rp: RelyingParty(id: "x"), user: UserEntity(id: [1]))
        }
        await #expect(throws: FIDOError.self) { try await client.u2fRegister(challenge: [], application: []) }
    }
}

/// CTAP 2.1 §6.5.1: a PIN is at least 4 Unicode code points and at most 63 bytes of UTF-8 (it is
/// padded to 64 bytes with at least one zero before it is encrypted).
@Suite struct FIDOPINLengthTests {
    @Test(
        "PIN length limits: 4 code points, 63 bytes",
        arguments: [
            (String(repeating: "a", count: 63), true), (String(repeating: "a", count: 64), false),
            ("abc", false), ("abcd", true), ("äöüß", true), (String(repeating: "ü", count: 31) + "a", true),
            (String(repeating: "ü", count: 32), false),
        ])
    func pinLimits(pin: String, accepted: Bool) throws {
        if accepted {
            #expect(try FIDOClient.pinBytes(pin) == Array(pin.utf8))
        } else {
            #expect(throws: FIDOError.self) { try FIDOClient.pinBytes(pin) }
        }
    }
}
