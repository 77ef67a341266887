import NFCBytes
import NFCDESFire
import Testing

/// SUN messages of NTAG 424 DNA tags in LRP mode (NT4H2421Gx §9.3.4.2, §9.3.6.2, §9.3.8.2,
/// §9.3.9.2): the published examples of nfc-developer/sdm-backend's tests (`test_lrp_sdm.py`,
/// `test_libsdm.py`), read from LRP-mode tags whose SDM keys are all zero, byte for byte.
@Suite struct SUNLRPTests {
    static let zero = [UInt8](repeating: 0, count: 16)
    static func bytes(_ text: String) -> [UInt8] { (try? [UInt8](hex: text)) ?? [] }

    @Test("a URL with 48 hex digits of picc_data, enc and cmac: UID 049B112A2F7080, counter 4, file data \"NTXXb7dz3PsYYBlU\"")
    func urlWithFileData() throws {
        let message = try SUNMessage(
            url: "https://example.org/?picc_data=07D9CA2545881D4BFDD920BE1603268C0714420DD893A497"
                + "&enc=D6E921C47DB4C17C56F979F81559BB83&cmac=F9481AC7D855BDB6")
        #expect(message.cipher == .lrp, "24 bytes of PICC data: PICCRand first")
        let result = try message.verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(result.isValid)
        #expect(result.piccData.tag == 0xC7 && result.piccData.uid == Self.bytes("049B112A2F7080") && result.piccData.counter == 4)
        #expect(result.fileData == Array("NTXXb7dz3PsYYBlU".utf8))
        var changed = message
        changed.mac[0] ^= 0x01
        #expect(try !changed.verify(metaReadKey: Self.zero, fileReadKey: Self.zero).isValid)
        #expect(try !message.verify(metaReadKey: Self.zero, fileReadKey: [UInt8](repeating: 1, count: 16)).isValid, "another file read key")
    }

    @Test("a URL with picc_data and cmac only (empty MAC input): UID 04940E2A2F7080, counter 3")
    func urlWithoutFileData() throws {
        let message = try SUNMessage(url: "picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9")
        let result = try message.verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(result.isValid && result.piccData.uid == Self.bytes("04940E2A2F7080") && result.piccData.counter == 3)
        let wrongMeta = #expect(throws: DESFireError.self) {
            try message.verify(metaReadKey: [UInt8](repeating: 2, count: 16), fileReadKey: Self.zero)
        }
        #expect(wrongMeta?.code == .wrongKey, "a wrong meta read key decrypts to a PICCDataTag no tag writes")
        // The same UID and counter mirrored in the clear: the session keys depend on them alone
        // and the MAC input is empty, so the same SDMMAC holds, in LRP mode only.
        var plain = try SUNMessage(url: "uid=04940E2A2F7080&ctr=000003&cmac=4231608BA7B02BA9")
        #expect(plain.cipher == .aes, "clear mirrors do not show the mode")
        #expect(try !plain.verify(metaReadKey: Self.zero, fileReadKey: Self.zero).isValid)
        plain.cipher = .lrp
        #expect(try plain.verify(metaReadKey: Self.zero, fileReadKey: Self.zero).isValid)
    }

    @Test("custom layouts (MAC input given): the SDMMAC over the ASCII before it, and SDMENCFileData under updated key 1")
    func customLayouts() throws {
        let first = SUNMessage(
            encryptedPICCData: Self.bytes("AAE1508939ECF6FF26BCE407959AB1A5EC022819A35CD293"), plainPICCData: nil, encryptedFileData: nil,
            mac: Self.bytes("5E3DB82C19E3865F"), macInput: Array("AAE1508939ECF6FF26BCE407959AB1A5EC022819A35CD293x".utf8))
        let result = try first.verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(result.isValid && result.piccData.uid == Self.bytes("042E1D222A6380") && result.piccData.counter == 0x6A)

        let dynamic = "65628ED36888CF9C84797E43ECACF114C6ED9A5E101EB592x4ADE304B5AB9474CB40AFFCAB0607A85x"
        let second = SUNMessage(
            encryptedPICCData: Self.bytes("65628ED36888CF9C84797E43ECACF114C6ED9A5E101EB592"), plainPICCData: nil,
            encryptedFileData: Self.bytes("4ADE304B5AB9474CB40AFFCAB0607A85"), mac: Self.bytes("87E287E8135BFC06"),
            macInput: Array(("any.domain/?m=" + dynamic).utf8))
        let verified = try second.verify(metaReadKey: Self.zero, fileReadKey: Self.zero)
        #expect(verified.isValid && verified.piccData.counter == 0x7B)
        #expect(verified.fileData == Array("0102030400000000".utf8))
    }

    @Test("the SV vector's session master key, and PICC data of the other cipher's length refused")
    func sessionKeyAndRefusals() throws {
        // SV = 00 01 00 80 ‖ UID ‖ SDMReadCtr ‖ 1E E1, one block (§9.3.9.2); the master key the example gives.
        let session = try SDMSessionKeys.lrp(fileReadKey: Self.zero, uid: Self.bytes("042E1D222A6380"), counter: 0x6A)
        let master = try LeakageResilientPrimitive(key: Self.zero).cmac(Self.bytes("00010080042E1D222A63806A00001EE1"))
        #expect(master == Self.bytes("99C2FD9C885C2CA3C9089C20057310C0"))
        #expect(session == (try LeakageResilientPrimitive(key: master)))
        var message = try SUNMessage(url: "picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9")
        message.cipher = .aes
        let refused = #expect(throws: DESFireError.self) { try message.verify(metaReadKey: Self.zero, fileReadKey: Self.zero) }
        #expect(refused?.code == .malformedMessage)
        #expect(throws: DESFireError.self) { try SUNMessage(url: "picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A5&cmac=4231608BA7B02BA9") }
    }
}
