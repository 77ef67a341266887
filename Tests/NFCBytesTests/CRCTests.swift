import NFCBytes
import Testing

/// CRC check values: the CRC catalogue's "123456789" checks (CRC-16/ISO-IEC-14443-3-A = 0xBF05,
/// CRC-16/IBM-SDLC = X-25 = 0x906E) and the worked examples of ISO/IEC 14443-3 Annex B.
@Suite struct CRCTests {
    let check = Array("123456789".utf8)

    @Test func catalogueCheckValues() {
        #expect(CRC16.crcA.checksum(check) == 0xBF05)
        #expect(CRC16.crcB.checksum(check) == 0x906E)
        #expect(CRC16.iso15693.checksum(check) == 0x906E)
    }

    @Test func iso14443AnnexBExamples() {
        #expect(CRC16.crcA.bytes([0x00, 0x00]) == [0xA0, 0x1E])
        #expect(CRC16.crcA.bytes([0x12, 0x34]) == [0x26, 0xCF])
        #expect(CRC16.crcB.bytes([0x00, 0x00, 0x00]) == [0xCC, 0xC6])
        #expect(CRC16.crcB.bytes([0x0F, 0xAA, 0xFF]) == [0xFC, 0xD1])
        #expect(CRC16.crcB.bytes([0x0A, 0x12, 0x34, 0x56]) == [0x2C, 0xF6])
    }

    @Test func ntagReadCommandFrame() {
        // NTAG21x READ page 0 as sent on the air: 30 00 + CRC_A 02 A8 (NXP NTAG213/215/216 §10).
        #expect(CRC16.crcA.appending(to: [0x30, 0x00]) == [0x30, 0x00, 0x02, 0xA8])
    }

    @Test func validatesFrames() {
        let frame = CRC16.iso15693.appending(to: [0x26, 0x01, 0x00])
        #expect(CRC16.iso15693.isValid(frame: frame))
        var corrupted = frame
        corrupted[1] ^= 0x01
        #expect(!CRC16.iso15693.isValid(frame: corrupted))
        #expect(!CRC16.crcA.isValid(frame: [0x01]))
    }
}
