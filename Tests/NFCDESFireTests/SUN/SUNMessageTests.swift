import Foundation
import NFCBytes
import NFCDESFire
import NFCTestSupport
import Testing

/// SUN verification against NXP's published examples (AN12196 "NTAG 424 DNA and NTAG 424 DNA
/// TagTamper features and hints"), all with the factory keys (sixteen zero bytes).
@Suite struct SUNMessageTests {
    static let zero = [UInt8](repeating: 0, count: 16)

    /// AN12196 §3.4.2.1 Table 2: PICCENCData `EF963FF7828658A599F3041510671E88` decrypts with
    /// KSDMMetaRead to `C7 04DE5F1EACC040 3D0000 DA5CF60941`: PICCDataTag C7 (UID and counter
    /// mirrored, a 7-byte UID), UID `04DE5F1EACC040`, SDMReadCtr 61.
    @Test func piccDataDecryptsAsTable2() throws {
        let picc = try PICCData(decrypting: hexBytes("EF963FF7828658A599F3041510671E88"), metaReadKey: Self.zero)
        #expect(picc.tag == 0xC7)
        #expect(picc.uid == hexBytes("04DE5F1EACC040"))
        #expect(picc.counter == 61)
    }

    /// AN12196 §3.4.2 Table 4: with nothing but PICC data mirrored, SDMMAC covers no bytes:
    /// `94EED9EE65337086`.
    @Test func theEncryptedPICCExampleVerifies() throws {
        let url = "https://choose.url.com/ntag424?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086"
        let result = try SUNMessage(url: url).verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(result.isValid)
        #expect(result.piccData.uid == hexBytes("04DE5F1EACC040"))
        #expect(result.piccData.counter == 61)
        #expect(result.fileData == nil)
        // One byte of the MAC changed, or another file read key: not valid.
        let altered = url.replacingOccurrences(of: "cmac=94EED9EE65337086", with: "cmac=94EED9EE65337087")
        #expect(try !SUNMessage(url: altered).verify(metaReadKey: Self.zero, fileReadKey: Self.zero).isValid)
        let otherKey = [UInt8](repeating: 0x11, count: 16)
        #expect(try !SUNMessage(url: url).verify(metaReadKey: Self.zero, fileReadKey: otherKey).isValid)
    }

    /// AN12196 Table 5: UID `04958CAA5C5E80`, SDMReadCtr 8 give SesSDMFileReadMACKey
    /// `3ED0920E5E6A0320D823D5987FEAFBB1`; SDMMAC over the ASCII `CEE9A53E3E463EF1F459635736738962&cmac=`
    /// (from the encrypted file data to the MAC) is `ECC1E7F6C6C73BF6`.
    @Test func theFileDataExampleVerifies() throws {
        let keys = try SDMSessionKeys(fileReadKey: Self.zero, uid: hexBytes("04958CAA5C5E80"), counter: 8)
        #expect(keys.mac == hexBytes("3ED0920E5E6A0320D823D5987FEAFBB1"))
        let url =
            "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
        let message = try SUNMessage(url: url)
        #expect(message.macInput == Array("CEE9A53E3E463EF1F459635736738962&cmac=".utf8))
        let result = try message.verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(result.isValid)
        #expect(result.piccData.uid == hexBytes("04958CAA5C5E80"))
        #expect(result.piccData.counter == 8)
        #expect(result.fileData?.count == 16)
    }

    /// AN12196's session-vector example: SV2 `3CC30001008004C767F2066180010000` (UID
    /// `04C767F2066180`, counter 1) under `5ACE7E50AB65D5D51FD5BF5A16B8205B` gives
    /// SesSDMFileReadMACKey `3A3E8110E05311F7A3FCF0D969BF2B48`.
    @Test func sessionKeyOfTheSV2Example() throws {
        let keys = try SDMSessionKeys(
            fileReadKey: hexBytes("5ACE7E50AB65D5D51FD5BF5A16B8205B"), uid: hexBytes("04C767F2066180"), counter: 1)
        #expect(keys.mac == hexBytes("3A3E8110E05311F7A3FCF0D969BF2B48"))
    }

    @Test func plainMirrorsAreReadMostSignificantFirst() throws {
        let message = try SUNMessage(url: "https://example.com/t?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3")
        #expect(message.plainPICCData == PICCData(uid: hexBytes("041E3C8A2D6B80"), counter: 6))
        #expect(message.macInput.isEmpty)
    }

    @Test func malformedMessagesNameTheParameter() {
        #expect(throws: DESFireError(.malformedMessage, "")) { try SUNMessage(url: "https://x/?picc_data=EF96") }
        #expect(throws: DESFireError(.malformedMessage, "")) {
            try SUNMessage(url: "https://x/?picc_data=EF963FF7828658A599F3041510671E8&cmac=94EED9EE65337086")
        }
        #expect(throws: DESFireError(.malformedMessage, "")) { try SUNMessage(url: "https://x/?cmac=94EED9EE65337086") }
        #expect(throws: DESFireError(.malformedMessage, "")) {
            try SUNMessage(url: "https://x/?picc_data=EF963FF7828658A599F3041510671E88&cmac=zz")
        }
        #expect(throws: DESFireError(.wrongKey, "")) {
            try SUNMessage(url: "https://x/?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086")
                .verify(metaReadKey: [UInt8](repeating: 0x42, count: 16), fileReadKey: Self.zero)
        }
        #expect(throws: DESFireError(.wrongKey, "")) {
            try SUNMessage(url: "https://x/?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086")
                .verify(metaReadKey: [0x00], fileReadKey: Self.zero)
        }
    }
}
