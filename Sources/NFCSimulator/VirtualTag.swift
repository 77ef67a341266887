import NFCTransport

/// A virtual tag: a model of one chip that answers reader commands byte for byte as its
/// datasheet says.
///
/// Tags are values: the field keeps each in a variable and calls the mutating methods, so a
/// snapshot is a copy, a torn write can be undone by restoring the copy taken before the command,
/// and tests can inspect state without locks.
public protocol VirtualTag: Sendable {
    /// The UID (MSB first for ISO/IEC 15693) or IDm.
    var identifier: [UInt8] { get }
    /// What the reader learns on activation.
    var parameters: TargetInfo.Parameters { get }

    /// The tag enters the field: volatile state (authentication, selection, session flags) resets.
    mutating func powerOn()

    /// The reader activates the tag (ISO/IEC 14443-3 anticollision and SELECT, RATS for ISO-DEP;
    /// ISO/IEC 15693 and FeliCa need nothing but their inventory/polling, which the reader did).
    /// Returns the air frames of the activation sequence, for the air-time model; ISO/IEC 14443
    /// activation frames are charged at 106 kbit/s, and `context.bitRate` is the rate agreed for
    /// what follows (a card sends PPS when it is above 106 kbit/s).
    mutating func activate(context: ExchangeContext) -> [AirFrame]

    /// Answers one command frame (see `TagConnection` for what a frame holds per technology).
    mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer
}

extension VirtualTag {
    /// Whether the tag speaks ISO-DEP (its frames are APDUs).
    public var speaksISODEP: Bool {
        switch parameters {
        case .iso14443A(let a): a.ats != nil
        case .iso14443B: true
        case .iso15693, .felica: false
        }
    }

    /// The technology the tag answers on.
    public var technology: Technology {
        switch parameters {
        case .iso14443A: .iso14443A
        case .iso14443B: .iso14443B
        case .iso15693: .iso15693
        case .felica: .felica
        }
    }
}

/// What the field tells a tag about the exchange in progress.
public struct ExchangeContext: Sendable, Hashable {
    /// The bit rate agreed at activation.
    public var bitRate: BitRate
    /// FSD, the largest frame the reader accepts (ISO-DEP), in bytes.
    public var readerFrameSize: Int
    /// The simulated time when the command started.
    public var now: Duration

    /// Creates a context; the defaults are 106 kbit/s, an FSD of 256 bytes and simulated time zero.
    public init(bitRate: BitRate = .kbps106, readerFrameSize: Int = 256, now: Duration = .zero) {
        self.bitRate = bitRate
        self.readerFrameSize = readerFrameSize
        self.now = now
    }
}

/// A tag's answer to one command.
public struct TagAnswer: Sendable, Hashable {
    /// What comes back over the air.
    public enum Reply: Sendable, Hashable {
        /// A data frame (without CRC).
        case bytes([UInt8])
        /// The 4-bit ACK (`0A`) of ISO/IEC 14443-3 Type A storage tags.
        case ack
        /// A 4-bit NAK with its code (0–15).
        case nak(UInt8)
        /// No answer at all (the reader times out).
        case mute
    }

    /// What the tag sends back, or `.mute` when it stays silent.
    public var reply: Reply
    /// Time the tag spends between the end of the command and the start of its answer beyond the
    /// protocol's minimum delay (EEPROM programming, computation).
    public var processingTime: Duration
    /// The air exchanges the command took, when not exactly one frame each way (ISO-DEP chaining,
    /// waiting-time extensions); `nil` lets the field derive the single exchange.
    public var frames: [AirFrame]?
    /// Whether the command programmed non-volatile memory (a tear can interrupt it).
    public var writesMemory: Bool

    /// Creates an answer; by default it takes no processing time, is one frame each way and writes no memory.
    public init(_ reply: Reply, processingTime: Duration = .zero, frames: [AirFrame]? = nil, writesMemory: Bool = false) {
        self.reply = reply
        self.processingTime = processingTime
        self.frames = frames
        self.writesMemory = writesMemory
    }

    /// An answer carrying a data frame (without CRC), one frame each way.
    public static func bytes(_ bytes: [UInt8], processingTime: Duration = .zero, writesMemory: Bool = false) -> TagAnswer {
        TagAnswer(.bytes(bytes), processingTime: processingTime, writesMemory: writesMemory)
    }
    /// The 4-bit ACK, one frame each way, with no processing time.
    public static let ack = TagAnswer(.ack)
    /// A 4-bit NAK; only the low 4 bits of `code` go over the air (see `transceivedBytes`).
    public static func nak(_ code: UInt8) -> TagAnswer { TagAnswer(.nak(code)) }
    /// No answer: the reader times out.
    public static let mute = TagAnswer(.mute)

    /// The bytes `transceive` returns for this answer (ACK/NAK as one byte, see `TagConnection`).
    public var transceivedBytes: [UInt8]? {
        switch reply {
        case .bytes(let bytes): bytes
        case .ack: [0x0A]
        case .nak(let code): [code & 0x0F]
        case .mute: nil
        }
    }
}

/// One exchange on the air: a reader frame, the tag's processing, the tag's frame.
public struct AirFrame: Sendable, Hashable {
    /// One side's frame.
    public enum Part: Sendable, Hashable {
        /// Nothing sent.
        case none
        /// A short frame of so many bits without CRC (REQA/WUPA 7 bits, ACK/NAK 4 bits).
        case bits(Int)
        /// A frame of so many payload bytes; the model adds the technology's CRC (and FeliCa's
        /// LEN, preamble and sync) when `crc` is true.
        case bytes(Int, crc: Bool = true)
        /// A Type 1 Tag command of so many bytes, CRC excluded (reader side only): its first byte
        /// goes in a 7-bit short frame, every further byte and each of the two CRC bytes in a
        /// frame of its own, the reader-reader data delay apart (BCM20203T512 data sheet,
        /// "Communication to the tag" and Table 13).
        case type1Command(Int)
    }

    /// What the reader sends.
    public var reader: Part
    /// What the tag sends back.
    public var tag: Part
    /// Time the tag spends processing before it answers, added to the frames' air time (and to the response
    /// delay ISO/IEC 14443 and 15693 impose; FeliCa has none in the model).
    public var processing: Duration

    /// Creates an exchange; by default the tag adds no processing time.
    public init(reader: Part, tag: Part, processing: Duration = .zero) {
        self.reader = reader
        self.tag = tag
        self.processing = processing
    }
}
