import NFCBytes
import NFCTransport

/// A card of the field in front of `driver` — a virtual tag, typically — as nfcpy's UDP
/// frontend reads one (`nfc.ContactlessFrontend('udp:HOST:PORT')`): raw RF frames in, raw RF
/// frames out, the card doing what a real one does at that layer.
///
/// - **Type A** (ISO/IEC 14443-3 §6): SENS_REQ `26` or ALL_REQ `52` answered with the ATQA (low
///   byte first) — a Type 1 tag is then active at once and takes RID and its other commands;
///   SDD_REQ `93/95/97 20` with the cascade level's UID bytes and BCC (a 7-byte UID
///   begins with the cascade tag `88`); SEL_REQ `93/95/97 70` with the SAK (cascade bit `04`
///   until the last level); SLP_REQ `50 00` halts the card. Then a Type 2 tag takes its
///   commands as they are (a 4-bit ACK or NAK goes back as one byte); an ISO-DEP card answers
///   RATS with its ATS and then runs ISO/IEC 14443-4 blocks (`ISODEPCardSide`).
/// - **Type B** (ISO/IEC 14443-3 §7): SENSB_REQ/ALLB_REQ `05 AFI PARAM` answered with SENSB_RES
///   (`50`, PUPI, application data, protocol info); ATTRIB `1D PUPI …` with its answer (MBLI and
///   CID, then the higher-layer response); then ISO-DEP blocks. SLPB_REQ `50 PUPI` answers `00`.
/// - **FeliCa** (JIS X 6319-4): every frame keeps its LEN byte; Polling goes to the card, which
///   decides whether to answer (a Lite-S answers `12FC` only when its MC says NDEF), and so does
///   every other command.
///
/// A frame of another technology than the card's is answered with an empty frame of that
/// technology, which nfcpy takes at once for "nothing here" (without it, each technology costs
/// the reader its 1 s time-out). Anything the card would not answer gets no datagram — an
/// active card ignores REQ and WUP and other technologies' frames. `RFOFF` resets the card. Whatever the tag's engine-level connection fails is silence, as a card
/// that did not understand.
package actor NfcpyUDPCard {
    let driver: any ReaderDriver
    let meter = AirTimeMeter()

    private enum Stage {
        case idle
        case halted
        /// Type A between SENS_REQ and the last SEL_REQ: the cascade levels' 5 bytes.
        case anticollision(levels: [[UInt8]])
        /// Type B after SENSB_REQ, waiting for ATTRIB.
        case readyB
        /// Selected and talking: raw commands (Type 2, FeliCa) or ISO-DEP blocks.
        case active
    }

    private var stage = Stage.idle
    private var target: TargetInfo?
    private var connection: (any TagConnection)?
    private var isoDEP = ISODEPCardSide()
    private var runsISODEP = false

    /// A card of `driver`'s field.
    package init(driver: any ReaderDriver) {
        self.driver = driver
    }

    /// The answer to one datagram, or nil for silence.
    package func receive(_ frame: NfcpyUDPFrame) async -> NfcpyUDPFrame? {
        guard case .frame(let rate, let bytes) = frame else {
            await reset(to: .idle)
            return nil
        }
        // An active card hears only its own technology (until RFOFF, which nfcpy sends before
        // each new search).
        if case .active = stage, let target, !mask(rate).contains(target.technology) { return nil }
        let answer: [UInt8]?
        switch rate.technology {
        case "A": answer = await typeA(bytes)
        case "B": answer = await typeB(bytes)
        default: answer = await felica(bytes)
        }
        if let answer { return .frame(rate, answer) }
        // Nothing of this technology in the field: say so at once.
        if case .idle = stage, await firstTarget(rate) == nil { return .frame(rate, []) }
        return nil
    }

    private func mask(_ rate: NfcpyUDPFrame.NfcpyBitRate) -> TechnologyMask {
        switch rate.technology {
        case "A": .iso14443A
        case "B": .iso14443B
        default: .felica
        }
    }

    private func firstTarget(_ rate: NfcpyUDPFrame.NfcpyBitRate) async -> TargetInfo? {
        (try? await driver.targets(matching: mask(rate)))?.first
    }

    private func reset(to next: Stage) async {
        if let connection { await connection.disconnect() }
        connection = nil
        target = nil
        isoDEP = ISODEPCardSide()
        runsISODEP = false
        stage = next
    }

    // MARK: Type A

    private func typeA(_ frame: [UInt8]) async -> [UInt8]? {
        if frame == [0x26] || frame == [0x52] {
            if case .halted = stage, frame == [0x26] { return nil }  // a halted card answers ALL_REQ only
            if case .active = stage { return nil }  // an ACTIVE card ignores REQA and WUPA (ISO/IEC 14443-3 §6.3)
            await reset(to: .idle)
            guard let found = try? await driver.targets(matching: .iso14443A).first, case .iso14443A(let a) = found.parameters else {
                return nil
            }
            target = found
            if a.isType1Platform {
                // A Type 1 tag has no anticollision: its SENS_RES says so (low five bits zero) and
                // the reader goes on with RID, which the tag answers with HR0 HR1 UID0–3 (NFC
                // Forum Digital 2.0 §8.6; nfcpy's frontend sends RID `78 0000 00000000` next).
                guard let opened = try? await driver.connect(to: found, meter: meter) else { return nil }
                connection = opened
                stage = .active
            } else {
                stage = .anticollision(levels: Self.cascadeLevels(found.identifier))
            }
            return [UInt8(a.atqa & 0xFF), UInt8(a.atqa >> 8)]
        }
        if frame == [0x50, 0x00] {
            await reset(to: .halted)
            return nil
        }
        switch stage {
        case .anticollision(let levels):
            return await anticollision(frame, levels)
        case .active where connection != nil:
            return await activeA(frame)
        default:
            return nil
        }
    }

    /// The UID's cascade levels, 4 bytes and BCC each (ISO/IEC 14443-3 §6.5.4): `88` before a
    /// level that is not the last.
    static func cascadeLevels(_ uid: [UInt8]) -> [[UInt8]] {
        let parts: [[UInt8]] =
            switch uid.count {
            case 7: [[0x88] + uid[0..<3], Array(uid[3..<7])]
            case 10: [[0x88] + uid[0..<3], [0x88] + uid[3..<6], Array(uid[6..<10])]
            default: [Array(uid.prefix(4))]
            }
        return parts.map { $0 + [$0.reduce(0, ^)] }
    }

    private func anticollision(_ frame: [UInt8], _ levels: [[UInt8]]) async -> [UInt8]? {
        guard frame.count >= 2, let level = [0x93, 0x95, 0x97].firstIndex(of: frame[0]), level < levels.count else { return nil }
        if frame[1] == 0x20, frame.count == 2 { return levels[level] }
        guard frame[1] == 0x70, Array(frame.dropFirst(2)) == levels[level], let target,
            case .iso14443A(let a) = target.parameters
        else { return nil }
        guard level == levels.count - 1 else { return [0x04] }
        guard let opened = try? await driver.connect(to: target, meter: meter) else { return nil }
        connection = opened
        stage = .active
        return [a.sak & 0xFB]
    }

    private func activeA(_ frame: [UInt8]) async -> [UInt8]? {
        guard let connection, let target else { return nil }
        if target.speaksISODEP {
            guard case .iso14443A(let a) = target.parameters else { return nil }
            if !runsISODEP {
                guard frame.first == 0xE0 else { return nil }
                runsISODEP = true
            }
            return await isoDEPBlock(frame, ats: a.ats?.bytes, connection)
        }
        return try? await connection.transceive(frame, timeout: .milliseconds(100))
    }

    private func isoDEPBlock(_ frame: [UInt8], ats: [UInt8]?, _ connection: any TagConnection) async -> [UInt8]? {
        switch isoDEP.receive(frame, ats: ats) {
        case .mute: return nil
        case .answer(let bytes): return bytes
        case .apdu(let apdu):
            guard let response = try? await connection.transceive(apdu, timeout: .milliseconds(500)) else { return nil }
            return isoDEP.answered(response)
        }
    }

    // MARK: Type B

    private func typeB(_ frame: [UInt8]) async -> [UInt8]? {
        if case .request(let wakeUp)? = TypeBCardSide.command(frame, pupi: []) {
            if case .halted = stage, !wakeUp { return nil }  // REQB: a halted card stays silent
            if case .active = stage { return nil }  // an ACTIVE card ignores REQB and WUPB (ISO/IEC 14443-3 §7.4)
            await reset(to: .idle)
            guard let found = try? await driver.targets(matching: .iso14443B).first, case .iso14443B(let b) = found.parameters else {
                return nil
            }
            target = found
            stage = .readyB
            return TypeBCardSide.atqb(found, b)
        }
        guard let target, case .iso14443B(let b) = target.parameters else { return nil }
        switch (TypeBCardSide.command(frame, pupi: target.identifier), stage) {
        case (.halt?, _):
            await reset(to: .halted)
            return [0x00]
        case (.attrib(let cid, let frameSizeCode)?, .readyB):
            guard let opened = try? await driver.connect(to: target, meter: meter) else { return nil }
            connection = opened
            isoDEP = ISODEPCardSide(frameSizeCode: frameSizeCode)
            stage = .active
            return TypeBCardSide.attribAnswer(cid: cid, b)
        case (nil, .active):
            guard let connection else { return nil }
            return await isoDEPBlock(frame, ats: nil, connection)
        default:
            return nil
        }
    }

    // MARK: FeliCa

    private func felica(_ frame: [UInt8]) async -> [UInt8]? {
        guard let length = frame.first, Int(length) == frame.count, frame.count >= 2 else { return nil }
        let command = Array(frame.dropFirst())
        if command[0] == 0x00, connection == nil || !isActiveFeliCa {
            await reset(to: .idle)
            guard let found = try? await driver.targets(matching: .felica).first,
                let opened = try? await driver.connect(to: found, meter: meter)
            else { return nil }
            target = found
            connection = opened
            stage = .active
        }
        guard let connection, isActiveFeliCa, let answer = try? await connection.transceive(command, timeout: .milliseconds(100)) else {
            return nil
        }
        return [UInt8(truncatingIfNeeded: answer.count + 1)] + answer
    }

    private var isActiveFeliCa: Bool {
        guard case .active = stage, case .felica? = target?.parameters else { return false }
        return true
    }
}
