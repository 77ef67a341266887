import NDEF
import NFCBytes
import Testing

typealias WSC = WiFiSimpleConfiguration

/// A password token: Version 1.0, a WPA2-Personal/AES credential for "HomeNet" with key
/// "secret123" and a broadcast MAC address, and the WFA vendor extension with Version2 2.0.
/// Checked against ndeflib 0.3.3's decoder.
let wscToken =
    "104a000110100e0033102600010110450007486f6d654e6574100300020020100f000200081027000973656372657431323310200006ffffffffffff1049000600372a000120"

let wscVectors: [String] = [
    wscToken,
    // Version only.
    "104a000110",
    // An unknown attribute (Device Name 0x1011) between known ones, and an empty SSID.
    "104a0001101011000448616c6c100e000910450000102600010210490009" + "00372a000120020101",
    // A credential carrying Network Key Shareable in its own WFA extension.
    "100e002410450002414210030002000110270000102000060102030405061049000600372a020101",
]

@Suite("Wi-Fi Simple Configuration")
struct WiFiSimpleConfigurationTests {
    @Test("round trip", arguments: wscVectors)
    func roundTrip(_ hex: String) throws {
        let record = media(WSC.mimeType, bytes(hex))
        let wsc = try WSC(record)
        #expect(try wsc.record() == record)
    }

    @Test("a prefix that cuts an attribute is truncated", arguments: wscVectors)
    func prefixes(_ hex: String) throws {
        let payload = bytes(hex)
        // Attribute boundaries: prefixes ending there are complete attribute lists.
        var boundaries: Set<Int> = []
        var offset = 0
        while offset + 4 <= payload.count {
            offset += 4 + (Int(payload[offset + 2]) << 8 | Int(payload[offset + 3]))
            boundaries.insert(offset)
        }
        for n in 0..<payload.count {
            let code = errorCode { _ = try WSC(media(WSC.mimeType, Array(payload.prefix(n)))) }
            if boundaries.contains(n) {
                #expect(code == nil, "prefix \(n)")
            } else {
                #expect(code == .truncated, "prefix \(n): \(String(describing: code))")
            }
        }
    }

    @Test func tokenFields() throws {
        let wsc = try WSC(media(WSC.mimeType, bytes(wscToken)))
        #expect(wsc.version == 0x10)
        #expect(wsc.version2 == 0x20)
        #expect(wsc.attributes.map(\.type) == [.version, .credential, .vendorExtension])
        let credential = try #require(wsc.credentials.first)
        #expect(credential.networkIndex == 1)
        #expect(credential.ssid == Array("HomeNet".utf8))
        #expect(credential.authenticationType == .wpa2Personal)
        #expect(credential.encryptionType == .aes)
        #expect(credential.networkKey == Array("secret123".utf8))
        #expect(credential.macAddress == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(credential.networkKeyShareable == nil)
    }

    @Test func buildToken() throws {
        let credential = try WSC.Credential(
            ssid: Array("HomeNet".utf8), authenticationType: .wpa2Personal, encryptionType: .aes,
            networkKey: Array("secret123".utf8))
        let wsc = try WSC(credentials: [credential])
        #expect(try wsc.record().payload.hexString == wscToken)
        let shareable = try WSC.Credential(
            ssid: [], authenticationType: .open, encryptionType: .none, networkKey: [], networkKeyShareable: true)
        #expect(shareable.networkKeyShareable == true)
        #expect(
            errorCode {
                _ = try WSC.Credential(ssid: [], authenticationType: .open, encryptionType: .none, networkKey: [], macAddress: [1])
            } == .invalidValue)
    }

    @Test func unknownAttributesKeptInOrder() throws {
        let wsc = try WSC(media(WSC.mimeType, bytes(wscVectors[2])))
        #expect(wsc.attributes.map(\.type.rawValue) == [0x104A, 0x1011, 0x100E, 0x1049])
        #expect(wsc.attributes[1].value == Array("Hall".utf8))
        #expect(wsc.credentials.first?.networkIndex == 2)
        #expect(wsc.wfaVendorExtension?.networkKeyShareable == true)
    }

    @Test func malformed() {
        func decode(_ hex: String, _ options: NDEFDecodingOptions = .strict) -> NDEFError.Code? {
            errorCode { _ = try WSC(media(WSC.mimeType, bytes(hex)), options: options) }
        }
        #expect(decode("") == .truncated)
        #expect(decode("104a0002") == .truncated)  // value shorter than its length field
        #expect(decode("104a00021020") == .invalidPayload)  // Version of 2 bytes
        #expect(decode("104a00021020", lenient) == nil)
        #expect(decode("0001000100") == .invalidPayload)  // reserved type < 0x1000
        #expect(decode("0001000100", lenient) == nil)
        #expect(decode("100e0005104500") == .truncated)  // credential value runs short
        #expect(decode("100e00061045000541") == .truncated)  // SSID inside credential longer than the credential
        // SSID of 33 bytes.
        let longSSID = "100e0025" + "10450021" + String(repeating: "41", count: 33)
        #expect(decode(longSSID) == .invalidPayload)
        #expect(decode(longSSID, lenient) == nil)
        #expect(decode("100e0005100300010a") == .invalidPayload)  // Authentication Type of 1 byte
        #expect(decode("100e000610200002aabb") == .invalidPayload)  // MAC address of 2 bytes
        #expect(decode("1049000700372a00022000") == .invalidPayload)  // Version2 of 2 bytes
        #expect(decode("1049000600372a000220") == .truncated)  // WFA subelement runs short
        #expect(decode("104900020037") == .invalidPayload)  // vendor extension without a vendor id
        #expect(errorCode { _ = try WSC(NDEFRecord(typeNameFormat: .media, type: "text/plain", payload: [1])) } == .unexpectedRecordType)
        #expect(errorCode { _ = try WSC(attributes: []).record() } == .invalidValue)
        let huge = WSC(attributes: [WSC.Attribute(type: .ssid, value: [UInt8](repeating: 0, count: 70_000))])
        #expect(errorCode { _ = try huge.record() } == .fieldTooLong)
    }
}
