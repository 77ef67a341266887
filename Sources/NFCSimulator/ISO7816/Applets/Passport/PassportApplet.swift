import Crypto

/// The chip of a passport or ID card (ICAO Doc 9303 Part 10 for the files, Part 11 §4.3, §4.4
/// and §9.8 for BAC, PACE and secure messaging), written from those documents for the
/// simulator, independently of the `NFCeMRTD` client.
///
/// The applet is the whole card (``ownsCard``): EF.CardAccess lives in the MF, PACE runs there
/// before the eMRTD application is selected, and the application is then selected under secure
/// messaging. With access control (BAC, PACE or both), nothing but the access protocols,
/// EF.CardAccess and the selection of files is answered until one succeeds; afterwards every
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
    /// The MRZ fields BAC's and PACE's MRZ keys come from: document number (fillers included, at
    /// least 9 characters), date of birth and date of expiry, `YYMMDD`.
    public var documentNumber: String
    /// The holder's date of birth, `YYMMDD`.
    public var dateOfBirth: String
    /// The date of expiry, `YYMMDD`.
    public var dateOfExpiry: String
    /// Whether the chip accepts Basic Access Control.
    public var bac: Bool
    /// PACE, when the chip offers it (EF.CardAccess is written from it).
    public var pace: PACESettings?
    /// The application's files.
    public var files: [File]
    /// Files that need extended access control: refused with `6982`.
    public var eacFiles: Set<UInt16>
    /// The test CSCA certificate (DER) that signed the Document Signer: not on a real chip, carried
    /// so a reader under test can be given its trust anchor.
    public var cscaCertificate: [UInt8]
    /// The chip-authentication key DG14 announces, when the chip offers chip authentication.
    public var chipAuthentication: ChipAuthenticationSettings?
    /// The P-256 private key (32 bytes) whose public half DG15 holds, when the chip offers
    /// active authentication.
    public var activeAuthenticationKey: [UInt8]?
    /// The RSA private key (PKCS #1 DER) whose public half DG15 holds, when the chip signs with
    /// ISO/IEC 9796-2 instead (taken before ``activeAuthenticationKey``).
    public var activeAuthenticationRSAKey: [UInt8]?

    /// Whether the files need BAC or PACE first (a chip offering neither is open to anyone).
    public var requiresAccessControl: Bool { bac || pace != nil }

    // Transient state.
    /// Whether the eMRTD application is selected (else the MF is current).
    var applicationSelected = false
    /// The challenge GET CHALLENGE gave, until EXTERNAL AUTHENTICATE uses it.
    var challenge: [UInt8]?
    /// The secure-messaging session BAC or PACE opened.
    var session: PassportSMSession?
    /// A PACE run in progress.
    var paceRun: PACERun?
    /// Chip authentication's MSE:Set AT was accepted; General Authenticate may follow.
    var chipAuthenticationArmed = false
    /// The session chip authentication agreed, taken up once the current answer is wrapped.
    var nextSession: PassportSMSession?
    /// The selected EF: an index into ``files``, or -1 for EF.CardAccess.
    var currentFile: Int?
    /// Random bytes a test scripted (BAC: RND.IC, then K.IC; PACE: s, then the two private keys),
    /// consumed before the system's.
    package var scriptedRandom: [UInt8] = []

    /// An application with its MRZ fields, access protocols and files.
    public init(
        documentNumber: String, dateOfBirth: String, dateOfExpiry: String, bac: Bool = true, pace: PACESettings? = nil,
        files: [File], eacFiles: Set<UInt16> = [0x0103, 0x0104], cscaCertificate: [UInt8] = [],
        chipAuthentication: ChipAuthenticationSettings? = nil, activeAuthenticationKey: [UInt8]? = nil,
        activeAuthenticationRSAKey: [UInt8]? = nil
    ) {
        self.activeAuthenticationRSAKey = activeAuthenticationRSAKey
        self.chipAuthentication = chipAuthentication
        self.activeAuthenticationKey = activeAuthenticationKey
        var number = documentNumber
        while number.count < 9 { number += "<" }
        self.documentNumber = number
        self.dateOfBirth = dateOfBirth
        self.dateOfExpiry = dateOfExpiry
        self.bac = bac
        self.pace = pace
        self.files = files
        self.eacFiles = eacFiles
        self.cscaCertificate = cscaCertificate
    }

    /// Selection goes through ``process(_:)``: the applet owns the card.
    public mutating func select(command: SimCommandAPDU) -> SimResponseAPDU { selectApplication(command) }

    public mutating func deselect() { reset() }

    public mutating func reset() {
        applicationSelected = false
        challenge = nil
        session = nil
        paceRun = nil
        currentFile = nil
        chipAuthenticationArmed = false
        nextSession = nil
    }

    public var ownsCard: Bool { true }

    /// Protected commands (CLA `0C`) are unwrapped, answered and wrapped; plain ones end any session first.
    public mutating func process(_ command: SimCommandAPDU) -> SimResponseAPDU {
        if command.cla & 0x0C == 0x0C {
            return answerProtected(command)
        }
        guard command.cla & ~0x10 == 0x00 else { return SimResponseAPDU(.classNotSupported) }
        if session != nil {
            // A plain command ends the session (Part 11 §9.8.4): the chip forgets the keys.
            session = nil
            currentFile = nil
        }
        let answer = answerPlain(command)
        // Chip authentication on a chip without access control opens secure messaging.
        if let next = nextSession {
            session = next
            nextSession = nil
        }
        return answer
    }

    /// A command sent without secure messaging.
    mutating func answerPlain(_ command: SimCommandAPDU) -> SimResponseAPDU {
        if command.ins != 0x86 { paceRun = nil }
        if command.ins != 0x86 { chipAuthenticationArmed = false }
        switch command.ins {
        case 0x22 where command.p1 == 0x41 && !requiresAccessControl && command.p2 == 0xA4: return setChipAuthenticationTemplate(command)
        case 0x22 where command.p1 == 0x41 && !requiresAccessControl && command.p2 == 0xA6: return setKeyAgreementTemplate(command)
        case 0x86 where chipAuthenticationArmed: return chipAuthenticate(command)
        case 0xA4: return select(command)
        case 0x84: return getChallenge(command)
        case 0x82: return externalAuthenticate(command)
        case 0x22: return setAuthenticationTemplate(command)
        case 0x86: return generalAuthenticate(command)
        case 0xB0, 0xB1: return readBinary(command)
        case 0x88 where !requiresAccessControl: return internalAuthenticate(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// A command that came inside secure messaging, once unwrapped.
    mutating func answerInside(_ command: SimCommandAPDU) -> SimResponseAPDU {
        if command.ins != 0x86 { chipAuthenticationArmed = false }
        switch command.ins {
        case 0xA4: return select(command)
        case 0xB0, 0xB1: return readBinary(command)
        case 0x84: return getChallenge(command)
        case 0x22 where command.p1 == 0x41 && command.p2 == 0xA4: return setChipAuthenticationTemplate(command)
        case 0x22 where command.p1 == 0x41 && command.p2 == 0xA6: return setKeyAgreementTemplate(command)
        case 0x22: return SimResponseAPDU(.incorrectP1P2)
        case 0x86: return chipAuthenticate(command)
        case 0x88: return internalAuthenticate(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// SELECT: by DF name (the eMRTD application), the MF, or an EF.
    mutating func select(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.p1 {
        case 0x04: return selectApplication(command)
        case 0x00 where command.data.isEmpty || command.data == [0x3F, 0x00]:
            applicationSelected = false
            currentFile = nil
            return SimResponseAPDU(.success)
        default: return selectFile(command)
        }
    }

    /// SELECT by DF name: the eMRTD application (a right-truncated name matches), nothing else.
    mutating func selectApplication(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard !command.data.isEmpty, aid.starts(with: command.data) else { return SimResponseAPDU(.fileNotFound) }
        applicationSelected = true
        currentFile = nil
        return SimResponseAPDU(.success)
    }

    /// MRZ_information: each field followed by its check digit (Part 11 §9.7.2).
    var mrzInformation: String {
        func checked(_ field: String) -> String {
            var sum = 0
            for (index, scalar) in field.unicodeScalars.enumerated() {
                let value: Int =
                    switch scalar {
                    case "0"..."9": Int(scalar.value) - 48
                    case "A"..."Z": Int(scalar.value) - 55
                    default: 0
                    }
                sum += value * [7, 3, 1][index % 3]
            }
            return field + String(sum % 10)
        }
        return checked(documentNumber) + checked(dateOfBirth) + checked(dateOfExpiry)
    }

    /// PACE's MRZ password: SHA-1 of MRZ_information, all 20 bytes (Part 11 §9.7.3).
    var mrzSecret: [UInt8] { Array(Insecure.SHA1.hash(data: Array(mrzInformation.utf8))) }

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
