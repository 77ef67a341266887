import ISO7816
import NFCSimulator
import NFCTransport
import Testing

/// A connection to a card on a simulated field as an `APDUTransmitter`, with extended length.
struct FieldTransmitter: APDUTransmitter {
    let connection: any TagConnection
    var supportsExtendedLength: Bool
    func transmit(_ command: [UInt8]) async throws -> [UInt8] { try await connection.transceive(command, timeout: .seconds(5)) }

    /// Places `card` on a new field and connects to it.
    static func connect(to card: ISO7816Card, extended: Bool = true) async throws -> FieldTransmitter {
        let field = SimulatedField()
        _ = await field.place(card)
        let target = try #require(try await field.targets(matching: .all).first)
        return FieldTransmitter(connection: try await field.connect(to: target, meter: AirTimeMeter()), supportsExtendedLength: extended)
    }
}

/// Every applet's, and so the passport's, first `PassportApplet`.
extension ISO7816Card {
    var passport: PassportApplet? {
        get { applets.first as? PassportApplet }
        set { if let newValue { applets[0] = newValue } }
    }
}
