/// A connection to one activated target: the byte pipe every tag engine runs over.
///
/// What `transceive` carries depends on the target:
/// - ISO-DEP targets (``TargetInfo/speaksISODEP``): one command APDU in, one response APDU out
///   (data and SW1 SW2); the driver does ISO/IEC 14443-4 block framing, chaining and waiting-time
///   extensions.
/// - Other ISO/IEC 14443-3 Type A tags (NTAG, Ultralight): the command frame without CRC_A; a
///   4-bit ACK or NAK answer comes back as one byte holding those four bits (ACK `0A`, NAKs
///   `00` `01` `04` `05`), as libnfc and nfcpy report it.
/// - ISO/IEC 15693: the request from its flags byte up to its parameters, without CRC; the
///   response from its flags byte, without CRC.
/// - FeliCa: the command from its code byte, without the LEN byte and CRC; the response likewise.
public protocol TagConnection: AnyObject, Sendable {
    /// The target this connection is bound to.
    var target: TargetInfo { get }
    /// How much one exchange may carry.
    var limits: ExchangeLimits { get }
    /// The bit rate in use after activation (106 kbit/s unless the reader and card agreed on more).
    var bitRate: BitRate { get }
    /// The meter this connection reports every exchange into.
    var meter: AirTimeMeter { get }

    /// Sends one command and returns the target's answer.
    ///
    /// - Parameters:
    ///   - command: the frame to send, laid out as ``TagConnection`` describes for the target's technology.
    ///   - timeout: how long to wait for the answer after sending.
    /// - Throws: ``TransportError`` — `.tagLost`, `.timeout`, `.transmission`, `.frameTooLong`,
    ///   `.unsupportedCommand`, `.notConnected`.
    func transceive(_ command: [UInt8], timeout: Duration) async throws(TransportError) -> [UInt8]

    /// Activates the target again (a tag that went mute after a NAK answers again afterwards).
    func reactivate() async throws(TransportError)

    /// Ends the connection; later exchanges throw `.notConnected`.
    func disconnect() async
}

/// An event seen by a reader while it polls.
public enum ReaderEvent: Sendable, Hashable {
    /// A target entered the field (or was present when watching began).
    case targetArrived(TargetInfo)
    /// A target left the field.
    case targetLeft(TargetInfo)
}

/// A reader: something that polls for targets and connects to them (the simulator, a PC/SC reader).
public protocol ReaderDriver: AnyObject, Sendable {
    /// The reader's name as users select it (`sim`, or the PC/SC reader name).
    var name: String { get }

    /// The targets in the field now among the given technologies; several targets are all
    /// reported (anticollision), none is an empty array.
    func targets(matching mask: TechnologyMask) async throws(TransportError) -> [TargetInfo]

    /// A stream of arrivals and departures among the given technologies, starting with an
    /// arrival for each target already in the field. It ends when the caller stops iterating.
    func events(matching mask: TechnologyMask) async -> AsyncStream<ReaderEvent>

    /// Activates a target and opens a connection that reports into `meter`.
    func connect(to target: TargetInfo, meter: AirTimeMeter) async throws(TransportError) -> any TagConnection
}
