/// The authenticated state of a virtual DESFire: an EV2 session (AuthenticateEV2First/NonFirst,
/// AES) or an EV1/legacy one (AuthenticateAES, AuthenticateISO, Authenticate).
enum DESFireCardSession: Sendable, Hashable {
    case ev2(EV2CardSession)
    case ev1(EV1CardSession)

    /// The key the session was opened with.
    var keyNumber: UInt8 {
        switch self {
        case .ev2(let session): session.keyNumber
        case .ev1(let session): session.keyNumber
        }
    }

    /// Whether this is an EV2 session (management commands MACed both ways).
    var isEV2: Bool {
        if case .ev2 = self { return true }
        return false
    }

    /// Checks and removes a command's protection.
    mutating func unwrap(
        ins: UInt8, _ data: [UInt8], headerLength: Int, mode: NTAG424File.CommunicationMode, bodyLength: Int? = nil,
        endMarker: Bool = false
    ) -> Result<(header: [UInt8], body: [UInt8]), DESFireStatus> {
        switch self {
        case .ev2(let session): return session.unwrap(ins: ins, data, headerLength: headerLength, mode: mode)
        case .ev1(var session):
            let result = session.unwrap(
                ins: ins, data, headerLength: headerLength, mode: mode, bodyLength: bodyLength, endMarker: endMarker)
            self = .ev1(session)
            return result
        }
    }

    /// Protects a successful answer.
    mutating func wrap(_ data: [UInt8], mode: NTAG424File.CommunicationMode, status: UInt8 = 0x00) -> Result<[UInt8], DESFireStatus> {
        switch self {
        case .ev2(var session):
            let result = session.wrap(data, mode: mode, status: status)
            self = .ev2(session)
            return result
        case .ev1(var session):
            let result = session.wrap(data, mode: mode, status: status)
            self = .ev1(session)
            return result
        }
    }

    /// DESFire's CRC32 (the IEEE 802.3 polynomial, preset `FFFFFFFF`, no final inversion, least
    /// significant byte first).
    static func crc32(_ bytes: [UInt8]) -> [UInt8] { NTAG424Tag.crc32(bytes) }
}
