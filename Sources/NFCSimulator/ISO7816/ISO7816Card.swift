import NFCTransport

/// An ISO/IEC 14443-4 Type A smart card hosting ISO/IEC 7816-4 applets (a JCOP-, DESFire- or
/// YubiKey-like card): anticollision with a 4-, 7- or 10-byte UID, SAK `20`, RATS/ATS, and
/// APDUs dispatched to the selected applet.
///
/// The host answers SELECT by DF name with partial-AID matching and occurrence control,
/// `GET RESPONSE` for answers beyond ``Configuration/maxResponseDataLength`` (`61xx`), command
/// chaining, Le truncation and the class, instruction and length errors of ISO/IEC 7816-4:2013
/// §5 (`6E00`, `6D00`, `6700`, `6881`, `6882`, `6883`). Every APDU costs the ISO-DEP framing of
/// ``ISODEPFraming`` (chaining at FSC and FSD) plus the card's processing time.
public struct ISO7816Card: VirtualTag {
    /// The host's limits and timing.
    public struct Configuration: Sendable, Hashable {
        /// Whether extended-length APDUs are accepted; when not, they get `6700`.
        public var extendedLength: Bool
        /// The longest command data field (Nc) the card's buffer takes; longer gets `6700`.
        public var maxCommandDataLength: Int
        /// The longest response data field sent at once; the rest waits for GET RESPONSE (`61xx`).
        public var maxResponseDataLength: Int
        /// The time the card spends on every command (applets may add to it).
        public var processingTime: Duration

        /// - Parameters:
        ///   - extendedLength: accept extended-length APDUs (default no).
        ///   - maxCommandDataLength: default 255 short, 65 535 extended.
        ///   - maxResponseDataLength: default 256 short, 65 536 extended.
        ///   - processingTime: default 0.5 ms.
        public init(
            extendedLength: Bool = false, maxCommandDataLength: Int? = nil, maxResponseDataLength: Int? = nil,
            processingTime: Duration = .microseconds(500)
        ) {
            self.extendedLength = extendedLength
            self.maxCommandDataLength = maxCommandDataLength ?? (extendedLength ? 65_535 : 255)
            self.maxResponseDataLength = maxResponseDataLength ?? (extendedLength ? 65_536 : 256)
            self.processingTime = processingTime
        }
    }

    /// The UID, 4, 7 or 10 bytes in transmission order.
    public var uid: [UInt8]
    /// ATQA as `TargetInfo` holds it (byte 1 | byte 2 << 8).
    public var atqa: UInt16
    /// The final SAK (bit 6 set: ISO/IEC 14443-4 compliant).
    public var sak: UInt8
    /// The answer to RATS.
    public var ats: AnswerToSelect
    /// Buffer sizes, extended-length support and timing.
    public var configuration: Configuration
    /// The applets, in installation order (the order SELECT searches).
    public var applets: [any ISO7816Applet]
    /// Set for a card that answers as ISO/IEC 14443 Type B instead of Type A (its UID, ATQA and
    /// SAK then go unused; the ATS's FSCI and FWI should match the protocol info).
    public var typeB: TypeB?

    /// ISO/IEC 14443-3 Type B identity: the ATQB's fields (ISO/IEC 14443-3:2018 §7.9).
    public struct TypeB: Sendable, Hashable {
        /// PUPI, 4 bytes: the card's identifier.
        public var pupi: [UInt8]
        /// Application data, 4 bytes (AFI, CRC_B of the AID, number of applications).
        public var applicationData: [UInt8]
        /// Protocol info, 3 bytes: bit rates; Max_Frame_Size (FSCI) and Protocol_Type; FWI, ADC, FO.
        public var protocolInfo: [UInt8]

        /// A Type B identity from its ATQB fields; the default protocol info says 106 kbit/s
        /// only, 256-byte frames (FSCI 8), ISO/IEC 14443-4, FWI 7, CID supported.
        public init(pupi: [UInt8], applicationData: [UInt8] = [0x00, 0x00, 0x00, 0x00], protocolInfo: [UInt8] = [0x00, 0x81, 0x71]) {
            self.pupi = pupi
            self.applicationData = applicationData
            self.protocolInfo = protocolInfo
        }

        /// A PUPI for cards made without one.
        public static let defaultPUPI: [UInt8] = [0x5A, 0x71, 0x32, 0x9C]
    }

    // Transient state (reset by power-up and activation).
    /// The index of the selected applet in ``applets``; `nil` when the MF is current.
    public internal(set) var selectedIndex: Int?
    /// Response data waiting for GET RESPONSE.
    var pendingResponse: PendingResponse?
    /// A command chain being received.
    var chain: CommandChain?

    /// Response bytes left after a `61xx`, and the status word that ends them.
    struct PendingResponse: Sendable, Hashable {
        var data: [UInt8]
        var status: SimStatusWord
    }

    /// The commands of a chain received so far (ISO/IEC 7816-4:2013 §5.1.1.1).
    struct CommandChain: Sendable, Hashable {
        var cla: UInt8
        var ins: UInt8
        var p1: UInt8
        var p2: UInt8
        var data: [UInt8]
    }

    /// A 7-byte UID with NXP's manufacturer code `04`.
    public static let defaultUID: [UInt8] = [0x04, 0x5A, 0x71, 0x32, 0x9C, 0x6E, 0x80]

    /// `06 77 77 71 02 80`: FSCI 7 (128 B), 106–848 kbit/s both ways, FWI 7, SFGI 1, CID
    /// supported, historical byte `80` — the ATS of an NXP NTAG 424 DNA.
    public static let defaultATS = AnswerToSelect(fsci: 7, ta: 0x77, tb: 0x71, tc: 0x02, historicalBytes: [0x80])

    /// The ATQA for a UID length: UID size bits and bit-frame anticollision bit 3 (`0344` for 7 bytes).
    public static func defaultATQA(uidLength: Int) -> UInt16 {
        UInt16(0x0300) | UInt16(ISO14443AActivation.uidSizeBits(uidLength: uidLength) | 0x04)
    }

    /// Makes a card.
    /// - Parameters:
    ///   - uid: 4, 7 (default) or 10 bytes.
    ///   - atqa: default ``defaultATQA(uidLength:)``.
    ///   - sak: default `20`.
    ///   - ats: default ``defaultATS``.
    ///   - configuration: buffer sizes and timing.
    ///   - applets: the applets, searched in this order by SELECT.
    public init(
        uid: [UInt8] = ISO7816Card.defaultUID, atqa: UInt16? = nil, sak: UInt8 = 0x20,
        ats: AnswerToSelect = ISO7816Card.defaultATS, configuration: Configuration = Configuration(),
        applets: [any ISO7816Applet] = []
    ) {
        self.uid = uid
        self.atqa = atqa ?? Self.defaultATQA(uidLength: uid.count)
        self.sak = sak
        self.ats = ats
        self.configuration = configuration
        self.applets = applets
    }

    /// The AID of the selected applet, `nil` when none is.
    public var selectedAID: [UInt8]? {
        guard let selectedIndex, applets.indices.contains(selectedIndex) else { return nil }
        return applets[selectedIndex].aid
    }

    /// The first applet of a type.
    public func applet<A: ISO7816Applet>(_ type: A.Type) -> A? {
        for applet in applets { if let found = applet as? A { return found } }
        return nil
    }

    /// Changes the first applet of a type in place; returns whether there was one.
    @discardableResult
    public mutating func updateApplet<A: ISO7816Applet>(_ type: A.Type, _ body: (inout A) -> Void) -> Bool {
        for index in applets.indices {
            if var found = applets[index] as? A {
                body(&found)
                applets[index] = found
                return true
            }
        }
        return false
    }

    /// Forgets the selection, pending response and chain, and resets every applet.
    mutating func resetTransientState() {
        selectedIndex = nil
        pendingResponse = nil
        chain = nil
        for index in applets.indices { applets[index].reset() }
    }

    // MARK: VirtualTag

    /// The UID in transmission order, or a Type B card's PUPI.
    public var identifier: [UInt8] { typeB?.pupi ?? uid }

    /// ISO/IEC 14443-A parameters (ATQA, SAK and ATS), or a Type B card's ATQB fields.
    public var parameters: TargetInfo.Parameters {
        if let typeB {
            return .iso14443B(TargetInfo.ISO14443B(applicationData: typeB.applicationData, protocolInfo: typeB.protocolInfo))
        }
        return .iso14443A(TargetInfo.ISO14443A(atqa: atqa, sak: sak, ats: ats))
    }

    /// Deselects the applet, drops any pending response or command chain, and resets every applet.
    public mutating func powerOn() {
        resetTransientState()
    }

    /// WUPA, the cascade SELECTs, RATS/ATS and PPS when the card offers more than 106 kbit/s.
    ///
    /// `context.bitRate` is the rate the field agreed for the connection (the lower of the
    /// reader's and the card's highest); PPS is charged only when that is above 106 kbit/s.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] {
        resetTransientState()
        if typeB != nil { return ISO14443BActivation.frames }
        let rate = context.bitRate
        let sfgi = (ats.tb ?? 0x00) & 0x0F
        return ISO14443AActivation.frames(
            uidLength: uid.count, atsLength: ats.bytes.count, pps: rate > .kbps106,
            startUpGuardTime: ISO14443AActivation.startUpGuardTime(sfgi: sfgi)
        )
    }

    /// Answers one APDU (always a response APDU, never silence), charging ISO-DEP framing, chaining and
    /// waiting-time extensions plus the card's and the applet's processing time.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        let response = handle(command)
        let processing = configuration.processingTime + response.additionalProcessingTime
        let reply = response.bytes
        let framing = ISODEPFraming(
            cardFrameSize: ats.frameSize, readerFrameSize: context.readerFrameSize,
            usesCID: false, frameWaitingTime: ats.frameWaitingTime
        )
        let frames = framing.frames(commandLength: command.count, responseLength: reply.count, processingTime: processing)
        return TagAnswer(.bytes(reply), processingTime: processing, frames: frames, writesMemory: response.writesMemory)
    }
}
