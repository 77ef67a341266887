/// The secure channel a DESFire client has open: an EV2 session (AuthenticateEV2First/NonFirst),
/// an LRP one (AuthenticateLRPFirst/NonFirst) or an EV1/legacy one (AuthenticateAES,
/// AuthenticateISO, Authenticate).
public enum DESFireSecureChannel: Sendable, Hashable {
    /// EV2 secure messaging.
    case ev2(EV2Session)
    /// LRP secure messaging (NTAG 424 DNA in LRP mode).
    case lrp(LRPSession)
    /// EV1 secure messaging, or the legacy one.
    case ev1(EV1Session)

    /// The key the channel was opened with.
    public var keyNumber: UInt8 {
        switch self {
        case .ev2(let session): session.keyNumber
        case .lrp(let session): session.keyNumber
        case .ev1(let session): session.keyNumber
        }
    }

    /// The authentication that opened it.
    public var method: DESFireAuthentication {
        switch self {
        case .ev2: .ev2
        case .lrp: .lrp
        case .ev1(let session): session.method
        }
    }

    /// A command's data field under `mode`; `endMarker` ends an EV1 or legacy cryptogram with
    /// `CRC ‖ 80` (EV2's padding marks the end anyway).
    mutating func protect(
        command: UInt8, header: [UInt8], data: [UInt8], mode: DESFireCommunicationMode, endMarker: Bool = false
    ) throws(DESFireError) -> [UInt8] {
        switch self {
        case .ev2(let session): return try session.protect(command: command, header: header, data: data, mode: mode)
        case .lrp(var session):
            let wire = try session.protect(command: command, header: header, data: data, mode: mode)
            self = .lrp(session)
            return wire
        case .ev1(var session):
            let wire = try session.protect(command: command, header: header, data: data, mode: mode, endMarker: endMarker)
            self = .ev1(session)
            return wire
        }
    }

    /// A successful answer checked under `mode`: its plain data.
    mutating func open(response data: [UInt8], mode: DESFireCommunicationMode, status: UInt8 = 0x00, length: Int? = nil)
        throws(DESFireError) -> [UInt8]
    {
        switch self {
        case .ev2(var session):
            let plain = try session.open(response: data, mode: mode, status: status)
            self = .ev2(session)
            return plain
        case .lrp(var session):
            let plain = try session.open(response: data, mode: mode, status: status)
            self = .lrp(session)
            return plain
        case .ev1(var session):
            let plain = try session.open(response: data, mode: mode, status: status, length: length)
            self = .ev1(session)
            return plain
        }
    }
}
