import ISO7816

/// A client of the PIV card application (NIST SP 800-73-4 Part 2) over any `APDUTransmitter`:
/// a Core NFC tag (`tag.apduTransmitter`), a PC/SC card, a simulated card.
///
/// Every method sends whole commands with `APDUTransmitter.send(_:options:)` (GET RESPONSE,
/// `6Cxx`, chaining or extended length are handled there) and reads the answer as typed values;
/// bytes from the card never trap — a malformed answer throws ``PIVError/malformedResponse(command:field:offset:reason:)``.
/// PINs, PUKs and administration keys are copied into command buffers that are zeroed after the
/// exchange; the caller's own copies are the caller's to wipe.
public struct PIVClient: Sendable {
    /// The channel every command goes through.
    public let transmitter: any APDUTransmitter

    /// A client sending its commands through `transmitter`; nothing is sent until a method is called.
    public init(transmitter: any APDUTransmitter) {
        self.transmitter = transmitter
    }

    /// SELECT the PIV application by its RID (a right-truncated AID, as SP 800-73-4 Part 2 §3.1.1
    /// allows) and parse the application property template.
    @discardableResult
    public func select() async throws -> PIVApplicationProperties {
        let response = try await transmitter.send(CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x00, data: PIVApplication.aid, expectedLength: 256))
        guard response.statusWord == .success else { throw PIVError.status(command: "SELECT", response.statusWord) }
        return try PIVApplicationProperties(parsing: response.data)
    }

    /// Sends a command; answers its data on `9000`, throws a typed error otherwise.
    func run(_ name: String, _ command: CommandAPDU) async throws -> [UInt8] {
        let response = try await transmitter.send(command)
        switch response.statusWord {
        case .success: return response.data
        case .securityStatusNotSatisfied: throw PIVError.securityStatusNotSatisfied(command: name)
        default: throw PIVError.status(command: name, response.statusWord)
        }
    }

    /// Zeroes a buffer that held a secret.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = 0 }
        }
    }
}
