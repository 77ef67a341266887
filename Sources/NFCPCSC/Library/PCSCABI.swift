/// The PC/SC C interface as the platform's library defines it, for calls through `dlsym`.
///
/// pcsc-lite (Linux, `winscard.h`/`pcsclite.h`) declares `DWORD` as `unsigned long` and
/// `LONG`, `SCARDCONTEXT`, `SCARDHANDLE` as `long`: 8 bytes on 64-bit Linux. Apple's
/// PCSC.framework declares them as 32-bit (`uint32_t`/`int32_t`) and packs
/// `SCARD_READERSTATE` to 1 byte (`#pragma pack(1)`). `ReaderStateArray` and `IORequest`
/// lay the structures out by hand from these widths.
enum PCSCABI {
    #if os(macOS)
    typealias DWORD = UInt32
    typealias LONG = Int32
    static let readerStatePacked = true
    #else
    typealias DWORD = UInt
    typealias LONG = Int
    static let readerStatePacked = false
    #endif
    typealias SCARDCONTEXT = LONG
    typealias SCARDHANDLE = LONG

    // PC/SC Part 5 / pcsc-lite `pcsclite.h` constants.
    static let scopeSystem: DWORD = 2
    static let shareExclusive: DWORD = 1
    static let shareShared: DWORD = 2
    static let protocolT0: DWORD = 1
    static let protocolT1: DWORD = 2
    static let leaveCard: DWORD = 0
    static let resetCard: DWORD = 1
    static let unpowerCard: DWORD = 2
    static let infinite: DWORD = 0xFFFF_FFFF
    static let maxATRSize = 33

    /// `SCARD_STATE_*` bits of `dwCurrentState`/`dwEventState`; pcsc-lite keeps an event
    /// counter in the upper 16 bits of `dwEventState`.
    struct ReaderState: OptionSet, Sendable, Hashable {
        let rawValue: UInt32
        static let ignore = ReaderState(rawValue: 0x0001)
        static let changed = ReaderState(rawValue: 0x0002)
        static let unknown = ReaderState(rawValue: 0x0004)
        static let unavailable = ReaderState(rawValue: 0x0008)
        static let empty = ReaderState(rawValue: 0x0010)
        static let present = ReaderState(rawValue: 0x0020)
        static let exclusive = ReaderState(rawValue: 0x0080)
        static let inUse = ReaderState(rawValue: 0x0100)
        static let mute = ReaderState(rawValue: 0x0200)
    }

    /// The pseudo reader whose state changes when readers come and go (pcsc-lite ≥ 1.6, macOS).
    static let plugAndPlayReader = "\\\\?PnP?\\Notification"

    typealias EstablishContext = @convention(c) (DWORD, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<SCARDCONTEXT>?) -> LONG
    typealias ReleaseContext = @convention(c) (SCARDCONTEXT) -> LONG
    typealias ListReaders =
        @convention(c) (SCARDCONTEXT, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?) -> LONG
    typealias GetStatusChange = @convention(c) (SCARDCONTEXT, DWORD, UnsafeMutableRawPointer?, DWORD) -> LONG
    typealias Connect =
        @convention(c) (SCARDCONTEXT, UnsafePointer<CChar>?, DWORD, DWORD, UnsafeMutablePointer<SCARDHANDLE>?, UnsafeMutablePointer<DWORD>?)
        -> LONG
    typealias Reconnect = @convention(c) (SCARDHANDLE, DWORD, DWORD, DWORD, UnsafeMutablePointer<DWORD>?) -> LONG
    typealias Disconnect = @convention(c) (SCARDHANDLE, DWORD) -> LONG
    typealias Transmit =
        @convention(c) (
            SCARDHANDLE, UnsafeRawPointer?, UnsafePointer<UInt8>?, DWORD, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?,
            UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias Status =
        @convention(c) (
            SCARDHANDLE, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<DWORD>?,
            UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias Cancel = @convention(c) (SCARDCONTEXT) -> LONG
}

/// `SCARD_IO_REQUEST` (`dwProtocol`, `cbPciLength`), two `DWORD`s on either platform.
struct IORequest {
    private(set) var storage: [PCSCABI.DWORD]

    init(protocol: PCSCABI.DWORD) {
        storage = [`protocol`, PCSCABI.DWORD(2 * MemoryLayout<PCSCABI.DWORD>.size)]
    }
}
