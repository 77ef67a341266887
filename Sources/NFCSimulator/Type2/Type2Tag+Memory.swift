extension Type2Tag {
    // MARK: READ and FAST_READ

    /// READ (NTAG21x §10.2; MF0ULX1 “READ”): four pages from `start`.
    ///
    /// Past the last page the read rolls over to page 00h (on NTAG213, READ 2Ah returns pages
    /// 2Ah, 2Bh, 2Ch, 00h). While PROT is set and the tag is not authenticated, a start at or past
    /// AUTH0 is refused with NAK 0h and a read that would cross AUTH0 rolls over there instead.
    /// PWD and PACK read as zeros.
    mutating func read(from start: Int) -> TagAnswer {
        guard start < model.pageCount, !isReadProtected(start) else { return nak(.invalidArgument) }
        let end = isReadProtected(model.pageCount - 1) ? effective.auth0 : model.pageCount
        let counted = countNFCRead()
        let mirror = asciiMirror()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var page = start
        for _ in 0..<4 {
            bytes += readablePage(page, mirror: mirror)
            page += 1
            if page >= end { page = 0 }
        }
        return .bytes(bytes, writesMemory: counted)
    }

    /// FAST_READ (NTAG21x §10.3; MF0ULX1 “FAST_READ”): pages `start` through `end` in one frame.
    ///
    /// NAK 0h when `start` > `end`, when either is past the last page, or when PROT is set, the tag
    /// is not authenticated and `end` is at or past AUTH0. PWD and PACK read as zeros.
    mutating func fastRead(from start: Int, through end: Int) -> TagAnswer {
        guard start <= end, end < model.pageCount, !isReadProtected(end) else { return nak(.invalidArgument) }
        let counted = countNFCRead()
        let mirror = asciiMirror()
        var bytes: [UInt8] = []
        bytes.reserveCapacity((end - start + 1) * 4)
        for page in start...end { bytes += readablePage(page, mirror: mirror) }
        return .bytes(bytes, writesMemory: counted)
    }

    /// A page as the reader sees it: PWD and PACK as zeros, the ASCII mirror laid over user memory.
    func readablePage(_ address: Int, mirror: ASCIIMirror?) -> [UInt8] {
        if address == model.passwordPage || address == model.packPage { return [0, 0, 0, 0] }
        var bytes = page(address)
        if let mirror { mirror.overlay(page: address, onto: &bytes) }
        return bytes
    }

    // MARK: WRITE and COMPATIBILITY_WRITE

    /// WRITE (NTAG21x §10.4; MF0ULX1 “WRITE”): one page, ACK after the EEPROM is programmed.
    ///
    /// NAK 0h for pages 00h–01h (the serial number, locked at production), a page past the end, a
    /// page locked by the static or dynamic lock bits, CFG0/CFG1 when CFGLCK is in force, or any
    /// page at or past AUTH0 before PWD_AUTH. Page 02h ORs its bytes 2–3 into the lock bytes,
    /// page 03h ORs into the OTP/CC bytes, the dynamic lock page ORs into the lock bytes.
    mutating func write(_ data: [UInt8], to address: Int) -> TagAnswer {
        guard isWritable(address) else { return nak(.invalidArgument) }
        program(data, at: address)
        return TagAnswer(.ack, processingTime: Self.eepromWriteTime, writesMemory: true)
    }

    /// COMPATIBILITY_WRITE part 1 (NTAG21x §10.5; MF0ULX1 “COMPATIBILITY_WRITE”): the address, checked as for
    /// WRITE; ACK and wait for the data.
    mutating func compatibilityWriteAddress(_ address: Int) -> TagAnswer {
        guard isWritable(address) else { return nak(.invalidArgument) }
        pendingCompatibilityWrite = address
        return .ack
    }

    /// COMPATIBILITY_WRITE part 2: 16 bytes of which the first 4 are programmed; any other frame
    /// length is refused with NAK 0h.
    mutating func compatibilityWriteData(_ data: [UInt8], page address: Int) -> TagAnswer {
        guard data.count == 16 else { return nak(.invalidArgument) }
        program(Array(data[0..<4]), at: address)
        return TagAnswer(.ack, processingTime: Self.eepromWriteTime, writesMemory: true)
    }

    /// Whether WRITE may program a page now.
    func isWritable(_ address: Int) -> Bool {
        guard address >= 2, address < model.pageCount, !isWriteProtected(address) else { return false }
        if effective.access.contains(.configurationLock),
            address == model.configurationPage0 || address == model.configurationPage1
        {
            return false
        }
        return !isLocked(address)
    }

    /// Programs a page, with the OR semantics of the lock, OTP and CC bytes.
    mutating func program(_ data: [UInt8], at address: Int) {
        let offset = address * 4
        switch address {
        case 2:
            let merged = mergedStaticLockBytes(data[2], data[3])
            memory[offset + 2] = merged.0
            memory[offset + 3] = merged.1
        case 3:
            for i in 0..<4 { memory[offset + i] |= data[i] }
        case model.dynamicLockPage:
            let merged = mergedDynamicLockBytes(Array(data[0..<3]))
            memory.replaceSubrange(offset..<offset + 3, with: merged)
            memory[offset + 3] = 0xBD
        default:
            memory.replaceSubrange(offset..<offset + 4, with: data)
        }
    }
}
