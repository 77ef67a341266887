import NFCBytes
import NFCTransport

/// One `SCARDHANDLE`: a connection to the card (tag) in a reader.
final class PCSCCard: Sendable {
    let library: PCSCLibrary
    let reader: String
    private let handle: PCSCABI.SCARDHANDLE
    private let share: PCSCABI.DWORD
    private let state: Guarded<(protocol: PCSCABI.DWORD, open: Bool)>

    init(library: PCSCLibrary, handle: PCSCABI.SCARDHANDLE, protocol: PCSCABI.DWORD, reader: String, share: PCSCABI.DWORD) {
        self.library = library
        self.handle = handle
        self.reader = reader
        self.share = share
        state = Guarded((`protocol`, true))
    }

    deinit {
        if state.withLock({ $0.open }) { _ = library.disconnect(handle, PCSCABI.leaveCard) }
    }

    var isOpen: Bool { state.withLock { $0.open } }

    /// The answer buffer: a short APDU's 256 bytes + SW, or an extended one's 65,536 + SW.
    static let maxResponse = 65_538

    /// `SCardTransmit`: sends `command`, returns the status and the card's (or reader's) answer.
    func transmit(_ command: [UInt8]) -> (PCSCStatus, [UInt8]) {
        let (proto, open) = state.withLock { ($0.protocol, $0.open) }
        guard open else { return (.invalidHandle, []) }
        let request = IORequest(protocol: proto)
        var answer = [UInt8](repeating: 0, count: Self.maxResponse)
        var length = PCSCABI.DWORD(Self.maxResponse)
        let status = request.storage.withUnsafeBytes { pci in
            command.withUnsafeBufferPointer { sent in
                answer.withUnsafeMutableBufferPointer { received in
                    PCSCStatus(
                        library.transmit(
                            handle, pci.baseAddress, sent.baseAddress, PCSCABI.DWORD(sent.count), nil, received.baseAddress, &length))
                }
            }
        }
        guard status == .success else { return (status, []) }
        return (status, Array(answer.prefix(min(Int(length), Self.maxResponse))))
    }

    /// `SCardReconnect` with a reset: the reader deactivates and reactivates the tag.
    func reconnect(reset: Bool) -> PCSCStatus {
        var active: PCSCABI.DWORD = 0
        let status = PCSCStatus(
            library.reconnect(
                handle, share, PCSCABI.protocolT0 | PCSCABI.protocolT1, reset ? PCSCABI.resetCard : PCSCABI.leaveCard, &active))
        if status == .success { state.withLock { $0.protocol = active } }
        return status
    }

    /// `SCardStatus`: the card's current ATR.
    func answerToReset() -> (PCSCStatus, [UInt8]) {
        var nameLength: PCSCABI.DWORD = 0
        var cardState: PCSCABI.DWORD = 0
        var proto: PCSCABI.DWORD = 0
        var atr = [UInt8](repeating: 0, count: PCSCABI.maxATRSize)
        var atrLength = PCSCABI.DWORD(PCSCABI.maxATRSize)
        // Asking for the name's length only (NULL buffer) is allowed by pcsc-lite and macOS.
        let status = PCSCStatus(library.status(handle, nil, &nameLength, &cardState, &proto, &atr, &atrLength))
        guard status == .success else { return (status, []) }
        return (status, Array(atr.prefix(min(Int(atrLength), PCSCABI.maxATRSize))))
    }

    /// `SCardDisconnect`, once.
    func disconnect(reset: Bool = false) {
        let wasOpen = state.withLock { value -> Bool in
            defer { value.open = false }
            return value.open
        }
        if wasOpen { _ = library.disconnect(handle, reset ? PCSCABI.resetCard : PCSCABI.leaveCard) }
    }
}
