import NFCBytes
import NFCTransport

/// The initiator commands (UM0701-02 §7.3.5 to §7.3.12) over the driver's targets.
extension VirtualPN532 {
    /// InListPassiveTarget (§7.3.5): MaxTg (1 or 2), BrTy, initiator data. Type A at 106 kbit/s
    /// (an optional UID selects one card), FeliCa at 212 or 424 kbit/s (the initiator data is
    /// the Polling payload: `00`, system code, request code, time slot), type B at 106 kbit/s
    /// (AFI), Jewel at 106 kbit/s (the Type 1 tags, which take no part in type A anticollision
    /// and so are found by BrTy 4 alone). With no card and
    /// passive-activation retries of `FF` (the reset value) the real chip keeps polling until
    /// a card comes or the host aborts with an ACK; here it waits for the driver's next arrival.
    func listPassiveTargets(_ parameters: [UInt8]) async -> [UInt8]? {
        guard parameters.count >= 2, (1...2).contains(parameters[0]) else { return nil }
        guard let found = await activate(maximum: Int(parameters[0]), modulation: parameters[1], Array(parameters.dropFirst(2))) else {
            return nil
        }
        return [UInt8(found.count)] + found.joined()
    }

    /// Activates up to `maximum` targets of one modulation (BrTy) that `accept` takes, releasing
    /// the targets activated before, and returns each one's Tg and target data; nil for
    /// parameters the chip refuses. With no target and passive-activation retries of `FF` it
    /// waits for one.
    func activate(
        maximum: Int, modulation: UInt8, _ initiatorData: [UInt8], accept: @Sendable (TargetInfo) -> Bool = { _ in true }
    ) async -> [[UInt8]]? {
        let mask: TechnologyMask
        switch modulation {
        case 0x00: mask = .iso14443A
        case 0x01, 0x02:
            guard initiatorData.count == 5, initiatorData[0] == 0x00 else { return nil }
            mask = .felica
        case 0x03: mask = .iso14443B
        case 0x04: mask = .iso14443A
        default: return nil
        }
        await releaseAll()
        fieldOn = true
        var found = await matching(mask, modulation, initiatorData).filter { accept($0.info) }
        if found.isEmpty, passiveActivationRetries == 0xFF {
            for await event in await driver.events(matching: mask) {
                if Task.isCancelled { return nil }
                guard case .targetArrived = event else { continue }
                found = await matching(mask, modulation, initiatorData).filter { accept($0.info) }
                if !found.isEmpty { break }
            }
        }
        var activated: [[UInt8]] = []
        for (index, candidate) in found.enumerated() {
            guard index < maximum else {
                await candidate.connection?.disconnect()
                continue
            }
            guard let connection = await connectionOrNil(candidate) else { continue }
            let number = UInt8(targets.count + 1)
            targets.append(
                ActiveTarget(number: number, info: candidate.info, modulation: modulation, connection: connection, selected: true))
            activated.append(
                [number]
                    + Self.targetData(
                        candidate.info, modulation, initiatorData, withATS: self.parameters & 0x10 != 0,
                        pollingResponse: candidate.pollingResponse))
        }
        return activated
    }

    /// A target InListPassiveTarget may list: what the field reports, and for FeliCa the
    /// connection the Polling went through and the card's own answer to it.
    struct Candidate {
        let info: TargetInfo
        var connection: (any TagConnection)?
        var pollingResponse: [UInt8]?
    }

    private func connectionOrNil(_ candidate: Candidate) async -> (any TagConnection)? {
        if let connection = candidate.connection { return connection }
        return try? await driver.connect(to: candidate.info, meter: meter)
    }

    /// The driver's targets this modulation and initiator data select. FeliCa cards get the
    /// Polling command itself (the initiator data is `00 SC SC RC TSN`, JIS X 6319-4 §9.1) and
    /// decide whether to answer — a FeliCa Lite-S answers for `12FC` only when its SYS_OP says
    /// NDEF — as they would in a real chip's field.
    private func matching(_ mask: TechnologyMask, _ modulation: UInt8, _ initiatorData: [UInt8]) async -> [Candidate] {
        var all = (try? await driver.targets(matching: mask)) ?? []
        // A Type 1 tag answers REQA but not the anticollision that follows: only BrTy 4 finds it.
        all.removeAll { modulation == 0x04 ? !Self.isJewel($0) : Self.isJewel($0) }
        switch modulation {
        case 0x00:
            guard !initiatorData.isEmpty else { return all.filter { !halted.contains($0.identifier) }.map { Candidate(info: $0) } }
            let uid = Self.uncascaded(initiatorData)
            return all.filter { $0.identifier == uid }.map { Candidate(info: $0) }
        case 0x01, 0x02:
            var found: [Candidate] = []
            for target in all {
                guard case .felica = target.parameters, let connection = try? await driver.connect(to: target, meter: meter) else {
                    continue
                }
                let answer = try? await connection.transceive(initiatorData, timeout: .milliseconds(50))
                if let answer, answer.count >= 17, answer[0] == 0x01 {
                    found.append(Candidate(info: target, connection: connection, pollingResponse: answer))
                } else {
                    await connection.disconnect()
                }
            }
            return found
        default:
            all.removeAll { halted.contains($0.identifier) }
            return all.map { Candidate(info: $0) }
        }
    }

    /// A UID as InListPassiveTarget takes it, cascade tags (`88`, ISO/IEC 14443-3 §6.5.4)
    /// removed: a 7-byte UID comes as `88 U0 … U6`, a 10-byte one as `88 U0 U1 U2 88 U3 …`
    /// (UM0701-02 §7.3.5, and libnfc sends it so).
    static func uncascaded(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.count == 8, bytes[0] == 0x88 { return Array(bytes.dropFirst()) }
        if bytes.count == 12, bytes[0] == 0x88, bytes[4] == 0x88 { return Array(bytes[1..<4]) + Array(bytes[5...]) }
        return bytes
    }

    /// A target's data in the InListPassiveTarget answer, after its Tg (§7.3.5, the tables of
    /// TargetData per BrTy).
    static func targetData(
        _ info: TargetInfo, _ modulation: UInt8, _ initiatorData: [UInt8], withATS: Bool, pollingResponse: [UInt8]? = nil
    ) -> [UInt8] {
        switch info.parameters {
        case .iso14443A(let a) where modulation == 0x04:
            // Jewel: SENS_RES as the chip prints it, then JEWELID, the 4 UID bytes RID answers.
            return [UInt8(a.atqa >> 8), UInt8(a.atqa & 0xFF)] + info.identifier.prefix(4)
        case .iso14443A(let a):
            // SENS_RES as the chip prints it, second byte received first; SEL_RES; NFCID1; the ATS.
            var data = [UInt8(a.atqa >> 8), UInt8(a.atqa & 0xFF), a.sak, UInt8(info.identifier.count)] + info.identifier
            if withATS, let ats = a.ats { data += ats.bytes }
            return data
        case .felica(let f):
            // POL_RES: its length, then the card's answer to the Polling (response code 01, IDm,
            // PMm, and the system code when asked, RC 01).
            if let pollingResponse { return [UInt8(pollingResponse.count + 1)] + pollingResponse }
            var response: [UInt8] = [0x01] + info.identifier + f.pmm
            if initiatorData.count == 5, initiatorData[3] == 0x01 {
                response += [UInt8(f.systemCode >> 8), UInt8(f.systemCode & 0xFF)]
            }
            return [UInt8(response.count + 1)] + response
        case .iso14443B(let b):
            // ATQB (50, PUPI, application data, protocol info), then ATTRIB_RES with its length.
            let atqb: [UInt8] = [0x50] + info.identifier + b.applicationData + b.protocolInfo
            let attrib: [UInt8] = [0x00] + b.higherLayerResponse
            return atqb + [UInt8(attrib.count)] + attrib
        case .iso15693:
            return []
        }
    }

    /// InDataExchange (§7.3.8): Tg, then the data; the chip does the protocol. ISO-DEP targets
    /// take an APDU; other type A tags a native command (CRC added and checked by the chip), a
    /// 4-bit ACK answered as success with no data and a NAK as MIFARE error 14h (decision: the
    /// manual names no other code for it); FeliCa takes the command with its length byte.
    func dataExchange(_ parameters: [UInt8]) async -> [UInt8]? {
        guard let number = parameters.first, number & 0x3F >= 1 else { return nil }
        guard let index = targets.firstIndex(where: { $0.number == number & 0x3F }), let connection = targets[index].connection
        else {
            lastError = PN532Status.wrongContext.error
            return [PN532Status.wrongContext.rawValue]
        }
        let data = Array(parameters.dropFirst())
        switch targets[index].info.parameters {
        case .felica:
            guard let length = data.first, Int(length) == data.count else { return [PN532Status.invalidParameter.rawValue] }
            return await exchange(connection, Array(data.dropFirst())) { [UInt8($0.count + 1)] + $0 }
        case .iso14443A(let a) where a.isType1Platform:
            return await jewelExchange(connection, data, uid: Array(targets[index].info.identifier.prefix(4)))
        case .iso14443A(let a) where a.ats == nil && data.count == 18 && data[0] == 0xA0:
            return await compatibilityWrite(connection, data)
        case .iso14443A(let a) where a.ats == nil:
            return await exchange(connection, data) { answer in
                Self.isFourBit(answer, to: data) && answer == [0x0A] ? [] : answer
            } nak: { answer in
                Self.isFourBit(answer, to: data) && answer != [0x0A]
            }
        default:
            return await exchange(connection, data) { $0 }
        }
    }

    /// Whether a target is a Type 1 (Jewel, Topaz) tag.
    static func isJewel(_ info: TargetInfo) -> Bool {
        if case .iso14443A(let a) = info.parameters { return a.isType1Platform }
        return false
    }

    /// The frame length of each Jewel command with its zero data bytes and the UID echo
    /// (BCM20203T512 data sheet, Tables 6–8).
    static let jewelFrameLengths: [UInt8: Int] = [
        0x78: 7, 0x00: 7, 0x01: 7, 0x53: 7, 0x1A: 7, 0x10: 14, 0x02: 14, 0x54: 14, 0x1B: 14,
    ]

    /// A Jewel command through InDataExchange: the host sends the command without the zero
    /// data bytes and the UID echo, as libnfc's `nfc-jewel` does (`01 ADD`, `53 ADD DAT`, `02 ADD8`,
    /// `54 ADD8 D0…D7`), and the firmware completes the frame with the UID the activation learnt;
    /// the tag's echo of the address comes off the answer (`READ` → DAT, `READ8` → 8 bytes;
    /// RID and RALL answer whole). An unknown code or an overlong command is an invalid parameter (10h).
    private func jewelExchange(_ connection: any TagConnection, _ data: [UInt8], uid: [UInt8]) async -> [UInt8] {
        guard let code = data.first, let length = Self.jewelFrameLengths[code], data.count <= length - 4 else {
            lastError = PN532Status.invalidParameter.error
            return [PN532Status.invalidParameter.rawValue]
        }
        let echo = code == 0x78 ? [UInt8](repeating: 0, count: 4) : uid
        let frame = data + [UInt8](repeating: 0, count: length - 4 - data.count) + echo
        return await exchange(connection, frame) { answer in
            code == 0x78 || code == 0x00 ? answer : Array(answer.dropFirst())
        }
    }

    /// MIFARE "Write 16 bytes" (UM0701-02 §7.3.8, the MIFARE commands InDataExchange takes:
    /// `A0 Addr` and 16 data bytes in one command): the firmware runs the card's two-phase write —
    /// `A0 Addr`, the card's ACK, the 16 bytes, the card's ACK (MIFARE Classic's WRITE, and the
    /// COMPATIBILITY_WRITE of Ultralight and NTAG21x, NTAG213/215/216 data sheet §10.5, which keep
    /// the first 4 bytes). libnfc's `nfc-mfultralight w` writes every page so. A NAK in either
    /// phase is MIFARE error `14`, as for a native command.
    private func compatibilityWrite(_ connection: any TagConnection, _ data: [UInt8]) async -> [UInt8] {
        let first = await exchange(connection, Array(data[0...1])) {
            $0
        } nak: {
            $0 != [0x0A]
        }
        guard first == [PN532Status.success.rawValue, 0x0A] else {
            return first.count == 1 ? first : [PN532Status.mifareAuthenticationError.rawValue]
        }
        return await exchange(connection, Array(data[2...])) { answer in
            answer == [0x0A] ? [] : answer
        } nak: {
            $0 != [0x0A]
        }
    }

    /// Whether a one-byte answer is a 4-bit ACK or NAK (NTAG21x data sheet §9.3: `A` ACK, `0`,
    /// `1`, `4`, `5` NAK) rather than a byte of data: only CHECK_TEARING_EVENT (`3E`, Ultralight
    /// EV1) answers a single data byte, and TagConnection carries a 4-bit answer as one byte
    /// below `10h`.
    static func isFourBit(_ answer: [UInt8], to command: [UInt8]) -> Bool {
        answer.count == 1 && answer[0] <= 0x0F && command.first != 0x3E
    }

    /// One exchange with a target: the status byte and the data, errors mapped to status codes.
    private func exchange(
        _ connection: any TagConnection, _ command: [UInt8], map: ([UInt8]) -> [UInt8],
        nak: ([UInt8]) -> Bool = { _ in false }
    ) async -> [UInt8] {
        do {
            let answer = try await connection.transceive(command, timeout: .milliseconds(100))
            if nak(answer) {
                lastError = PN532Status.mifareAuthenticationError.error
                return [PN532Status.mifareAuthenticationError.rawValue]
            }
            lastError = 0
            return [PN532Status.success.rawValue] + map(answer)
        } catch {
            let status = PN532Status(error)
            lastError = status.error
            return [status.rawValue]
        }
    }

    /// InCommunicateThru (§7.3.9): raw bytes to the current target. With the CIU's CRC off
    /// (TxModeReg/RxModeReg bit 7 clear, as nfcpy sets them) the host appends CRC_A itself and
    /// gets it after the answer; a 4-bit ACK or NAK comes back as one byte either way.
    func communicateThru(_ parameters: [UInt8]) async -> [UInt8]? {
        guard !parameters.isEmpty else { return nil }
        guard let target = targets.first(where: { $0.selected }), let connection = target.connection else {
            lastError = PN532Status.wrongContext.error
            return [PN532Status.wrongContext.rawValue]
        }
        if case .felica = target.info.parameters {
            // The host sends the FeliCa frame with its length byte (UM0701-02 §7.3.9); the card's
            // answer goes back with its own.
            guard Int(parameters[0]) == parameters.count else { return [PN532Status.invalidParameter.rawValue] }
            return await exchange(connection, Array(parameters.dropFirst())) { [UInt8($0.count + 1)] + $0 }
        }
        var command = parameters
        if case .iso14443A = target.info.parameters, !sendsCRC {
            guard CRC16.crcA.isValid(frame: command) else {
                // A tag does not answer a frame with a bad CRC: the chip times out.
                lastError = PN532Status.timeout.error
                return [PN532Status.timeout.rawValue]
            }
            command.removeLast(2)
        }
        let appendCRC: Bool
        if case .iso14443A = target.info.parameters { appendCRC = !checksCRC } else { appendCRC = false }
        if case .iso14443B(let b) = target.info.parameters,
            let typeB = TypeBCardSide.command(command, pupi: target.info.identifier)
        {
            // nfcpy deselects the card the chip activated and activates it again itself: WUPB,
            // then ATTRIB, then its own ISO-DEP blocks.
            switch typeB {
            case .request: return [PN532Status.success.rawValue] + TypeBCardSide.atqb(target.info, b)
            case .attrib(let cid, let frameSizeCode):
                isoDEPCards[target.number] = ISODEPCardSide(frameSizeCode: frameSizeCode)
                return [PN532Status.success.rawValue] + TypeBCardSide.attribAnswer(cid: cid, b)
            case .halt: return [PN532Status.success.rawValue, 0x00]
            }
        }
        if target.info.speaksISODEP {
            // The host runs ISO/IEC 14443-4 itself (nfcpy's Type 4): the card's side of RATS and
            // of the blocks, its APDUs going to the card.
            let (status, answer) = await isoDEPBlock(command, target: target, connection: connection)
            lastError = status.error
            guard status == .success else { return [status.rawValue] }
            return [status.rawValue] + (appendCRC ? CRC16.crcA.appending(to: answer) : answer)
        }
        let sent = command
        return await exchange(connection, command) { answer in
            guard appendCRC, !Self.isFourBit(answer, to: sent) else { return answer }
            return CRC16.crcA.appending(to: answer)
        }
    }

    /// The card's answer to one ISO/IEC 14443-4 frame from a host that does the protocol itself
    /// (``ISODEPCardSide``); an APDU the card fails, or a frame the card ignores, is a time-out.
    func isoDEPBlock(
        _ frame: [UInt8], target: ActiveTarget, connection: any TagConnection
    ) async -> (PN532Status, [UInt8]) {
        var ats: [UInt8]?
        if case .iso14443A(let a) = target.info.parameters { ats = a.ats?.bytes }
        var side = isoDEPCards[target.number] ?? ISODEPCardSide()
        let step = side.receive(frame, ats: ats)
        isoDEPCards[target.number] = side
        switch step {
        case .mute: return (.timeout, [])
        case .answer(let bytes): return (.success, bytes)
        case .apdu(let apdu):
            let answer: [UInt8]
            do {
                answer = try await connection.transceive(apdu, timeout: .milliseconds(500))
            } catch {
                return (PN532Status(error), [])
            }
            var after = isoDEPCards[target.number] ?? ISODEPCardSide()
            let block = after.answered(answer)
            isoDEPCards[target.number] = after
            return (.success, block)
        }
    }

    /// InRelease (§7.3.11): Tg, 0 for all; the target is forgotten.
    func release(_ parameters: [UInt8]) async -> [UInt8]? {
        guard parameters.count == 1 else { return nil }
        let number = parameters[0]
        if number == 0 {
            await releaseAll()
            return [PN532Status.success.rawValue]
        }
        guard let index = targets.firstIndex(where: { $0.number == number }) else {
            return [PN532Status.wrongContext.rawValue]
        }
        let released = targets.remove(at: index)
        await released.connection?.disconnect()
        return [PN532Status.success.rawValue]
    }

    /// InDeselect (§7.3.10): Tg, 0 for all; the target stays known for InSelect, and sleeps
    /// (``halted``) for the next InListPassiveTarget of type A or B.
    func deselect(_ parameters: [UInt8]) -> [UInt8]? {
        guard parameters.count == 1 else { return nil }
        var any = false
        for index in targets.indices where parameters[0] == 0 || targets[index].number == parameters[0] {
            targets[index].selected = false
            if case .felica = targets[index].info.parameters {} else { halted.insert(targets[index].info.identifier) }
            any = true
        }
        return [any ? PN532Status.success.rawValue : PN532Status.wrongContext.rawValue]
    }

    /// InSelect (§7.3.12): Tg; the target is activated again.
    func select(_ parameters: [UInt8]) async -> [UInt8]? {
        guard parameters.count == 1 else { return nil }
        guard let index = targets.firstIndex(where: { $0.number == parameters[0] }), let connection = targets[index].connection
        else { return [PN532Status.wrongContext.rawValue] }
        do {
            try await connection.reactivate()
        } catch {
            return [PN532Status(error).rawValue]
        }
        for other in targets.indices { targets[other].selected = targets[other].number == parameters[0] }
        halted.remove(targets[index].info.identifier)  // WUPA or WUPB woke it
        return [PN532Status.success.rawValue]
    }

    /// Releases every target (a new InListPassiveTarget, the field switched off).
    func releaseAll() async {
        let released = targets
        targets = []
        isoDEPCards = [:]
        for target in released { await target.connection?.disconnect() }
    }
}
