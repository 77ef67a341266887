import NFCBytes

/// A FeliCa Polling command: `00`, system code (2, big endian), request code, time slot number.
///
/// JIS X 6319-4 §9.2 / FeliCa Card User's Manual Excerpted Edition v2.0 §4.4.2. `FF` in either
/// byte of the system code matches any value of that byte. Request code `00` asks for nothing
/// more, `01` for the system code, `02` for the communication performance; other values are
/// reserved and answered like `00`.
struct FeliCaPollingRequest: Sendable, Hashable {
    var systemCode: UInt16
    var requestCode: UInt8
    var timeSlotNumber: UInt8

    /// Parses a Polling frame; `nil` for any other command or a frame of the wrong length (the
    /// card stays silent).
    init?(_ frame: [UInt8]) {
        guard frame.count == 5, frame[0] == FeliCaCommandCode.polling else { return nil }
        systemCode = UInt16(frame[1]) << 8 | UInt16(frame[2])
        requestCode = frame[3]
        timeSlotNumber = frame[4]
    }

    /// Whether the polled system code selects a system with this code (`FF` bytes are wildcards).
    func matches(_ code: UInt16) -> Bool {
        let high = UInt8(systemCode >> 8)
        let low = UInt8(systemCode & 0xFF)
        return (high == 0xFF || high == UInt8(code >> 8)) && (low == 0xFF || low == UInt8(code & 0xFF))
    }

    /// The Polling response: `01`, IDm, PMm, then the request data the request code asks for.
    ///
    /// - Parameter communicationPerformance: the two bytes a card that supports request code
    ///   `02` returns, `nil` when it does not (it then answers without request data).
    func response(idm: [UInt8], pmm: [UInt8], systemCode code: UInt16, communicationPerformance: [UInt8]?) -> [UInt8] {
        var writer = ByteWriter(capacity: 19)
        writer.write(FeliCaCommandCode.pollingResponse)
        writer.write(contentsOf: idm)
        writer.write(contentsOf: pmm)
        switch requestCode {
        case 0x01:
            writer.write(code)
        case 0x02:
            if let communicationPerformance { writer.write(contentsOf: communicationPerformance) }
        default:
            break
        }
        return writer.bytes
    }
}

/// FeliCa command codes; each response code is the command code plus one
/// (FeliCa Card User's Manual Excerpted Edition v2.0 §4.4, Table 4-6).
enum FeliCaCommandCode {
    static let polling: UInt8 = 0x00
    static let pollingResponse: UInt8 = 0x01
    static let requestService: UInt8 = 0x02
    static let requestResponse: UInt8 = 0x04
    static let readWithoutEncryption: UInt8 = 0x06
    static let writeWithoutEncryption: UInt8 = 0x08
    static let searchServiceCode: UInt8 = 0x0A
    static let requestSystemCode: UInt8 = 0x0C
    static let requestServiceV2: UInt8 = 0x32
    static let requestSpecificationVersion: UInt8 = 0x3C
    static let resetMode: UInt8 = 0x3E
}

/// The air frames of one Polling exchange, what activating a FeliCa card costs: the reader polls
/// with system code `FFFF` and request code `01` in one time slot; the card answers in slot 0 with
/// IDm, PMm and system code.
func feliCaActivationFrames() -> [AirFrame] {
    [AirFrame(reader: .bytes(5), tag: .bytes(19), processing: FeliCaTiming.pollingResponseDelay(slot: 0))]
}
