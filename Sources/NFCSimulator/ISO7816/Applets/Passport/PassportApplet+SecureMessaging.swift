/// Secure messaging, the chip's side (ICAO Doc 9303 Part 11 §9.8; ISO/IEC 7816-4:2013 §10):
/// a protected command carries `DO'87'` (or `DO'85'` for an odd instruction) with the encrypted
/// data, `DO'97'` with Ne and `DO'8E'` with the MAC; the answer carries `DO'87'`/`DO'85'`,
/// `DO'99'` with the status word and `DO'8E'`.
extension PassportApplet {
    /// Time the chip spends on one protected command's 3DES and MAC work (an estimate).
    static let secureMessagingTime = Duration.milliseconds(3)

    /// Unwraps, answers and wraps one protected command. A missing object answers `6987`, a MAC
    /// that does not verify `6988`; both end the session (Part 11 §9.8.4).
    mutating func answerProtected(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard var current = session else { return SimResponseAPDU(SimStatusWord(0x69, 0x88)) }
        session = nil
        guard let objects = Self.dataObjects(command.data), let macObject = objects.last, macObject.tag == 0x8E,
            macObject.value.count == 8
        else { return SimResponseAPDU(SimStatusWord(0x69, 0x87)) }
        current.counter &+= 1
        var covered = current.counterBlock + current.pad([command.cla, command.ins, command.p1, command.p2])
        for object in objects.dropLast() { covered += object.encoded }
        guard current.mac(covered) == macObject.value else {
            return SimResponseAPDU(SimStatusWord(0x69, 0x88))
        }
        var data: [UInt8] = []
        var ne: Int?
        for object in objects.dropLast() {
            switch object.tag {
            case 0x87, 0x85:
                var cryptogram = object.value
                if object.tag == 0x87 {
                    guard cryptogram.first == 0x01 else { return SimResponseAPDU(SimStatusWord(0x69, 0x88)) }
                    cryptogram.removeFirst()
                }
                guard let padded = current.decrypt(cryptogram),
                    let end = padded.lastIndex(of: 0x80), padded[(end + 1)...].allSatisfy({ $0 == 0 })
                else { return SimResponseAPDU(SimStatusWord(0x69, 0x88)) }
                data = Array(padded[..<end])
            case 0x97:
                let value = object.value.reduce(0) { $0 << 8 | Int($1) }
                switch object.value.count {
                case 1: ne = value == 0 ? 256 : value
                case 2: ne = value == 0 ? 65_536 : value
                default: return SimResponseAPDU(SimStatusWord(0x69, 0x88))
                }
            default:
                return SimResponseAPDU(SimStatusWord(0x69, 0x88))
            }
        }
        session = current
        let inner = SimCommandAPDU(cla: 0x00, ins: command.ins, p1: command.p1, p2: command.p2, data: data, ne: ne)
        let answer = answerInside(inner)
        guard var open = session else { return answer }
        open.counter &+= 1
        var body: [UInt8] = []
        if !answer.data.isEmpty {
            let cryptogram = open.encrypt(open.pad(answer.data))
            body +=
                command.ins & 1 == 1
                ? Object(tag: 0x85, value: cryptogram).encoded : Object(tag: 0x87, value: [0x01] + cryptogram).encoded
        }
        body += Object(tag: 0x99, value: answer.status.bytes).encoded
        body += Object(tag: 0x8E, value: open.mac(open.counterBlock + body)).encoded
        // Chip authentication's answer went out under the old keys; the new ones start now.
        session = nextSession ?? open
        nextSession = nil
        return SimResponseAPDU(
            data: body, status: answer.status, additionalProcessingTime: Self.secureMessagingTime + answer.additionalProcessingTime)
    }

    /// One data object of a protected command (one-byte tags only: SM objects have them).
    struct Object {
        let tag: UInt8
        let value: [UInt8]

        var encoded: [UInt8] { [tag] + PassportApplet.lengthField(value.count) + value }
    }

    /// The data objects filling `bytes`, or `nil` when they are malformed.
    static func dataObjects(_ bytes: [UInt8]) -> [Object]? {
        var objects: [Object] = []
        var index = 0
        while index < bytes.count {
            let tag = bytes[index]
            index += 1
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length > 0x80 {
                let count = length & 0x7F
                guard count <= 2, index + count <= bytes.count else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length == 0x80 {
                return nil
            }
            guard length <= bytes.count - index else { return nil }
            objects.append(Object(tag: tag, value: Array(bytes[index..<(index + length)])))
            index += length
        }
        return objects
    }
}
