import NFCBytes
import NFCSimulator
import NFCTestSupport
import NFCTransport
import Testing

/// Sends hex to the card, returns its answer as upper-case hex.
private func send(_ card: inout DESFireCard, _ command: String) -> String {
    DESFireCardSecureMessagingTests.send(&card, command)
}

/// The virtual DESFire's PICC, applications, files and transactions in plain communication,
/// through native and wrapped frames (MIFARE DESFire EV1 short data sheet §8–§9).
@Suite struct DESFireCardTests {

    /// A blank card with application `010203` (key settings `0F`: free listing and file creation,
    /// one key) selected.
    static func withApplication(model: DESFireModel = .ev3) -> DESFireCard {
        var card = DESFireCard(model: model)
        card.powerOn()
        #expect(send(&card, "90CA0000050302010F8100") == "9100")
        #expect(send(&card, "905A00000303020100") == "9100")
        return card
    }

    /// GetVersion's three frames per model, wrapped and native; the factory state lists nothing.
    @Test func versionAndFactoryState() {
        var card = DESFireCard(model: .ev1, uid: hexBytes("04112233445566"))
        card.powerOn()
        #expect(send(&card, "9060000000") == "04010101001A0591AF")
        #expect(send(&card, "90AF000000") == "04010101041A0591AF")
        #expect(send(&card, "90AF000000") == "04112233445566BA4497D67028249100")
        #expect(send(&card, "60") == "AF04010101001A05", "a native frame: status first")
        var ev3 = DESFireCard(model: .ev3)
        ev3.powerOn()
        #expect(send(&ev3, "9060000000") == "04010133001A0591AF")
        #expect(send(&ev3, "906A000000") == "9100", "no applications")
        #expect(send(&ev3, "906E000000") == "001F009100", "7,936 bytes free (1F00), a blank 8 KB card's")
        #expect(send(&ev3, "9045000000") == "0F019100", "PICC key settings 0F, one DES key")
        #expect(send(&ev3, "90AF000000") == "911C", "nothing to continue")
        #expect(send(&ev3, "9042000000") == "911C", "an unknown command")
    }

    /// CreateApplication's checks: a duplicate AID, a key type `11`, no keys, the PICC level only.
    @Test func applicationCreationIsChecked() {
        var card = Self.withApplication()
        #expect(send(&card, "90CA0000050302010F8100") == "919D", "application level: refused")
        #expect(send(&card, "905A00000300000000") == "9100")
        #expect(send(&card, "90CA0000050302010F8100") == "91DE", "duplicate")
        #expect(send(&card, "90CA0000050402010FC100") == "919E", "crypto method 11")
        #expect(send(&card, "90CA0000050402010F8000") == "919E", "no keys")
        #expect(send(&card, "90CA0000050402010F0100") == "9100", "DES keys")
        #expect(send(&card, "906A000000") == "0302010402019100")
        #expect(send(&card, "905A00000399999900") == "91A0", "not found")
    }

    /// Standard files write at once; backup files wait for CommitTransaction, AbortTransaction
    /// drops the change, and so does selecting again.
    @Test func standardAndBackupFiles() {
        var card = Self.withApplication()
        #expect(send(&card, "90CD0000070100EEEE10000000") == "9100")
        #expect(send(&card, "90CB0000070200EEEE10000000") == "9100")
        #expect(send(&card, "906F000000") == "01029100")
        #expect(send(&card, "90F50000010100") == "0000EEEE1000009100")
        #expect(send(&card, "903D00000A01020000030000AABBCC00") == "9100")
        #expect(send(&card, "90BD0000070100000000000000") == "0000AABBCC" + String(repeating: "00", count: 11) + "9100")
        #expect(send(&card, "903D00000A020000000300001122" + "3300") == "9100")
        #expect(send(&card, "90BD0000070200000003000000") == "0000009100", "uncommitted")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "90BD0000070200000003000000") == "1122339100", "committed")
        #expect(send(&card, "903D00000A020000000300004455" + "6600") == "9100")
        #expect(send(&card, "90A7000000") == "9100")
        #expect(send(&card, "90BD0000070200000003000000") == "1122339100", "aborted")
        #expect(send(&card, "903D00000A020000000300004455" + "6600") == "9100")
        #expect(send(&card, "905A00000303020100") == "9100")
        #expect(send(&card, "90C7000000") == "910C", "nothing left to commit")
        #expect(send(&card, "90BD0000070200000003000000") == "1122339100", "selecting aborted the transaction")
        #expect(send(&card, "90BD0000070100100000010000") == "91BE", "past the end")
        #expect(send(&card, "90BD0000070900000000000000") == "91F0", "no such file")
    }

    /// A long answer continues behind `91 AF` in frames of 59 bytes.
    @Test func longReadsContinueInFrames() {
        var card = Self.withApplication()
        #expect(send(&card, "90CD0000070100EEEE80000000") == "9100")
        let first = send(&card, "90BD0000070100000000000000")
        #expect(first.count == 59 * 2 + 4 && first.hasSuffix("91AF"))
        #expect(send(&card, "90AF000000").hasSuffix("91AF"))
        #expect(send(&card, "90AF000000") == String(repeating: "00", count: 10) + "9100")
    }

    /// Value files: Credit and Debit apply at commit within the limits; LimitedCredit may give back
    /// what the last transaction debited, once.
    @Test func valueFiles() {
        var card = Self.withApplication()
        // Lower 0, upper 1000, value 100, limited credit on.
        #expect(send(&card, "90CC0000110300EEEE00000000E8030000640000000100") == "9100")
        #expect(send(&card, "906C0000010300") == "640000009100")
        #expect(send(&card, "900C0000050332000000" + "00") == "9100")
        #expect(send(&card, "906C0000010300") == "640000009100", "uncommitted")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "906C0000010300") == "960000009100", "150")
        #expect(send(&card, "90DC0000050397000000" + "00") == "91BE", "below the lower limit")
        #expect(send(&card, "90DC000005031E000000" + "00") == "9100")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "90F50000010300") == "0200EEEE00000000E80300001E000000019100", "limited credit value 30")
        #expect(send(&card, "901C000005031F000000" + "00") == "91BE", "more than was debited")
        #expect(send(&card, "901C000005031E000000" + "00") == "9100")
        #expect(send(&card, "901C0000050301000000" + "00") == "919D", "once per transaction")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "906C0000010300") == "960000009100")
        #expect(send(&card, "900C00000503FFFFFFFF" + "00") == "919E", "a negative amount")
    }

    /// Record files: WriteRecord fills one new record per transaction; a full linear file refuses,
    /// a full cyclic file drops its oldest; ReadRecords counts back from the newest and answers
    /// oldest first; ClearRecordFile empties at commit.
    @Test func recordFiles() {
        var card = Self.withApplication()
        #expect(send(&card, "90C100000A0400EEEE04000002000000") == "9100", "linear: 2 records of 4 bytes")
        #expect(send(&card, "90C000000A0500EEEE04000003000000") == "9100", "cyclic: 3 (2 usable)")
        #expect(send(&card, "90BB0000070400000000000000") == "91BE", "no records yet")
        for (index, byte) in ["11", "22", "33"].enumerated() {
            #expect(send(&card, "903B00000804000000010000" + byte + "00") == (index < 2 ? "9100" : "91BE"))
            #expect(send(&card, "903B00000805000000010000" + byte + "00") == "9100")
            #expect(send(&card, "903B00000805010000010000" + byte + "00") == "9100", "the same record")
            #expect(send(&card, "90C7000000") == "9100")
        }
        #expect(send(&card, "90BB0000070400000000000000") == "11000000220000009100")
        #expect(send(&card, "90BB0000070400000001000000") == "220000009100", "the newest")
        #expect(send(&card, "90BB0000070401000001000000") == "110000009100", "one back")
        #expect(send(&card, "90BB0000070500000000000000") == "22220000333300009100", "the oldest is gone")
        #expect(send(&card, "90BB0000070502000000000000") == "91BE")
        #expect(send(&card, "90F50000010500") == "0400EEEE0400000300000200009100")
        #expect(send(&card, "90EB0000010400") == "9100")
        #expect(send(&card, "90BB0000070400000000000000") == "11000000220000009100", "uncommitted")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "90BB0000070400000000000000") == "91BE")
    }

    /// Access conditions: a key condition without a session is AUTHENTICATION_ERROR, `F` is
    /// PERMISSION_DENIED; management without the master key when the settings require it.
    @Test func accessConditions() {
        var card = DESFireCard(model: .ev2)
        card.powerOn()
        // Key settings 09: no free listing or file creation.
        #expect(send(&card, "90CA000005030201098200") == "9100")
        #expect(send(&card, "905A00000303020100") == "9100")
        #expect(send(&card, "906F000000") == "91AE")
        #expect(send(&card, "90CD0000070100EEEE10000000") == "91AE")
        card.applications[0].files = [
            DESFireDataFile(
                number: 1, kind: .standard, mode: .plain, access: .init(read: 1, write: 0x0F, readWrite: 0x0F, change: 0),
                contents: [1, 2, 3])
        ]
        #expect(send(&card, "90BD0000070100000000000000") == "91AE")
        #expect(send(&card, "903D00000801000000010000AA00") == "919D")
    }

    /// An NDEF-formatted DESFire reads as an NFC Forum Type 4 Tag: SELECT by the NDEF application's
    /// DF name, the CC file and the NDEF file by ISO identifier, ReadBinary and UpdateBinary.
    @Test func ndefApplicationThroughISOCommands() {
        var card = DESFireCard.ndefFormatted(model: .ev2)
        card.powerOn()
        #expect(send(&card, "00A4040007D276000085010100") == "9000")
        #expect(send(&card, "00A4000C02E103") == "9000")
        #expect(send(&card, "00B000000F") == "000F20003B00340406E104080000009000")
        #expect(send(&card, "00D600000F") == "6700", "no data")
        #expect(send(&card, "00D6000002AABB") == "6982", "the CC is written under key 0")
        #expect(send(&card, "00A4000C02E104") == "9000")
        #expect(send(&card, "00D600000400021234") == "9000")
        #expect(send(&card, "00B0000004") == "000212349000")
        #expect(send(&card, "00B0080001") == "6B00", "past the end")
        #expect(send(&card, "00A4000C02E105") == "6A82")
    }

    /// Applications and files survive an image round trip; a broken image names its field.
    @Test func imageRoundTripAndErrors() throws {
        var card = Self.withApplication()
        #expect(send(&card, "90CC0000110300EEEE00000000E8030000640000000100") == "9100")
        #expect(send(&card, "90C000000A0500EEEE04000003000000") == "9100")
        #expect(send(&card, "903B00000805000000010000AA00") == "9100")
        #expect(send(&card, "90C7000000") == "9100")
        let restored = try DESFireCard(image: card.image)
        #expect(restored.image == card.image)
        #expect(restored.applications == card.applications)
        var broken = card.image
        broken.applications[0].files[1].records = [HexBytes([1, 2])]
        #expect(throws: TagImageError.self) { try DESFireCard(image: broken) }
        broken = card.image
        broken.applications.append(broken.applications[0])
        do {
            _ = try DESFireCard(image: broken)
            Issue.record("a repeated AID was accepted")
        } catch {
            #expect(error.field == "applications[1].aid")
        }
        let decoded = try TagImageFile.decode(try TagImageFile.encode(card))
        #expect((decoded as? DESFireCard)?.image == card.image, "through the JSON file form")
        #expect(TagImageFile.holdsSecrets(card))
        #expect(VirtualTagKind(of: decoded) == .desfireEV3)
    }
}

/// The review's findings, pinned: a deleted record file's transaction state, NO_CHANGES, the
/// LimitedCredit allowance, ChangeKey's key-type bits, EV1's frame size and `AF` continuation, ISO
/// reads inside a session.
@Suite struct DESFireCardEdgeTests {
    /// A record file deleted mid-transaction and created again starts clean (this used to index
    /// record -1 and trap).
    @Test func recordFileDeletedAndCreatedAgain() {
        var card = DESFireCardTests.withApplication()
        #expect(send(&card, "90C100000A0500EEEE04000002000000") == "9100")
        #expect(send(&card, "903B0000080500000001000011" + "00") == "9100")
        #expect(send(&card, "90DF0000010500") == "9100")
        #expect(send(&card, "90C100000A0500EEEE04000002000000") == "9100")
        #expect(send(&card, "903B0000080500000001000022" + "00") == "9100")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "90BB0000070500000000000000") == "220000009100")
    }

    /// CommitTransaction and AbortTransaction with nothing pending answer NO_CHANGES (`0C`).
    @Test func nothingToCommitIsNoChanges() {
        var card = DESFireCardTests.withApplication()
        #expect(send(&card, "90C7000000") == "910C")
        #expect(send(&card, "90A7000000") == "910C")
    }

    /// LimitedCredit may give back the sum of the last transaction's Debits, whatever it credited.
    @Test func limitedCreditAllowanceIsTheDebits() {
        var card = DESFireCardTests.withApplication()
        #expect(send(&card, "90CC0000110300EEEE00000000E8030000640000000100") == "9100")
        #expect(send(&card, "900C0000050364000000" + "00") == "9100", "Credit 100")
        #expect(send(&card, "90DC000005031E000000" + "00") == "9100", "Debit 30")
        #expect(send(&card, "90C7000000") == "9100")
        #expect(send(&card, "90F50000010300") == "0200EEEE00000000E80300001E000000019100", "allowance 30, not the net +70")
    }

    /// ChangeKey's KeyNo carries the new key's type at the PICC level (`80`, AES) and none in an application.
    @Test func changeKeyTypeBits() {
        var card = DESFireCard(model: .ev2)
        card.powerOn()
        #expect(send(&card, "90C4000001" + "80" + "00") == "91AE", "AES type bits, then no session: refused for the key")
        #expect(send(&card, "90C4000001" + "C0" + "00") == "919E", "type bits 11 at the PICC level")
        var app = DESFireCardTests.withApplication(model: .ev2)
        #expect(send(&app, "90C4000001" + "80" + "00") == "919E", "a key type in an application")
    }

    /// EV1 takes at most 59 data bytes a frame; a longer WriteData goes on in `AF` frames.
    @Test func ev1FramesAndContinuedWrites() {
        var card = DESFireCardTests.withApplication(model: .ev1)
        #expect(send(&card, "90CD0000070100EEEE64000000") == "9100", "100 bytes")
        let data = (0..<80).map { String(format: "%02X", $0) }.joined()
        #expect(send(&card, "903D000057" + "01000000500000" + data + "00") == "917E", "87 bytes in one frame")
        let first = String(data.prefix(2 * 52))
        let rest = String(data.dropFirst(2 * 52))
        #expect(send(&card, "903D00003B" + "01000000500000" + first + "00") == "91AF")
        #expect(send(&card, "90AF00001C" + rest + "00") == "9100")
        #expect(send(&card, "90BD0000070100000050000000").hasPrefix(String(data.prefix(2 * 59))))
    }

    /// ISO READ BINARY of a free file works inside a session with a key that does not grant it.
    @Test func isoReadOfAFreeFileInsideASession() {
        var card = DESFireCard.ndefFormatted(model: .ev2)
        card.powerOn()
        card.scriptedRandom = hexBytes("B9E2FC789B64BF237CCCAA20EC7E6E48" + "9D00C4DF")
        #expect(send(&card, "00A4040007D276000085010100") == "9000")
        #expect(send(&card, "9071000002000000").hasSuffix("91AF"))
        #expect(send(&card, "90AF000020" + "35C3E05A752E0144BAC0DE51C1F22C56B34408A23D8AEA266CAB947EA8E0118D" + "00").hasSuffix("9100"))
        #expect(send(&card, "00A4000C02E103") == "9000")
        #expect(send(&card, "00B000000F").hasSuffix("9000"))
    }
}

/// An AF-continued write is only started when its header makes sense.
@Suite struct DESFireCardContinuationTests {
    @Test func writesPastTheFileAreRefusedAtOnce() {
        var card = DESFireCardTests.withApplication(model: .ev1)
        #expect(send(&card, "90CD0000070100EEEE10000000") == "9100", "16 bytes")
        #expect(send(&card, "903D00000B" + "01000000FFFFFF" + "11223344" + "00") == "91BE", "no AF frames for 16 MB")
        #expect(send(&card, "903D00000B" + "010C0000080000" + "11223344" + "00") == "91BE", "offset 12 + 8 bytes")
        #expect(send(&card, "903D000007" + "01000000000000" + "00") == "917E", "nothing to write")
    }
}
