import Crypto
import Foundation
import ISO7816
import NFCCBOR
import NFCFIDO
import NFCSimulator
import Testing

/// The emulated authenticator's own rules: malformed CBOR, missing parameters, NFCCTAP_GETRESPONSE,
/// cancel, image persistence.
@Suite struct FIDOAuthenticatorTests {
    /// Sends a raw NFCCTAP_MSG and returns the answer data and SW.
    func raw(_ transmitter: AppletTransmitter, _ message: [UInt8], p1: UInt8 = 0x00) async throws -> ResponseAPDU {
        try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x10, p1: p1, data: message, expectedLength: 65_536))
    }

    @Test("malformed or non-canonical CBOR commands get CTAP2_ERR_INVALID_CBOR, bad parameters their statuses")
    func malformedCommands() async throws {
        let transmitter = AppletTransmitter()
        let cases: [([UInt8], UInt8)] = [
            ([0x01, 0xA2, 0x02, 0x00, 0x01, 0x00], 0x12),  // unsorted keys
            ([0x01, 0xA1, 0x01], 0x12),  // truncated
            ([0x01, 0xBF, 0xFF], 0x12),  // indefinite map
            ([0x01, 0xA1, 0x18, 0x01, 0x00], 0x12),  // non-shortest key
            ([0x01, 0x80], 0x11),  // not a map
            ([0x01, 0xA0], 0x14),  // nothing
            ([0x02, 0xA1, 0x01, 0x01], 0x11),  // rpId of the wrong type
            ([0x02, 0xA1, 0x01, 0x61, 0x61], 0x14),  // clientDataHash missing
            ([0x06, 0xA2, 0x01, 0x01, 0x02, 0x01], 0x02),  // PIN protocol 1 is not offered
            ([0x06, 0xA2, 0x01, 0x02, 0x02, 0x0F], 0x3E),  // unknown subcommand
            ([0x0A], 0x01),  // unknown command
            ([0x0B], 0x00),  // authenticatorSelection: the tap selected it
            ([], 0x03),
        ]
        for (message, status) in cases {
            let response = try await raw(transmitter, message)
            #expect(response.statusWord == .success)
            #expect(response.data == [status], "\(message)")
        }
        // An unsupported algorithm.
        let request: CBOR = [
            1: .bytes(Array(repeating: 0, count: 32)), 2: ["id": "a"], 3: ["id": .bytes([1])], 4: [["alg": -257, "type": "public-key"]],
        ]
        #expect(try await raw(transmitter, [0x01] + request.encoded).data == [0x26])
    }

    @Test("a long operation answers 9100 STATUS_PROCESSING, then its result on NFCCTAP_GETRESPONSE; P1 11 cancels")
    func getResponse() async throws {
        var applet = FIDOAuthenticator()
        applet.processingUpdates = 2
        let transmitter = AppletTransmitter(applet)
        let request: CBOR = [
            1: .bytes(Array(repeating: 0, count: 32)), 2: ["id": "a"], 3: ["id": .bytes([1])], 4: [["alg": -7, "type": "public-key"]],
        ]
        var response = try await raw(transmitter, [0x01] + request.encoded, p1: 0x80)
        #expect(response.statusWord.rawValue == 0x9100 && response.data == [0x01])
        response = try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x11, expectedLength: 65_536))
        #expect(response.statusWord.rawValue == 0x9100)
        response = try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x11, expectedLength: 65_536))
        #expect(response.statusWord == .success && response.data.first == 0x00 && response.data.count > 100)
        // Nothing pending now.
        response = try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x11, expectedLength: 65_536))
        #expect(response.statusWord == .conditionsNotSatisfied)
        // Cancel: the credential is never made (the counter stays).
        let counter = transmitter.authenticator.signatureCounter
        _ = try await raw(transmitter, [0x01] + request.encoded, p1: 0x80)
        response = try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x11, p1: 0x11, expectedLength: 65_536))
        #expect(response.data == [0x2D])
        #expect(transmitter.authenticator.signatureCounter == counter)
        // GetInfo is quick: no status update.
        #expect(try await raw(transmitter, [0x04], p1: 0x80).statusWord == .success)
        // The client follows the updates on its own.
        let info = try await FIDOClient(transmitter: transmitter).makeCredential(
            clientDataHash: Array(repeating: 1, count: 32), rp: RelyingParty(id: "a"), user: UserEntity(id: [1]))
        try info.verify(clientDataHash: Array(repeating: 1, count: 32))
    }

    @Test("the image keeps keys, counter, PIN and resident credentials; a rebuilt card still signs")
    func imageRoundTrip() async throws {
        let transmitter = AppletTransmitter()
        let client = FIDOClient(transmitter: transmitter)
        try await client.setPIN("246810")
        let token = try await client.getPinUvAuthToken(pin: "246810", permissions: [.makeCredential], rpID: "keep.example")
        let cdh = Array(SHA256.hash(data: [1]))
        let attestation = try await client.makeCredential(
            clientDataHash: cdh, rp: RelyingParty(id: "keep.example"), user: UserEntity(id: [4], name: "dora"), residentKey: true,
            pinUvAuthToken: token)
        let credential = try attestation.credential

        let image = try #require(transmitter.authenticator.appletImage)
        let json = try JSONEncoder().encode(image)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"applet\":\"fido\"") && text.contains("keep.example") && text.contains("pinHash"))
        let decoded = try JSONDecoder().decode(ISO7816AppletImage.self, from: json)
        #expect(decoded == image)
        let rebuilt = try #require(try decoded.makeApplet() as? FIDOAuthenticator)
        #expect(rebuilt.signatureCounter == 1 && rebuilt.hasPIN && rebuilt.residentCredentials.count == 1)

        let again = FIDOClient(transmitter: AppletTransmitter(rebuilt))
        let assertion = try #require(try await again.getAssertions(rpID: "keep.example", clientDataHash: cdh).first)
        try assertion.verify(publicKey: try credential.publicKey.publicKey, clientDataHash: cdh)
        #expect(assertion.authenticatorData.signatureCounter == 2)
        #expect(try await again.getPINRetries() == 8)
        await #expect(throws: FIDOError.self) {
            try await again.makeCredential(clientDataHash: cdh, rp: RelyingParty(id: "keep.example"), user: UserEntity(id: [5]))
        }

        // Invalid fields are named.
        guard case .fido(var bad) = image else {
            Issue.record("not a fido image")
            return
        }
        bad.wrappingKey = [1, 2]
        #expect(throws: TagImageError.self) { try FIDOAuthenticator(image: bad) }
        do {
            _ = try FIDOAuthenticator(image: bad)
        } catch {
            #expect(error.field == "wrappingKey")
        }
    }

    @Test("PIN blocking: three wrong in a row block until power cycle; eight wrong block for good")
    func pinBlocking() async throws {
        let transmitter = AppletTransmitter()
        let client = FIDOClient(transmitter: transmitter)
        try await client.setPIN("1357")
        var statuses: [CTAP2Status] = []
        for _ in 0..<9 {
            do {
                _ = try await client.getPinUvAuthToken(pin: "0000")
            } catch let error as FIDOError {
                guard let status = error.ctap2Status else { throw error }
                statuses.append(status)
                if status == .pinAuthBlocked { transmitter.powerCycle() }
            }
        }
        #expect(
            statuses == [
                .pinInvalid, .pinInvalid, .pinAuthBlocked, .pinInvalid, .pinInvalid, .pinAuthBlocked, .pinInvalid, .pinBlocked, .pinBlocked,
            ])
        #expect(try await client.getPINRetries() == 0)
        await #expect(throws: FIDOError.ctap2(.pinBlocked, command: "clientPIN.getPinUvAuthToken")) {
            try await client.getPinUvAuthToken(pin: "1357")
        }
    }

    @Test("the attestation certificate is DER a U2F verifier reads: its key verifies the registration")
    func attestationCertificate() async throws {
        let transmitter = AppletTransmitter()
        let client = FIDOClient(transmitter: transmitter)
        let registration = try await client.u2fRegister(
            challenge: Array(repeating: 2, count: 32), application: Array(repeating: 3, count: 32))
        #expect(registration.certificate == transmitter.authenticator.attestationCertificate)
        try registration.verify(challenge: Array(repeating: 2, count: 32), application: Array(repeating: 3, count: 32))
        // U2F rules: wrong lengths and P1.
        #expect(try await transmitter.send(CommandAPDU(ins: 0x01, data: [1, 2, 3])).statusWord == .wrongLength)
        #expect(
            try await transmitter.send(CommandAPDU(ins: 0x02, p1: 0x05, data: Array(repeating: 0, count: 66))).statusWord == .incorrectP1P2)
        #expect(try await transmitter.send(CommandAPDU(ins: 0x04)).statusWord == .instructionNotSupported)
        #expect(try await transmitter.send(CommandAPDU(cla: 0x40, ins: 0x03)).statusWord == .classNotSupported)
    }
}
