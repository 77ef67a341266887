/// The NFC Forum Type 4 Tag NDEF application: an ISO/IEC 7816-4 application holding transparent
/// elementary files, the capability container `E103` and one or more NDEF files.
///
/// NFC Forum Type 4 Tag Operation 2.0 §5.4 and T4T 3.0: SELECT of the application (AID `D2760000850101`, P2
/// `00` or `0C`), SELECT of an EF by file identifier (P1 `00`, P2 `0C`; `00` for mapping 1.0),
/// READ BINARY `B0` and UPDATE BINARY `D6` with a 15-bit offset in P1-P2, and — when
/// ``offsetDataObjects`` is on (T4T 3.0, files beyond 32 767 bytes) — `B1`/`D7` with the offset
/// in an offset data object `54 03 xxxxxx` and data in a discretionary data object `53`.
///
/// The application does not read its CC: like a DESFire- or NTAG 424-based tag, access is the
/// files' own (``File/readAccess``, ``File/writeAccess``) and the buffer limits are
/// ``maxReadLength`` and ``maxUpdateLength``. ``Type4Tag`` builds a consistent CC; a test may
/// store any bytes in it to model a tag whose CC lies.
public struct NDEFApplication: ISO7816Applet, Hashable {
    /// `D2 76 00 00 85 01 01`, the NDEF Tag Application of mapping version 2.0 and later.
    public static let applicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// `D2 76 00 00 85 01 00`, the AID of mapping version 1.0.
    public static let version1ApplicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// `E103`, the capability container's file identifier.
    public static let capabilityContainerID: UInt16 = 0xE103

    /// Who may read or write a file.
    public enum Access: String, Codable, Sendable, Hashable {
        /// Granted without condition (CC access byte `00`).
        case always
        /// Never granted (CC access byte `FF`); the command gets `6982`.
        case never
    }

    /// A transparent elementary file of fixed size.
    public struct File: Sendable, Hashable {
        /// The file identifier.
        public var id: UInt16
        /// The file's bytes; its size never changes.
        public var contents: [UInt8]
        /// Who may read the file (READ BINARY); `never` gets `6982`.
        public var readAccess: Access
        /// Who may write the file (UPDATE BINARY); `never` gets `6982`.
        public var writeAccess: Access

        /// A file; readable and writable by default.
        public init(id: UInt16, contents: [UInt8], readAccess: Access = .always, writeAccess: Access = .always) {
            self.id = id
            self.contents = contents
            self.readAccess = readAccess
            self.writeAccess = writeAccess
        }
    }

    /// The AID this application answers SELECT to.
    public var aid: [UInt8]
    /// The files, the CC usually first.
    public var files: [File]
    /// The most data one READ BINARY returns (the tag's buffer; a larger Ne is cut to it).
    public var maxReadLength: Int
    /// The most data one UPDATE BINARY takes; more gets `6700`.
    public var maxUpdateLength: Int
    /// Whether READ BINARY `B1` and UPDATE BINARY `D7` with offset data objects work (T4T 3.0).
    public var offsetDataObjects: Bool

    /// The index of the current EF in ``files`` (transient).
    public internal(set) var currentFile: Int?

    /// EEPROM programming: a fixed cost per UPDATE BINARY plus a cost per 32-byte page touched.
    static let programmingBaseTime = Duration.milliseconds(2)
    static let programmingTimePerPage = Duration.milliseconds(1)
    static let pageSize = 32

    /// Makes an application.
    /// - Parameters:
    ///   - aid: default ``applicationIdentifier``.
    ///   - files: the elementary files.
    ///   - maxReadLength: the tag's limit on read data per command (match the CC's MLe).
    ///   - maxUpdateLength: the tag's limit on written data per command (match the CC's MLc).
    ///   - offsetDataObjects: whether `B1`/`D7` are supported.
    public init(
        aid: [UInt8] = NDEFApplication.applicationIdentifier, files: [File], maxReadLength: Int = 255,
        maxUpdateLength: Int = 255, offsetDataObjects: Bool = false
    ) {
        self.aid = aid
        self.files = files
        self.maxReadLength = maxReadLength
        self.maxUpdateLength = maxUpdateLength
        self.offsetDataObjects = offsetDataObjects
    }

    /// The file with an identifier.
    public func file(_ id: UInt16) -> File? { files.first { $0.id == id } }

    // MARK: ISO7816Applet

    /// Selecting the application answers `9000` without FCI and leaves no EF current (T4T 2.0 §5.4.2).
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        currentFile = nil
        return SimResponseAPDU(.success)
    }

    /// Leaves no EF current.
    public mutating func deselect() { currentFile = nil }

    /// Leaves no EF current.
    public mutating func reset() { currentFile = nil }

    /// Runs SELECT by file identifier `A4`, READ BINARY `B0`, UPDATE BINARY `D6` and, with ``offsetDataObjects``, `B1` and
    /// `D7`. A proprietary class (bit 8 set) gets `6E00`, any other instruction `6D00`.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.cla & 0x80 == 0 else { return SimResponseAPDU(.classNotSupported) }
        switch command.ins {
        case 0xA4: return selectFile(command)
        case 0xB0: return readBinary(command)
        case 0xD6: return updateBinary(command)
        case 0xB1 where offsetDataObjects: return readBinaryWithOffsetObject(command)
        case 0xD7 where offsetDataObjects: return updateBinaryWithOffsetObject(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// The image wrapped as an ISO 7816 applet image (`ndef`).
    public var appletImage: ISO7816AppletImage? { .ndef(image) }

    /// SELECT by file identifier (ISO/IEC 7816-4:2013 SELECT; T4T 2.0 §5.4.3, §5.4.5): P1 `00` or `02`,
    /// P2 `00`/`04`/`08`/`0C` (first occurrence); no FCI is returned.
    mutating func selectFile(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.p1 {
        case 0x00, 0x02: break
        case 0x01, 0x03, 0x08, 0x09: return SimResponseAPDU(.fileNotFound)
        default: return SimResponseAPDU(.incorrectP1P2)
        }
        guard command.p2 & 0xF3 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.count == 2 else { return SimResponseAPDU(.wrongLength) }
        let id = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
        guard let index = files.firstIndex(where: { $0.id == id }) else { return SimResponseAPDU(.fileNotFound) }
        currentFile = index
        return SimResponseAPDU(.success)
    }

    /// The EEPROM programming time of a write of `count` bytes at `offset`.
    static func programmingTime(offset: Int, count: Int) -> Duration {
        let first = offset / pageSize
        let last = (offset + max(count, 1) - 1) / pageSize
        return programmingBaseTime + programmingTimePerPage * (last - first + 1)
    }
}
