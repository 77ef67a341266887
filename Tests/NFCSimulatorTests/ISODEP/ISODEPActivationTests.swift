import NFCSimulator
import NFCTransport
import Testing

/// ISO/IEC 14443-3 §6.4–6.5 and 14443-4 §5: cascade levels, BCC, activation frames and time.
@Suite("ISODEP Type A activation")
struct ISODEPActivationTests {
    @Test("cascade levels and ATQA UID size bits follow the UID length")
    func cascadeLevels() {
        #expect(ISO14443AActivation.cascadeLevels(uidLength: 4) == 1)
        #expect(ISO14443AActivation.cascadeLevels(uidLength: 7) == 2)
        #expect(ISO14443AActivation.cascadeLevels(uidLength: 10) == 3)
        #expect(ISO14443AActivation.uidSizeBits(uidLength: 4) == 0x00)
        #expect(ISO14443AActivation.uidSizeBits(uidLength: 7) == 0x40)
        #expect(ISO14443AActivation.uidSizeBits(uidLength: 10) == 0x80)
    }

    @Test("a 7-byte UID is sent as CT + 3 bytes + BCC, then 4 bytes + BCC")
    func cascadeParts() {
        // The NTAG 424 DNA trace from NXP's forum: UID 04 6F 0F 2A AA 61 80.
        let parts = ISO14443AActivation.cascadeParts(uid: [0x04, 0x6F, 0x0F, 0x2A, 0xAA, 0x61, 0x80])
        #expect(parts == [[0x88, 0x04, 0x6F, 0x0F, 0xEC], [0x2A, 0xAA, 0x61, 0x80, 0x61]])
    }

    @Test("wake-up and two cascade SELECTs take ≈ 2.9 ms (AIRTIME.md)")
    func anticollisionTime() {
        let frames = ISO14443AActivation.frames(uidLength: 7, atsLength: 6, pps: false)
        #expect(frames.count == 4)
        let selectOnly = Array(frames.prefix(3))
        let time = AirTimeModel.duration(of: selectOnly, technology: .iso14443A, bitRate: .kbps106)
        #expect(time > .microseconds(2_850) && time < .microseconds(2_980))
        #expect(frames[3] == AirFrame(reader: .bytes(2), tag: .bytes(6)))
    }

    @Test("PPS adds one exchange of 3 bytes answered by 1; SFGT is charged with RATS")
    func ppsAndGuardTime() {
        let sfgt = ISO14443AActivation.startUpGuardTime(sfgi: 1)
        let frames = ISO14443AActivation.frames(uidLength: 4, atsLength: 6, pps: true, startUpGuardTime: sfgt)
        #expect(frames.count == 4)
        #expect(frames[2].processing == sfgt)
        #expect(frames[3] == AirFrame(reader: .bytes(3), tag: .bytes(1)))
        // SFGT(1) = 256·16/fc·2 ≈ 604 µs.
        #expect(sfgt > .microseconds(603) && sfgt < .microseconds(605))
        #expect(ISO14443AActivation.startUpGuardTime(sfgi: 0) == .zero)
    }
}
