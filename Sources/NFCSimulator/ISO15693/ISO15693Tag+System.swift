extension ISO15693Tag {
    /// Write AFI 0x27, Lock AFI 0x28, Write DSFID 0x29, Lock DSFID 0x2A (ISO/IEC 15693-3:2009
    /// §10.4.8–§10.4.11): a write to a locked value answers error 0x12, a second lock error 0x11.
    mutating func identifierCommand(_ request: ISO15693Request) -> TagAnswer {
        let failure = writeProcessing(blocks: 0, option: request.option)
        let done = writeProcessing(blocks: 1, option: request.option)
        var parameters = request.reader
        switch request.code {
        case ISO15693Command.writeAFI, ISO15693Command.writeDSFID:
            guard let value = parameters.byte(), parameters.isAtEnd else {
                return error(.notRecognized, request, processing: failure)
            }
            if request.code == ISO15693Command.writeAFI {
                guard !isAFILocked else { return error(.lockedContent, request, processing: failure) }
                afi = value
            } else {
                guard !isDSFIDLocked else { return error(.lockedContent, request, processing: failure) }
                dsfid = value
            }
        default:
            guard parameters.isAtEnd else { return error(.notRecognized, request, processing: failure) }
            if request.code == ISO15693Command.lockAFI {
                guard !isAFILocked else { return error(.alreadyLocked, request, processing: failure) }
                isAFILocked = true
            } else {
                guard !isDSFIDLocked else { return error(.alreadyLocked, request, processing: failure) }
                isDSFIDLocked = true
            }
        }
        return ok([], request, processing: done, writesMemory: true)
    }

    /// Get System Information 0x2B (ISO/IEC 15693-3:2009 §10.4.12).
    ///
    /// Response: flags, information flags, UID, DSFID, AFI, [memory size: blocks − 1, block size −
    /// 1], IC reference. The SLIX2 answers information flags 0x0F and memory size `4F 03`
    /// (SL2S2602 data sheet); the ST25DV16K answers 0x0B without the memory size, which only
    /// Extended Get System Information reports (DS10925).
    func systemInformation(_ request: ISO15693Request) -> TagAnswer {
        guard request.parameters.isEmpty else { return error(.notRecognized, request) }
        var payload: [UInt8] = [model.systemInfoHasMemorySize ? 0x0F : 0x0B] + wireUID + [dsfid, afi]
        if model.systemInfoHasMemorySize {
            payload += [UInt8(truncatingIfNeeded: model.blockCount - 1), UInt8(truncatingIfNeeded: model.blockSize - 1)]
        }
        payload.append(model.icReference)
        return ok(payload, request)
    }

    /// The VICC command list of Extended Get System Information (ISO/IEC 15693-3:2019, 4 bytes):
    /// byte 1 Read/Write/Lock Single, Read/Write Multiple, Select, Reset to Ready, Get Multiple
    /// Block Security Status; byte 2 Write/Lock AFI, Write/Lock DSFID, Get System Information,
    /// custom commands, Fast Read Multiple; byte 3 the extended and fast extended reads, writes and
    /// locks. The ST25DV16K has no (extended) Lock Block.
    var commandList: [UInt8] {
        let lock: UInt8 = model.supportsLockBlock ? 0x04 : 0x00
        return [0xFB | lock, 0x7F, 0x7B | lock, 0x00]
    }

    /// Extended Get System Information 0x3B (ISO/IEC 15693-3:2019).
    ///
    /// The request's parameter field (before the UID) asks for DSFID (bit 0), AFI (1), memory size
    /// (2), IC reference (3), MOI (4), command list (5), CSI (6). The answer's information flags
    /// repeat the fields present, with bit 4 set for 2-byte block addressing; the memory size is
    /// 3 bytes (blocks − 1 least significant first, block size − 1). CSI is not supported, so its
    /// bit stays clear.
    func extendedSystemInformation(_ request: ISO15693Request) -> TagAnswer {
        guard request.parameters.isEmpty, let asked = request.leadingParameter else {
            return error(.notRecognized, request)
        }
        let present = asked & 0x3F
        var payload: [UInt8] = [present] + wireUID
        if present & 0x01 != 0 { payload.append(dsfid) }
        if present & 0x02 != 0 { payload.append(afi) }
        if present & 0x04 != 0 {
            let blocks = model.blockCount - 1
            payload += [
                UInt8(truncatingIfNeeded: blocks), UInt8(truncatingIfNeeded: blocks >> 8),
                UInt8(truncatingIfNeeded: model.blockSize - 1),
            ]
        }
        if present & 0x08 != 0 { payload.append(model.icReference) }
        if present & 0x20 != 0 { payload += commandList }
        return ok(payload, request)
    }
}
