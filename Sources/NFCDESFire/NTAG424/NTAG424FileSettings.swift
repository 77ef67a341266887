/// A file's settings as GetFileSettings answers them and ChangeFileSettings sets them
/// (NT4H2421Gx §10.7.1, §10.7.2).
public struct NTAG424FileSettings: Sendable, Hashable {
    /// Plain, MAC or full.
    public var mode: DESFireCommunicationMode
    /// Read.
    public var read: NTAG424Access
    /// Write.
    public var write: NTAG424Access
    /// Read and write.
    public var readWrite: NTAG424Access
    /// Change these settings.
    public var change: NTAG424Access
    /// The file's size in bytes (read only).
    public var size: Int
    /// Secure Dynamic Messaging, when enabled.
    public var sdm: NTAG424SDMSettings?

    /// Settings from their parts.
    public init(
        mode: DESFireCommunicationMode, read: NTAG424Access, write: NTAG424Access, readWrite: NTAG424Access, change: NTAG424Access,
        size: Int = 0, sdm: NTAG424SDMSettings? = nil
    ) {
        self.mode = mode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.size = size
        self.sdm = sdm
    }

    /// Reads GetFileSettings' answer: FileType `00`, FileOption, access rights (`RW | Change`,
    /// `Read | Write`), the size in 3 bytes least significant first, then the SDM part.
    /// - Throws: ``DESFireError`` `.malformedResponse` naming the field.
    public init(parsing bytes: [UInt8]) throws(DESFireError) {
        guard bytes.count >= 7 else { throw DESFireError(.malformedResponse, "file settings of \(bytes.count) bytes; at least 7 expected") }
        guard bytes[0] == 0x00 else {
            throw DESFireError(.malformedResponse, "file type \(bytes[0]); NTAG 424 DNA files are standard data files (00)")
        }
        let option = bytes[1]
        mode = Self.mode(bits: option)
        guard let read = NTAG424Access(nibble: bytes[3] >> 4, maximumKey: 4),
            let write = NTAG424Access(nibble: bytes[3] & 0x0F, maximumKey: 4),
            let readWrite = NTAG424Access(nibble: bytes[2] >> 4, maximumKey: 4),
            let change = NTAG424Access(nibble: bytes[2] & 0x0F, maximumKey: 4)
        else { throw DESFireError(.malformedResponse, "access rights \(Self.hex(bytes[2..<4])) hold a condition other than 0-4, E, F") }
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16
        if option & 0x40 != 0 {
            sdm = try NTAG424SDMSettings(parsing: bytes[7...])
        } else {
            guard bytes.count == 7 else {
                throw DESFireError(.malformedResponse, "\(bytes.count - 7) bytes after the size of a file without SDM")
            }
            sdm = nil
        }
    }

    /// ChangeFileSettings' data after the file number: FileOption, access rights, the SDM part.
    public var changeBytes: [UInt8] {
        let option: UInt8 = (mode == .plain ? 0x00 : mode == .mac ? 0x01 : 0x03) | (sdm == nil ? 0 : 0x40)
        return [option, readWrite.nibble << 4 | change.nibble, read.nibble << 4 | write.nibble] + (sdm?.bytes ?? [])
    }

    static func mode(bits: UInt8) -> DESFireCommunicationMode {
        switch bits & 0x03 {
        case 0x01: .mac
        case 0x03: .full
        default: .plain
        }
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map {
            String($0, radix: 16, uppercase: true).count == 1
                ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true)
        }.joined()
    }
}
