import ISO7816
import NFCCBOR

/// A FIDO authenticator over any `APDUTransmitter`: U2F APDUs and CTAP2 over NFC
/// (CTAP 2.1 §11.3).
public struct FIDOClient: Sendable {
    /// What SELECT answered (CTAP 2.1 §11.3.4).
    public enum Version: String, Sendable, Hashable {
        /// "U2F_V2": U2F, and possibly CTAP2 too (ask with ``FIDOClient/getInfo()``).
        case u2fV2 = "U2F_V2"
        /// "FIDO_2_0": CTAP2 only.
        case fido2 = "FIDO_2_0"
    }

    /// The channel every command goes through.
    public let transmitter: any APDUTransmitter
    /// Whether NFCCTAP_MSG offers NFCCTAP_GETRESPONSE (P1 `80`) so long operations answer `9100`.
    public var usesGetResponse: Bool
    /// The most `9100` status updates waited for.
    public var maximumStatusUpdates: Int

    /// A client of the authenticator behind `transmitter`; nothing is sent until a method is called.
    /// - Parameters:
    ///   - transmitter: the channel to the authenticator; every command goes through it.
    ///   - usesGetResponse: whether NFCCTAP_MSG asks for `9100` status updates (P1 `80`); default true.
    ///   - maximumStatusUpdates: the most `9100` updates waited for before throwing; default 1000.
    public init(transmitter: any APDUTransmitter, usesGetResponse: Bool = true, maximumStatusUpdates: Int = 1000) {
        self.transmitter = transmitter
        self.usesGetResponse = usesGetResponse
        self.maximumStatusUpdates = maximumStatusUpdates
    }

    /// SELECT the FIDO AID.
    @discardableResult
    public func select() async throws -> Version {
        let response = try await transmitter.send(
            CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00, data: FIDOApplication.aid, expectedLength: 256))
        guard response.statusWord == .success,
            let text = String(validating: response.data, as: UTF8.self), let version = Version(rawValue: text)
        else { throw FIDOError.notAFIDOAuthenticator(response.statusWord, answer: response.data) }
        return version
    }

    // MARK: CTAP2 transport

    /// Sends one CTAP2 command (NFCCTAP_MSG, CLA 80 INS 10) and returns its CBOR answer, following
    /// `9100` status updates with NFCCTAP_GETRESPONSE (INS 11). Long messages go extended or chained
    /// (`APDUTransmitter.send`).
    /// - Throws: ``FIDOError`` `.ctap2` for an error status, `.invalidCBOR` for a bad answer.
    public func ctap2(_ command: UInt8, _ parameters: CBOR?, name: String) async throws -> CBOR? {
        let ne = transmitter.supportsExtendedLength ? CommandAPDU.maximumExtendedExpectedLength : 256
        var response = try await transmitter.send(
            CommandAPDU(
                cla: 0x80, ins: 0x10, p1: usesGetResponse ? 0x80 : 0x00, p2: 0x00,
                data: [command] + (parameters?.encoded ?? []), expectedLength: ne))
        var updates = 0
        while response.statusWord.rawValue == 0x9100 {
            updates += 1
            guard updates <= maximumStatusUpdates else { throw FIDOError.tooManyStatusUpdates(maximumStatusUpdates) }
            response = try await transmitter.send(CommandAPDU(cla: 0x80, ins: 0x11, p1: 0x00, p2: 0x00, expectedLength: ne))
        }
        guard response.statusWord == .success else { throw FIDOError.unexpectedStatus(response.statusWord, command: name) }
        guard let status = response.data.first else {
            throw FIDOError.malformedResponse(field: "\(name).status", reason: "empty answer")
        }
        guard status == 0 else { throw FIDOError.ctap2(CTAP2Status(rawValue: status), command: name) }
        guard response.data.count > 1 else { return nil }
        do {
            return try CBOR(decoding: Array(response.data.dropFirst()))
        } catch {
            throw FIDOError.invalidCBOR(error, command: name)
        }
    }

    /// ``ctap2(_:_:name:)`` for a command whose answer must be a map.
    func ctap2Map(_ command: UInt8, _ parameters: CBOR?, name: String) async throws -> CBOR {
        guard let answer = try await ctap2(command, parameters, name: name), answer.mapValue != nil else {
            throw FIDOError.malformedResponse(field: name, reason: "expected a CBOR map")
        }
        return answer
    }
}
