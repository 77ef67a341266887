/// The host's command dispatch: length and class checks, chaining, SELECT, GET RESPONSE, Le.
extension ISO7816Card {
    /// What the class byte says (ISO/IEC 7816-4:2013 §5.4.1).
    enum ClassKind: Equatable {
        /// `0x`–`1x` (first) or `4x`–`7x` (further interindustry): channel, secure messaging, chaining.
        case interindustry(channel: Int, secureMessaging: Bool, chaining: Bool)
        /// `80`–`FE`: the selected applet's own.
        case proprietary
        /// `2x`–`3x` (RFU) and `FF` (reserved for PPS).
        case invalid

        init(_ cla: UInt8) {
            switch cla {
            case 0x00...0x1F:
                self = .interindustry(channel: Int(cla & 0x03), secureMessaging: cla & 0x0C != 0, chaining: cla & 0x10 != 0)
            case 0x40...0x7F:
                self = .interindustry(channel: 4 + Int(cla & 0x0F), secureMessaging: cla & 0x20 != 0, chaining: cla & 0x10 != 0)
            case 0x80...0xFE:
                self = .proprietary
            default:
                self = .invalid
            }
        }
    }

    /// The most data a command chain may gather.
    static let maxChainedDataLength = 65_535

    /// Answers one command APDU.
    mutating func handle(_ bytes: [UInt8]) -> SimResponseAPDU {
        let parsed: SimCommandAPDU
        do {
            parsed = try SimCommandAPDU(bytes: bytes)
        } catch {
            return abandon(.wrongLength)
        }
        var command = parsed
        if command.isExtended && !configuration.extendedLength { return abandon(.wrongLength) }
        if command.data.count > configuration.maxCommandDataLength { return abandon(.wrongLength) }

        if let owner = applets.firstIndex(where: \.ownsCard) { return handOver(command, to: owner) }

        let kind = ClassKind(command.cla)
        var interindustry = false
        var chaining = false
        switch kind {
        case .invalid:
            return abandon(.classNotSupported)
        case .interindustry(let channel, let secureMessaging, let chainBit):
            if channel != 0 { return abandon(.logicalChannelNotSupported) }
            if secureMessaging { return abandon(.secureMessagingNotSupported) }
            interindustry = true
            chaining = chainBit
        case .proprietary:
            break
        }
        // INS 6X and 9X are invalid (ISO/IEC 7816-4:2013 §5.4.2).
        if command.ins & 0xF0 == 0x60 || command.ins & 0xF0 == 0x90 { return abandon(.instructionNotSupported) }

        // GET RESPONSE continues a pending answer; anything else drops it.
        if interindustry && command.ins == 0xC0 && chain == nil { return getResponse(command) }
        pendingResponse = nil

        // Command chaining: gather the data, answer 9000 to every command but the last.
        if let current = chain {
            let sameCommand =
                current.cla == command.cla & ~0x10 && current.ins == command.ins
                && current.p1 == command.p1 && current.p2 == command.p2
            guard sameCommand else { return abandon(.lastCommandOfChainExpected) }
            let gathered = current.data + command.data
            guard gathered.count <= Self.maxChainedDataLength else { return abandon(.wrongLength) }
            if chaining {
                chain?.data = gathered
                return SimResponseAPDU(.success)
            }
            chain = nil
            command.data = gathered
        } else if chaining {
            chain = CommandChain(cla: command.cla & ~0x10, ins: command.ins, p1: command.p1, p2: command.p2, data: command.data)
            return SimResponseAPDU(.success)
        }

        let response = dispatch(command, interindustry: interindustry)
        return finish(response, for: command)
    }

    /// A card whose applet owns it (``ISO7816Applet/ownsCard``): GET RESPONSE of a pending
    /// answer here, every other command to the applet, its answer through Le.
    private mutating func handOver(_ command: SimCommandAPDU, to owner: Int) -> SimResponseAPDU {
        if case .invalid = ClassKind(command.cla) { return abandon(.classNotSupported) }
        if command.cla == 0x00 && command.ins == 0xC0 && pendingResponse != nil { return getResponse(command) }
        pendingResponse = nil
        chain = nil
        selectedIndex = owner
        return finish(applets[owner].process(command), for: command)
    }

    /// Drops a pending response and chain and answers a status word.
    private mutating func abandon(_ status: SimStatusWord) -> SimResponseAPDU {
        pendingResponse = nil
        chain = nil
        return SimResponseAPDU(status)
    }

    /// Routes a whole command: SELECT by DF name and the MF to the host, the rest to the applet.
    private mutating func dispatch(_ command: SimCommandAPDU, interindustry: Bool) -> SimResponseAPDU {
        if interindustry && command.ins == 0xA4 {
            if command.p1 == 0x04 { return selectByName(command) }
            if command.p1 == 0x00 && (command.data.isEmpty || command.data == [0x3F, 0x00]) {
                return selectMasterFile(command)
            }
        }
        // MANAGE CHANNEL: only the basic channel exists.
        if interindustry && command.ins == 0x70 { return SimResponseAPDU(.logicalChannelNotSupported) }
        if let index = selectedIndex, applets.indices.contains(index) {
            return applets[index].process(command)
        }
        return answerWithoutApplet(command, interindustry: interindustry)
    }

    /// What the MF answers when no applet is selected.
    private func answerWithoutApplet(_ command: SimCommandAPDU, interindustry: Bool) -> SimResponseAPDU {
        guard interindustry else { return SimResponseAPDU(.classNotSupported) }
        switch command.ins {
        case 0xA4:
            // The MF holds no EF or DF besides the applications.
            switch command.p1 {
            case 0x00, 0x01, 0x02, 0x08, 0x09: return SimResponseAPDU(.fileNotFound)
            default: return SimResponseAPDU(.incorrectP1P2)
            }
        case 0xB0, 0xB1, 0xD6, 0xD7, 0xB2, 0xB3, 0xDC, 0xDD, 0xE2, 0xD0, 0xD1, 0x0E, 0x0F:
            // Binary and record commands need a current EF.
            return SimResponseAPDU(.noCurrentEF)
        default:
            return SimResponseAPDU(.instructionNotSupported)
        }
    }

    /// SELECT with P1 = `00` and no data or `3F00`: the MF becomes current, the applet is left.
    private mutating func selectMasterFile(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 & 0xF0 == 0, command.p2 & 0x03 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        deselectCurrent()
        return SimResponseAPDU(.success)
    }

    private mutating func deselectCurrent() {
        if let index = selectedIndex, applets.indices.contains(index) {
            applets[index].deselect()
        }
        selectedIndex = nil
    }

    /// SELECT by DF name (ISO/IEC 7816-4:2013, SELECT command): the name may be right-truncated; P2 b2–b1
    /// picks the first (`00`), last (`01`), next (`10`) or previous (`11`) match; b4–b3 (FCI,
    /// FCP, FMD, none) are the applet's to honour. No match: `6A82`, the selection unchanged.
    private mutating func selectByName(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p2 & 0xF0 == 0 else { return SimResponseAPDU(.incorrectP1P2) }
        let name = command.data
        if name.isEmpty {
            // No DF name: back to the MF.
            deselectCurrent()
            return SimResponseAPDU(.success)
        }
        guard name.count <= 16 else { return SimResponseAPDU(.fileNotFound) }
        let matches = applets.indices.filter { applets[$0].aid.starts(with: name) }
        let target: Int?
        switch command.p2 & 0x03 {
        case 0x00: target = matches.first
        case 0x01: target = matches.last
        case 0x02:
            if let current = selectedIndex { target = matches.first { $0 > current } } else { target = matches.first }
        default:
            if let current = selectedIndex { target = matches.last { $0 < current } } else { target = matches.last }
        }
        guard let target else { return SimResponseAPDU(.fileNotFound) }
        deselectCurrent()
        let response = applets[target].select(command: command)
        if [0x90, 0x62, 0x63].contains(response.status.sw1) {
            selectedIndex = target
        }
        return response
    }

    /// GET RESPONSE (ISO/IEC 7816-4:2013, transmission handling): the next part of a pending answer.
    ///
    /// An absent Le is read as 256 (lenient, as contactless Java Card hosts are).
    private mutating func getResponse(_ command: SimCommandAPDU) -> SimResponseAPDU {
        guard command.p1 == 0, command.p2 == 0 else { return abandon(.incorrectP1P2) }
        guard let pending = pendingResponse else { return SimResponseAPDU(.conditionsNotSatisfied) }
        let count = min(command.ne ?? 256, max(configuration.maxResponseDataLength, 1), pending.data.count)
        let chunk = Array(pending.data.prefix(count))
        let rest = Array(pending.data.dropFirst(count))
        if rest.isEmpty {
            pendingResponse = nil
            return SimResponseAPDU(data: chunk, status: pending.status)
        }
        pendingResponse = PendingResponse(data: rest, status: pending.status)
        return SimResponseAPDU(data: chunk, status: .bytesRemaining(rest.count))
    }

    /// Applies Le and the response buffer: data beyond Ne is cut, data beyond the buffer waits
    /// for GET RESPONSE behind `61xx` (ISO/IEC 7816-4:2013 §5.1 and §5.6).
    ///
    /// With no Le field the applet's data is sent as it is (as contactless cards do). A short Le
    /// of `00` ("as much as a short response holds") on an answer over 256 bytes sends 256 and
    /// keeps the rest for GET RESPONSE behind `61xx`, as PIV and Java Card hosts do (ISO/IEC
    /// 7816-4:2013 §5.6: `61xx` in a case 2 or 4 command tells that more bytes are available).
    /// A response marked ``SimResponseAPDU/keepsDataBeyondNe`` is never cut: what exceeds any Ne
    /// waits behind `61xx`. Any other Ne cuts the answer.
    private mutating func finish(_ response: SimResponseAPDU, for command: SimCommandAPDU) -> SimResponseAPDU {
        var result = response
        var limit = max(configuration.maxResponseDataLength, 1)
        if let ne = command.ne, result.data.count > ne {
            if result.keepsDataBeyondNe {
                limit = min(limit, ne)
            } else if !command.isExtended && command.asksForMaximum {
                limit = min(limit, 256)
            } else {
                result.data = Array(result.data.prefix(ne))
            }
        }
        if result.data.count > limit {
            let rest = Array(result.data.dropFirst(limit))
            pendingResponse = PendingResponse(data: rest, status: result.status)
            result.data = Array(result.data.prefix(limit))
            result.status = .bytesRemaining(rest.count)
        }
        return result
    }
}
