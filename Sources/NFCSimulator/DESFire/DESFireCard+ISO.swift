/// ISOSelectFile, ISOReadBinary and ISOUpdateBinary on applications and standard data files
/// that have ISO identifiers: what lets a DESFire formatted as an NFC Forum Type 4 Tag (AN11004,
/// "MIFARE DESFire as Type 4 Tag") be read by any Type 4 reader.
extension DESFireCard {
    /// A command with CLA `00`.
    mutating func iso(_ command: SimCommandAPDU) -> SimResponseAPDU {
        switch command.ins {
        case 0xA4: return select(command)
        case 0xB0: return readBinary(command)
        case 0xD6: return updateBinary(command)
        default: return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// ISOSelectFile: P1 `04` by DF name; `00` by identifier (`3F00` the PICC level, an
    /// application's DF identifier, or a file of the selected application); `02` a file of the
    /// current application. P2 `00` or `0C`. Not found: `6A82`, the selection unchanged.
    mutating func select(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 == 0x00 || command.p2 == 0x0C else { return SimResponseAPDU(.incorrectP1P2) }
        switch command.p1 {
        case 0x04:
            guard let index = applications.firstIndex(where: { $0.dfName == command.data }) else { return SimResponseAPDU(.fileNotFound) }
            enter(index)
            return SimResponseAPDU(.success)
        case 0x00, 0x02:
            guard command.data.count == 2 else { return SimResponseAPDU(.wrongLength) }
            let id = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
            if command.p1 == 0x00 {
                if id == 0x3F00 {
                    enter(nil)
                    return SimResponseAPDU(.success)
                }
                if let index = applications.firstIndex(where: { $0.isoID == id }) {
                    enter(index)
                    return SimResponseAPDU(.success)
                }
            }
            guard let selected, let index = applications[selected].files.firstIndex(where: { $0.isoID == id }) else {
                return SimResponseAPDU(.fileNotFound)
            }
            currentFile = index
            return SimResponseAPDU(.success)
        default:
            return SimResponseAPDU(.incorrectP1P2)
        }
    }

    /// ISOReadBinary: P1–P2 a 15-bit offset into the current file (P1 bit 8 set: a short
    /// identifier, which DESFire files do not have, so `6985`); free Read or ReadWrite only, in the
    /// clear; outside a standard or backup file `6981`.
    mutating func readBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.data.isEmpty, let ne = command.ne else { return SimResponseAPDU(.wrongLength) }
        guard command.p1 & 0x80 == 0, let selected, let index = currentFile else { return SimResponseAPDU(.conditionsNotSatisfied) }
        let file = applications[selected].files[index]
        guard file.kind == .standard || file.kind == .backup else { return SimResponseAPDU(.incompatibleFileStructure) }
        guard [file.access.read, file.access.readWrite].contains(0x0E) else {
            return SimResponseAPDU(.securityStatusNotSatisfied)
        }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        guard offset < file.contents.count else { return SimResponseAPDU(.wrongParameters) }
        let count = min(ne, file.contents.count - offset)
        return SimResponseAPDU(data: Array(file.contents[offset..<offset + count]))
    }

    /// ISOUpdateBinary: the same addressing; free Write or ReadWrite on a standard file; past the
    /// end `6B00`.
    mutating func updateBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard !command.data.isEmpty else { return SimResponseAPDU(.wrongLength) }
        guard command.p1 & 0x80 == 0, let selected, let index = currentFile else { return SimResponseAPDU(.conditionsNotSatisfied) }
        let file = applications[selected].files[index]
        guard file.kind == .standard else { return SimResponseAPDU(.incompatibleFileStructure) }
        guard [file.access.write, file.access.readWrite].contains(0x0E) else {
            return SimResponseAPDU(.securityStatusNotSatisfied)
        }
        let offset = Int(command.p1) << 8 | Int(command.p2)
        guard offset <= file.contents.count, command.data.count <= file.contents.count - offset else {
            return SimResponseAPDU(.wrongParameters)
        }
        applications[selected].files[index].contents.replaceSubrange(offset..<offset + command.data.count, with: command.data)
        uncommitted?[index].contents.replaceSubrange(offset..<offset + command.data.count, with: command.data)
        return SimResponseAPDU(data: [], status: .success, additionalProcessingTime: Self.writeTime, writesMemory: true)
    }
}
