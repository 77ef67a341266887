import Crypto
import Foundation
import ISO7816
import NFCCBOR
import NFCFIDO
import NFCSimulator
import OpenCoreNFC
import Testing

/// The FIDO client against the emulated authenticator of a `security-key` card, through
/// NFCTagReaderSession and `tag.apduTransmitter`, as an app would use them.
extension SessionTests {
    @Suite struct FIDOSessionTests {
        static let configuration = NFCAppConfiguration(
            usageDescription: "Signs in with a security key.", readerSessionFormats: [.tag],
            iso7816SelectIdentifiers: ["A0000006472F0001"]
        )

        /// Runs `body` with a FIDO client on the first ISO 7816 tag of a session over a fresh
        /// security key (or `card`).
        func withClient(card: (any VirtualTag)? = nil, extendedLength: Bool = true, _ body: (FIDOClient) async throws -> Void) async throws
        {
            let bench = await SessionBench([try card ?? VirtualTagKind.securityKey.make()], configuration: Self.configuration)
            let delegate = TagReaderDelegate()
            let session = try #require(NFCTagReaderSession(pollingOption: [.iso14443], delegate: delegate, queue: nil))
            session.begin()
            guard case .tags(let tags)? = await delegate.log.nextSignificant(), let tag = tags.first,
                case .iso7816(let iso7816) = tag
            else {
                Issue.record("expected an ISO 7816 tag")
                session.invalidate()
                return
            }
            try await session.connect(to: tag)
            let client = FIDOClient(transmitter: NFCISO7816TagTransmitter(tag: iso7816, supportsExtendedLength: extendedLength))
            do {
                try await body(client)
            } catch {
                session.invalidate()
                throw error
            }
            session.invalidate()
            _ = bench
        }

        static func hash(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }

        /// Expects a CTAP2 error status.
        func expectStatus(_ status: CTAP2Status, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any)
            async
        {
            do {
                _ = try await body()
                Issue.record("expected \(status.name), got success", sourceLocation: sourceLocation)
            } catch let error as FIDOError where error.code == .ctap2 {
                #expect(error.ctap2Status == status, sourceLocation: sourceLocation)
            } catch {
                Issue.record("expected \(status.name), got \(error)", sourceLocation: sourceLocation)
            }
        }

        @Test func getInfo() async throws {
            try await withClient { client in
                #expect(try await client.select() == .u2fV2)
                let info = try await client.getInfo()
                #expect(info.versions == ["U2F_V2", "FIDO_2_0", "FIDO_2_1"])
                #expect(info.aaguid == FIDOAuthenticator.defaultAAGUID)
                #expect(info.options["rk"] == true && info.options["up"] == true && info.options["clientPin"] == false)
                #expect(info.pinUvAuthProtocols == [2])
                #expect(info.algorithms == [-7])
                #expect(info.maxMsgSize == 2048)
                #expect(info.transports == ["nfc"])
            }
        }

        @Test("make a credential, verify its packed self attestation, assert and verify with its key")
        func makeCredentialAndAssert() async throws {
            try await withClient { client in
                try await client.select()
                let rp = RelyingParty(id: "example.com", name: "Example")
                let registration = Self.hash("{\"type\":\"webauthn.create\"}")
                let attestation = try await client.makeCredential(
                    clientDataHash: registration, rp: rp, user: UserEntity(id: [1, 2, 3], name: "alice"))
                try attestation.verify(clientDataHash: registration)
                #expect(throws: FIDOError.self) { try attestation.verify(clientDataHash: Self.hash("other")) }
                let data = attestation.authenticatorData
                #expect(data.matches(rpID: "example.com"))
                #expect(data.flags == [.userPresent, .attestedCredentialData])
                #expect(data.signatureCounter == 1)
                let credential = try attestation.credential
                #expect(credential.aaguid == FIDOAuthenticator.defaultAAGUID)

                let challenge = Self.hash("{\"type\":\"webauthn.get\"}")
                let assertions = try await client.getAssertions(
                    rpID: "example.com", clientDataHash: challenge, allowList: [credential.credentialID])
                let assertion = try #require(assertions.first)
                #expect(assertions.count == 1)
                #expect(assertion.credentialID == credential.credentialID)
                try assertion.verify(publicKey: try credential.publicKey.publicKey, clientDataHash: challenge)
                #expect(throws: FIDOError.self) {
                    try assertion.verify(publicKey: try credential.publicKey.publicKey, clientDataHash: registration)
                }
                #expect(assertion.authenticatorData.signatureCounter == 2)
                #expect(assertion.authenticatorData.flags == [.userPresent])
                #expect(assertion.user == nil)

                // Silent assertion: up = false clears UP; the counter still rises.
                let silent = try await client.getAssertions(
                    rpID: "example.com", clientDataHash: challenge, allowList: [credential.credentialID], userPresence: false)
                #expect(silent.first?.authenticatorData.flags == [])
                #expect(silent.first?.authenticatorData.signatureCounter == 3)

                // The credential belongs to example.com only; excluded on a second registration.
                await expectStatus(.noCredentials) {
                    try await client.getAssertions(rpID: "evil.example", clientDataHash: challenge, allowList: [credential.credentialID])
                }
                await expectStatus(.credentialExcluded) {
                    try await client.makeCredential(
                        clientDataHash: registration, rp: rp, user: UserEntity(id: [1, 2, 3]), excludeList: [credential.credentialID])
                }
                // A discoverable lookup finds nothing: the credential is not resident.
                await expectStatus(.noCredentials) { try await client.getAssertions(rpID: "example.com", clientDataHash: challenge) }
            }
        }

        @Test("resident keys: discoverable without an allow list, newest first, with GetNextAssertion")
        func residentKeys() async throws {
            try await withClient { client in
                try await client.select()
                let rp = RelyingParty(id: "login.example")
                var keys: [[UInt8]: P256.Signing.PublicKey] = [:]
                for (index, name) in ["alice", "bob"].enumerated() {
                    let attestation = try await client.makeCredential(
                        clientDataHash: Self.hash(name), rp: rp,
                        user: UserEntity(id: [UInt8(index + 1)], name: name, displayName: name.capitalized),
                        residentKey: true)
                    let credential = try attestation.credential
                    keys[credential.credentialID] = try credential.publicKey.publicKey
                }
                let challenge = Self.hash("sign in")
                let assertions = try await client.getAssertions(rpID: "login.example", clientDataHash: challenge)
                #expect(assertions.count == 2)
                #expect(assertions.first?.numberOfCredentials == 2)
                #expect(assertions.map { $0.user?.id } == [[2], [1]])
                // Without user verification the authenticator withholds names (CTAP 2.1 §6.2.2).
                #expect(assertions.first?.user?.name == nil)
                for assertion in assertions {
                    let key = try #require(keys[assertion.credentialID])
                    try assertion.verify(publicKey: key, clientDataHash: challenge)
                }
                // Nothing further to get.
                await expectStatus(.notAllowed) { try await client.getNextAssertion() }
                // Re-registering the same user replaces the resident credential.
                _ = try await client.makeCredential(
                    clientDataHash: Self.hash("again"), rp: rp, user: UserEntity(id: [1], name: "alice"), residentKey: true)
                #expect(try await client.getAssertions(rpID: "login.example", clientDataHash: challenge).count == 2)
            }
        }

        @Test("PIN: set, required for MakeCredential, verified flag, wrong PIN retries and blocking")
        func pin() async throws {
            try await withClient { client in
                try await client.select()
                await expectStatus(.pinNotSet) { try await client.getPinUvAuthToken(pin: "1234") }
                try await client.setPIN("1234")
                #expect(try await client.getInfo().options["clientPin"] == true)
                #expect(try await client.getPINRetries() == 8)
                await expectStatus(.pinAuthInvalid) { try await client.setPIN("5678") }  // already set

                let rp = RelyingParty(id: "bank.example")
                let cdh = Self.hash("pay")
                await expectStatus(.puatRequired) {
                    try await client.makeCredential(clientDataHash: cdh, rp: rp, user: UserEntity(id: [9]))
                }
                let token = try await client.getPinUvAuthToken(
                    pin: "1234", permissions: [.makeCredential, .getAssertion], rpID: "bank.example")
                let attestation = try await client.makeCredential(
                    clientDataHash: cdh, rp: rp, user: UserEntity(id: [9], name: "carol"), residentKey: true, pinUvAuthToken: token)
                try attestation.verify(clientDataHash: cdh)
                #expect(attestation.authenticatorData.flags.contains(.userVerified))
                let assertion = try #require(
                    try await client.getAssertions(rpID: "bank.example", clientDataHash: cdh, pinUvAuthToken: token).first)
                #expect(assertion.authenticatorData.flags == [.userPresent, .userVerified])
                #expect(assertion.user?.name == "carol")  // verified: names are returned
                // The token is bound to bank.example.
                await expectStatus(.pinAuthInvalid) {
                    try await client.makeCredential(
                        clientDataHash: cdh, rp: RelyingParty(id: "other.example"), user: UserEntity(id: [9]), pinUvAuthToken: token)
                }
                // The legacy getPinToken (0x05) works too and gives mc + ga.
                let legacy = try await client.getPinUvAuthToken(pin: "1234")
                _ = try await client.makeCredential(
                    clientDataHash: cdh, rp: RelyingParty(id: "other.example"), user: UserEntity(id: [7]), pinUvAuthToken: legacy)

                // Wrong PINs: each spends a retry; the third in a row blocks until power cycle.
                await expectStatus(.pinInvalid) { try await client.getPinUvAuthToken(pin: "0000") }
                #expect(try await client.getPINRetries() == 7)
                await expectStatus(.pinInvalid) { try await client.getPinUvAuthToken(pin: "0000") }
                await expectStatus(.pinAuthBlocked) { try await client.getPinUvAuthToken(pin: "0000") }
                await expectStatus(.pinAuthBlocked) { try await client.getPinUvAuthToken(pin: "1234") }
                #expect(try await client.getPINRetries() == 5)
                // changePIN needs the old PIN; a too-short new PIN is refused before sending.
                await #expect(throws: FIDOError.self) { try await client.changePIN(from: "1234", to: "12") }
            }
        }

        @Test("PIN retries return to 8 after a correct PIN; changePIN replaces the PIN")
        func changePIN() async throws {
            try await withClient { client in
                try await client.select()
                try await client.setPIN("1234")
                await expectStatus(.pinInvalid) { try await client.getPinUvAuthToken(pin: "9999") }
                #expect(try await client.getPINRetries() == 7)
                _ = try await client.getPinUvAuthToken(pin: "1234")
                #expect(try await client.getPINRetries() == 8)
                try await client.changePIN(from: "1234", to: "correct horse")
                await expectStatus(.pinInvalid) { try await client.getPinUvAuthToken(pin: "1234") }
                _ = try await client.getPinUvAuthToken(pin: "correct horse")
            }
        }

        @Test("U2F: VERSION, REGISTER with a verifiable attestation, AUTHENTICATE check-only and enforce")
        func u2f() async throws {
            try await withClient { client in
                #expect(try await client.select() == .u2fV2)
                #expect(try await client.u2fVersion() == "U2F_V2")
                let application = Self.hash("https://example.com")
                let challenge = Self.hash("register")
                let registration = try await client.u2fRegister(challenge: challenge, application: application)
                try registration.verify(challenge: challenge, application: application)
                #expect(throws: FIDOError.self) { try registration.verify(challenge: application, application: application) }
                #expect(registration.publicKey.count == 65)

                let login = Self.hash("login")
                #expect(
                    try await client.u2fAuthenticate(
                        challenge: login, application: application, keyHandle: registration.keyHandle, mode: .checkOnly) == nil)
                let first = try #require(
                    try await client.u2fAuthenticate(challenge: login, application: application, keyHandle: registration.keyHandle))
                try first.verify(publicKey: registration.publicKey, challenge: login, application: application)
                #expect(first.userPresence == 1)
                let second = try #require(
                    try await client.u2fAuthenticate(
                        challenge: login, application: application, keyHandle: registration.keyHandle, mode: .dontEnforceUserPresence))
                #expect(second.counter == first.counter + 1)
                #expect(throws: FIDOError.self) {
                    try second.verify(publicKey: registration.publicKey, challenge: Self.hash("x"), application: application)
                }

                // Another application's handle, or a forged one, is wrong data (6A80).
                for (app, handle) in [
                    (Self.hash("https://evil.example"), registration.keyHandle), (application, [UInt8](repeating: 7, count: 60)),
                ] {
                    do {
                        _ = try await client.u2fAuthenticate(challenge: login, application: app, keyHandle: handle, mode: .checkOnly)
                        Issue.record("a foreign key handle was accepted")
                    } catch let error as FIDOError {
                        #expect(error.code == .unexpectedStatus && error.statusWord == .incorrectData)
                    }
                }
            }
        }

        @Test("malformed CBOR requests through the session: the key answers CTAP2_ERR_INVALID_CBOR and keeps working")
        func malformedRequests() async throws {
            try await withClient { client in
                try await client.select()
                let malformed: [[UInt8]] = [
                    [0x01, 0xA2, 0x02, 0x00, 0x01, 0x00],  // keys out of order
                    [0x01, 0xA1, 0x01, 0x5F],  // indefinite byte string
                    [0x01, 0xA1, 0x01, 0x42, 0x00],  // truncated
                    [0x02, 0xA1, 0x01, 0x62, 0xC3, 0x28],  // rpId not UTF-8
                ]
                for message in malformed {
                    let response = try await client.transmitter.send(CommandAPDU(cla: 0x80, ins: 0x10, data: message, expectedLength: 256))
                    #expect(response.statusWord == .success)
                    #expect(response.data == [CTAP2Status.invalidCBOR.rawValue], "\(message)")
                }
                #expect(try await client.getInfo().versions.contains("FIDO_2_1"))
            }
        }

        @Test("Reset forgets credentials and the PIN; old credential IDs stop working")
        func reset() async throws {
            try await withClient { client in
                try await client.select()
                try await client.selection()
                try await client.setPIN("1234")
                let token = try await client.getPinUvAuthToken(pin: "1234")
                let cdh = Self.hash("before")
                let credential = try await client.makeCredential(
                    clientDataHash: cdh, rp: RelyingParty(id: "reset.example"), user: UserEntity(id: [1]), residentKey: true,
                    pinUvAuthToken: token
                ).credential
                try await client.reset()
                #expect(try await client.getInfo().options["clientPin"] == false)
                await expectStatus(.noCredentials) { try await client.getAssertions(rpID: "reset.example", clientDataHash: cdh) }
                await expectStatus(.noCredentials) {
                    try await client.getAssertions(rpID: "reset.example", clientDataHash: cdh, allowList: [credential.credentialID])
                }
            }
        }

        @Test("short APDUs only: long CTAP2 messages are chained (CLA 90) and long answers come by 61xx")
        func shortAPDUs() async throws {
            try await withClient(extendedLength: false) { client in
                try await client.select()
                let excluded = (0..<6).map { index in [UInt8](repeating: UInt8(index), count: 60) }
                let user = UserEntity(
                    id: Array(repeating: 0x55, count: 64), name: String(repeating: "n", count: 64),
                    displayName: String(repeating: "d", count: 64))
                let cdh = Self.hash("long")
                let attestation = try await client.makeCredential(
                    clientDataHash: cdh, rp: RelyingParty(id: "example.org"), user: user, residentKey: true, excludeList: excluded)
                try attestation.verify(clientDataHash: cdh)
                let registration = try await client.u2fRegister(challenge: cdh, application: cdh)
                try registration.verify(challenge: cdh, application: cdh)
                #expect(registration.certificate.count + registration.keyHandle.count + 65 > 256)
            }
        }
    }
}
