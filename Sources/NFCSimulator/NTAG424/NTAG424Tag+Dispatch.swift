/// Command dispatch: the wrapped native commands (CLA `90`) and the ISO/IEC 7816-4 ones (CLA `00`).
extension NTAG424Tag {
    /// NTAG 424 DNA status codes, sent as `91 xx` (data sheet §10.3, Table 23).
    enum Status: UInt8, Error {
        case ok = 0x00
        case illegalCommand = 0x1C
        case integrityError = 0x1E
        case noSuchKey = 0x40
        case lengthError = 0x7E
        case permissionDenied = 0x9D
        case parameterError = 0x9E
        case authenticationError = 0xAE
        case additionalFrame = 0xAF
        /// Read_Sig's success: the data sheet's table says `00`, but the chips and AN12196's
        /// Read_Sig exchange answer `91 90` (proxmark3 `ntag424_get_signature` expects it), and
        /// in a session the answer's MAC covers RC `90`.
        case signatureOK = 0x90
        case boundaryError = 0xBE
        case commandAborted = 0xCA
        case fileNotFound = 0xF0
    }

    /// A native answer without data: `91 xx`.
    static func native(_ status: Status, writes: Bool = false) -> SimResponseAPDU {
        native([], status, writes: writes)
    }

    /// A native answer: data and `91 xx`.
    static func native(_ data: [UInt8], _ status: Status, writes: Bool = false) -> SimResponseAPDU {
        var response = SimResponseAPDU(data: data, status: SimStatusWord(0x91, status.rawValue))
        if writes {
            response.writesMemory = true
            response.additionalProcessingTime = writeTime
        }
        return response
    }

    /// Answers one command APDU.
    mutating func handle(_ bytes: [UInt8]) -> SimResponseAPDU {
        previousRead = lastRead
        lastRead = nil
        guard let command = try? SimCommandAPDU(bytes: bytes), !command.isExtended else {
            pending = nil
            return SimResponseAPDU(.wrongLength)
        }
        switch command.cla {
        case 0x90:
            guard command.p1 == 0, command.p2 == 0 else {
                pending = nil
                return SimResponseAPDU(.incorrectP1P2)
            }
            let response = nativeCommand(command.ins, command.data)
            // Every error ends the session and goes without a MAC (data sheet §9.1.9).
            if response.status.sw1 == 0x91, response.status.sw2 != Status.ok.rawValue,
                response.status.sw2 != Status.additionalFrame.rawValue, response.status.sw2 != Status.signatureOK.rawValue
            {
                session = nil
                pending = nil
            }
            return response
        case 0x00:
            pending = nil
            let response = iso(command)
            // "Any other error during the command execution has the same consequences" (§9.1.9):
            // an ISO command refused inside a session ends it too.
            if response.status != .success { session = nil }
            return response
        default:
            pending = nil
            return SimResponseAPDU(.classNotSupported)
        }
    }

    /// A native command by its code.
    private mutating func nativeCommand(_ ins: UInt8, _ data: [UInt8]) -> SimResponseAPDU {
        if ins == 0xAF {
            guard let waiting = pending else { return Self.native(.illegalCommand) }
            pending = nil
            return continueFrame(waiting, data)
        }
        pending = nil
        if ins == 0x60 {
            // Inside a session GetVersion is MACed: on the command, and on the last frame over
            // all three (data sheet Table 22, note 1).
            switch open(ins: 0x60, data, headerLength: 0, mode: .mac) {
            case .failure(let status): return Self.native(status)
            case .success(let parts):
                guard parts.body.isEmpty else { return Self.native(.lengthError) }
            }
            pending = .version(part: 1)
            return Self.native(Self.versionParts[0], .additionalFrame)
        }
        if ins == 0x3C { return readSignature(data) }
        guard applicationSelected else { return Self.native(.permissionDenied) }
        switch ins {
        case 0x71, 0x77: return beginAuthentication(first: ins == 0x71, data)
        case 0xF5: return getFileSettings(data)
        case 0x5F: return changeFileSettings(data)
        case 0xAD: return readData(data)
        case 0x8D: return writeData(data)
        case 0xC4: return changeKey(data)
        case 0x64: return getKeyVersion(data)
        case 0x5C: return setConfiguration(data)
        case 0x51: return getCardUID(data)
        case 0xF6: return getFileCounters(data)
        default: return Self.native(.illegalCommand)
        }
    }

    /// The second (or third) frame of a multi-frame exchange.
    private mutating func continueFrame(_ waiting: Pending, _ data: [UInt8]) -> SimResponseAPDU {
        switch waiting {
        case .version(let part):
            guard data.isEmpty else { return Self.native(.lengthError) }
            if part == 1 {
                pending = .version(part: 2)
                return Self.native(Self.versionParts[1], .additionalFrame)
            }
            let all = Self.versionParts[0] + Self.versionParts[1] + uid + Self.versionParts[2]
            var response = seal(all, mode: .mac)
            if response.status.sw2 == Status.ok.rawValue { response.data.removeFirst(14) }
            return response
        case .authentication(let keyNumber, let rndB, let first, let capabilities, let lrp):
            if lrp { return finishLRPAuthentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities, data) }
            return finishAuthentication(keyNumber: keyNumber, rndB: rndB, first: first, pcdCapabilities: capabilities, data)
        case .response(let rest, let status):
            guard data.isEmpty else { return Self.native(.lengthError) }
            return chunked(rest, status: status)
        }
    }

    /// An answer of more than one short response: 256 bytes now behind `91 AF` (ADDITIONAL_FRAME,
    /// §10.3 Table 23), the rest on `90 AF`. A model choice: the chip carries such answers by
    /// ISO/IEC 14443-4 chaining (§8.5); the client never asks for one (it reads 192 bytes at a time).
    mutating func chunked(_ data: [UInt8], status: Status = .ok) -> SimResponseAPDU {
        guard data.count > Self.frameLimit else { return Self.native(data, status) }
        pending = .response(rest: Array(data.dropFirst(Self.frameLimit)), status: status)
        return Self.native(Array(data.prefix(Self.frameLimit)), .additionalFrame)
    }

    /// The most response data one wrapped answer carries (a short Le of `00`).
    static let frameLimit = 256

    /// GetVersion's three parts (data sheet §10.5.2, Tables 54–59): hardware (vendor `04` NXP, type
    /// `04` NTAG, subtype `02` 50 pF, version 30.00, storage `11` = 256 bytes or more, protocol `05`
    /// ISO/IEC 14443-2 and -3), software (version 01.02), and production data after the UID (batch
    /// number, fab key, calendar week and year of production — sample values).
    static let versionParts: [[UInt8]] = [
        [0x04, 0x04, 0x02, 0x30, 0x00, 0x11, 0x05],
        [0x04, 0x04, 0x02, 0x01, 0x02, 0x11, 0x05],
        [0xCF, 0x39, 0x41, 0x14, 0x81, 0x47, 0x26],
    ]

    /// The file with a number, by index.
    func fileIndex(_ number: UInt8) -> Int? { files.firstIndex { $0.number == number } }
}
