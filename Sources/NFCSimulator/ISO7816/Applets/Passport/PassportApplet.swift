/// The eMRTD application of a passport or ID card chip (ICAO Doc 9303 Part 10 for the files,
/// Part 11 §4.3 and §9.8 for Basic Access Control and secure messaging), written from those
/// documents for the simulator, independently of the `NFCeMRTD` client.
///
/// With BAC required (the default), nothing but GET CHALLENGE, EXTERNAL AUTHENTICATE and the
/// selection of files is answered until the mutual authentication succeeds; afterwards every
/// command must come protected (CLA `0C`), and a MAC that fails ends the session with `6988`
/// (Part 11 §9.8.4). Files listed in ``eacFiles`` (DG3 and DG4: fingerprints and irises) answer
/// `6982`, as they do on a chip without extended access control.
public struct PassportApplet: ISO7816Applet {
    /// The eMRTD application's AID (Part 10 §3.6.2).
    public static let applicationIdentifier: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]

    /// One elementary file of the application.
    public struct File: Sendable, Hashable {
        /// Its file identifier (`011E` EF.COM, `0101` DG1…, `011D` EF.SOD).
        public var identifier: UInt16
        /// Its bytes.
        public var content: [UInt8]

        /// A file with its identifier and bytes.
        public init(identifier: UInt16, content: [UInt8]) {
            self.identifier = identifier
            self.content = content
        }

        /// The short EF identifier Part 10 Table 39 gives the file (the low 5 bits of its identifier).
        var shortIdentifier: UInt8 { UInt8(identifier & 0x1F) }
    }

    public let aid = Self.applicationIdentifier
    /// The MRZ fields BAC's keys come from: document number (fillers included, at least 9
    /// characters), date of birth and date of expiry, `YYMMDD`.
    public var documentNumber: String
    /// The holder's date of birth, `YYMMDD`.
    public var dateOfBirth: String
    /// The date of expiry, `YYMMDD`.
    public var dateOfExpiry: String
    /// Whether BAC guards the files (`false`: anyone may read them plainly).
    public var requiresBAC: Bool
    /// The application's files.
    public var files: [File]
    /// Files that need extended access control: refused with `6982`.
    public var eacFiles: Set<UInt16>
    /// The test CSCA certificate (DER) that signed the Document Signer: not on a real chip, carried
    /// so a reader under test can be given its trust anchor.
    public var cscaCertificate: [UInt8]

    // Transient state.
    /// The challenge GET CHALLENGE gave, until EXTERNAL AUTHENTICATE uses it.
    var challenge: [UInt8]?
    /// The secure-messaging session BAC opened.
    var session: PassportSMSession?
    /// The selected EF.
    var currentFile: Int?
    /// Random bytes a test scripted (RND.IC, then K.IC), consumed before the system's.
    package var scriptedRandom: [UInt8] = []

    /// An application with its BAC fields and files.
    public init(
        documentNumber: String, dateOfBirth: String, dateOfExpiry: String, requiresBAC: Bool = true, files: [File],
        eacFiles: Set<UInt16> = [0x0103, 0x0104], cscaCertificate: [UInt8] = []
    ) {
        var number = documentNumber
        while number.count < 9 { number += "<" }
        self.documentNumber = number
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.requiresBAC = requiresBAC
        self.files = files
        self.eacFiles = eacFiles
        self.cscaCertificate = cscaCertificate
    }

    /// The eMRTD application answers SELECT by name with no data (P2 `0C` as Part 10 §3.6.2 uses).
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU {
        reset()
        return SimResponseAPDU(.success)
    }

    public mutating func deselect() { reset() }

    public mutating func reset() {
        challenge = nil
        session = nil
        currentFile = nil
    }

    public var handlesSecureMessaging: Bool { true }

    /// Plain commands go to ``answerPlain(_:)``; protected ones (CLA `0C`) are unwrapped, answered and wrapped.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        if command.cla & 0x0C == 0x0C {
            return answerProtected(command)
        }
        guard command.cla == 0x00 else { return SimResponseAPDU(.classNotSupported) }
        if session != nil {
            // A plain command ends the session (Part 11 §9.8.4): the chip forgets the keys.
            session = nil
            currentFile = nil
        }
        return answerPlain(command)
    }

    /// A command sent without secure messaging.
    mutating func answerPlain(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case 0x84: return getChallenge(command)
        case 0x82: return externalAuthenticate(command)
        case 0xA4: return selectFile(command)
        case 0xB0, 0xB1:
            if requiresBAC { return SimResponseAPDU(.securityStatusNotSatisfied) }
            return readBinary(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// A command that came inside secure messaging, once unwrapped.
    mutating func answerInside(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case 0xA4: return selectFile(command)
        case 0xB0, 0xB1: return readBinary(command)
        case 0x84: return getChallenge(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    public var appletImage: ISO7816AppletImage? { .passport(image) }
}

extension PassportApplet {
    /// A passport's random-looking UID (first byte `08`: a random ID, ISO/IEC 14443-3 §6.4.4).
    public static let defaultUID: [UInt8] = [0x08, 0x4E, 0x1A, 0x53]

    /// The chip holding `applet`: ISO/IEC 14443-4 Type A with extended-length APDUs (Part 10
    /// §3.5 asks readers to use them for large files), answering slowly as passport chips do.
    public static func card(_ applet: PassportApplet, uid: [UInt8]? = nil) -> ISO7816Card {
        ISO7816Card(
            uid: uid ?? defaultUID,
            configuration: ISO7816Card.Configuration(extendedLength: true, processingTime: .milliseconds(2)),
            applets: [applet])
    }
}
