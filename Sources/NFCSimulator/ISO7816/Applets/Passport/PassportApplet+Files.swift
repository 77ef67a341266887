/// SELECT of an EF and READ BINARY (ISO/IEC 7816-4:2013 §11.1.1 and §11.2.3; ICAO Doc 9303
/// Part 10 §3.6 lists the forms an eMRTD must accept).
extension PassportApplet {
    /// SELECT with P1 `02` (EF under the current DF) or `00`, a 2-byte file identifier:
    /// EF.CardAccess (`011C`, under the MF) whenever the chip offers PACE, the application's
    /// files once it is selected.
    mutating func selectFile(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0x02 || command.p1 == 0x00 else { return SimResponseAPDU(.incorrectP1P2) }
        guard command.data.count == 2 else { return SimResponseAPDU(.wrongLength) }
        let identifier = UInt16(command.data[0]) << 8 | UInt16(command.data[1])
        if identifier == 0x011C, cardAccess != nil {
            currentFile = -1
            return SimResponseAPDU(.success)
        }
        guard applicationSelected, let index = files.firstIndex(where: { $0.identifier == identifier }) else {
            currentFile = nil
            return SimResponseAPDU(.fileNotFound)
        }
        if eacFiles.contains(identifier) { return SimResponseAPDU(.securityStatusNotSatisfied) }
        currentFile = index
        return SimResponseAPDU(.success)
    }

    /// READ BINARY `B0` (offset in P1-P2, or a short EF identifier in P1 with bit 8 set and the
    /// offset in P2) and `B1` (the offset in `DO'54'`, the data in `DO'53'`).
    mutating func readBinary(_ command: SimCommandAPDU) -> SimResponseAPDU {
        let selectsByShortIdentifier = command.ins == 0xB0 && command.p1 & 0x80 != 0
        let readsCardAccess = selectsByShortIdentifier ? command.p1 & 0x1F == 0x1C : currentFile == -1
        if requiresAccessControl && session == nil && !(readsCardAccess && cardAccess != nil) {
            return SimResponseAPDU(.securityStatusNotSatisfied)
        }
        var offset: Int
        if command.ins == 0xB1 {
            guard command.data.count >= 3, command.data[0] == 0x54, Int(command.data[1]) == command.data.count - 2,
                (1...3).contains(command.data.count - 2)
            else { return SimResponseAPDU(.incorrectData) }
            offset = command.data[2...].reduce(0) { $0 << 8 | Int($1) }
        } else if command.p1 & 0x80 != 0 {
            guard command.p1 & 0x60 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
            let shortIdentifier = command.p1 & 0x1F
            if shortIdentifier == 0x1C, cardAccess != nil {
                currentFile = -1
            } else {
                guard applicationSelected, let index = files.firstIndex(where: { $0.shortIdentifier == shortIdentifier }) else {
                    return SimResponseAPDU(.fileNotFound)
                }
                if eacFiles.contains(files[index].identifier) { return SimResponseAPDU(.securityStatusNotSatisfied) }
                currentFile = index
            }
            offset = Int(command.p2)
        } else {
            offset = Int(command.p1) << 8 | Int(command.p2)
        }
        guard let index = currentFile else { return SimResponseAPDU(.noCurrentEF) }
        let content: [UInt8]
        if index == -1, let access = cardAccess {
            content = access
        } else if files.indices.contains(index) {
            content = files[index].content
        } else {
            return SimResponseAPDU(.noCurrentEF)
        }
        guard offset <= content.count else { return SimResponseAPDU(.wrongParameters) }
        let wanted = command.ne ?? 0
        let end = min(content.count, offset + (command.ins == 0xB1 ? max(wanted - 4, 0) : wanted))
        let data = Array(content[offset..<end])
        let status: SimStatusWord = end - offset < wanted && command.ins == 0xB0 ? .endOfFileReached : .success
        if command.ins == 0xB1 {
            return SimResponseAPDU(data: [0x53] + Self.lengthField(data.count) + data, status: .success)
        }
        return SimResponseAPDU(data: data, status: status)
    }

    /// A BER length field.
    static func lengthField(_ count: Int) -> [UInt8] {
        switch count {
        case ..<0x80: [UInt8(count)]
        case ..<0x100: [0x81, UInt8(count)]
        default: [0x82, UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        }
    }
}
