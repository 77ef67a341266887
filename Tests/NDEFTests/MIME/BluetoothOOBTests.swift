import NDEF
import NFCBytes
import Testing

/// BR/EDR OOB data as ndeflib 0.3.3 encodes it: address 01:02:03:04:05:06, complete local
/// name "Hello", Class of Device 0x40020C, hash C-192 00…0f, randomizer R-192 10…1f, and an
/// incomplete 16-bit UUID list with 0x110B (Audio Sink).
let bredrVector =
    "3c00060504030201060948656c6c6f040d0c0240110e000102030405060708090a0b0c0d0e0f110f101112131415161718191a1b1c1d1e1f03020b11"

/// LE OOB data as ndeflib 0.3.3 encodes it: random address 01:02:03:04:05:06, role
/// Peripheral/Central, appearance 0x0040 (Phone), name "LE", TK value of zeros.
let leVector = "081b06050403020101021c020319400003094c45111000000000000000000000000000000000"

@Suite("Bluetooth OOB")
struct BluetoothOOBTests {
    static let bredr = [
        bredrVector,
        "0800060504030201",  // address only
        "11000605040302010309414203ff0102" + "00",  // name "AB", manufacturer data, 1 padding byte
        "1600aabbccddeeff050201110b11" + "0505785634120000",  // 16-bit list + 32-bit list, then padding
    ]
    static let le = [
        leVector,
        "081b0a0b0c0d0e0f00021c00",  // public address, role Peripheral
        "081b0a0b0c0d0e0f00021c0302010603ab0102" + "0000",  // + flags + unknown AD type 0xAB + padding
        "081b0a0b0c0d0e0f00021c011122" + String(repeating: "11", count: 16) + "1123" + String(repeating: "22", count: 16),
    ]

    @Test("BR/EDR round trip", arguments: bredr)
    func bredrRoundTrip(_ hex: String) throws {
        let record = media(BluetoothOOB.BREDR.mimeType, bytes(hex))
        #expect(try BluetoothOOB.BREDR(record).record() == record)
    }

    @Test("LE round trip", arguments: le)
    func leRoundTrip(_ hex: String) throws {
        let record = media(BluetoothOOB.LowEnergy.mimeType, bytes(hex))
        #expect(try BluetoothOOB.LowEnergy(record).record() == record)
    }

    @Test("every proper prefix of BR/EDR data is truncated", arguments: bredr)
    func bredrPrefixes(_ hex: String) {
        let payload = bytes(hex)
        for n in 0..<payload.count {
            let code = errorCode { _ = try BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, Array(payload.prefix(n)))) }
            #expect(code == .truncated, "prefix \(n): \(String(describing: code))")
        }
    }

    @Test("an LE prefix that cuts a structure is truncated", arguments: le)
    func lePrefixes(_ hex: String) {
        let payload = bytes(hex)
        var boundaries: Set<Int> = [0]
        var offset = 0
        while offset < payload.count {
            let length = Int(payload[offset])
            if length == 0 { break }
            offset += 1 + length
            boundaries.insert(offset)
        }
        for n in 0..<payload.count {
            let code = errorCode { _ = try BluetoothOOB.LowEnergy(media(BluetoothOOB.LowEnergy.mimeType, Array(payload.prefix(n)))) }
            if boundaries.contains(n) || n > offset {
                // A complete list of structures (valid once address and role are in), or padding.
                #expect(code == nil || code == .invalidPayload, "prefix \(n)")
            } else {
                #expect(code == .truncated, "prefix \(n): \(String(describing: code))")
            }
        }
    }

    @Test func bredrFields() throws {
        let oob = try BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, bytes(bredrVector)))
        #expect(oob.address.description == "01:02:03:04:05:06")
        #expect(oob.localName == "Hello" && oob.isLocalNameComplete)
        #expect(oob.classOfDevice == 0x40020C)
        #expect(oob.simplePairingHash == Array(0..<16))
        #expect(oob.simplePairingRandomizer == Array(16..<32))
        #expect(oob.serviceClassUUIDs.map(\.description) == ["0000110b-0000-1000-8000-00805f9b34fb"])
        #expect(oob.serviceClassUUIDs.first?.uuid16 == 0x110B)
        let other = try BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, bytes(Self.bredr[3])))
        #expect(
            other.serviceClassUUIDs.map(\.description) == [
                "00001101-0000-1000-8000-00805f9b34fb", "0000110b-0000-1000-8000-00805f9b34fb", "12345678-0000-1000-8000-00805f9b34fb",
            ])
        #expect(other.padding == 2)
        let built = BluetoothOOB.BREDR(
            address: try #require(BluetoothOOB.Address(string: "01:02:03:04:05:06")),
            structures: [BluetoothOOB.DataStructure(type: .completeLocalName, data: Array("Hello".utf8))])
        #expect(try built.record().payload.hexString == "0f00060504030201060948656c6c6f")
    }

    @Test func leFields() throws {
        let oob = try BluetoothOOB.LowEnergy(media(BluetoothOOB.LowEnergy.mimeType, bytes(leVector)))
        #expect(oob.address?.description == "01:02:03:04:05:06")
        #expect(oob.addressType == .random)
        #expect(oob.role == .peripheralPreferred)
        #expect(oob.appearance == 0x0040)
        #expect(oob.localName == "LE")
        #expect(oob.securityManagerTKValue == [UInt8](repeating: 0, count: 16))
        #expect(oob.flags == nil)
        let sc = try BluetoothOOB.LowEnergy(media(BluetoothOOB.LowEnergy.mimeType, bytes(Self.le[3])))
        #expect(sc.secureConnectionsConfirmationValue == [UInt8](repeating: 0x11, count: 16))
        #expect(sc.secureConnectionsRandomValue == [UInt8](repeating: 0x22, count: 16))
        let unknown = try BluetoothOOB.LowEnergy(media(BluetoothOOB.LowEnergy.mimeType, bytes(Self.le[2])))
        #expect(unknown.structures.map(\.type.rawValue) == [0x1B, 0x1C, 0x01, 0xAB])
        #expect(unknown.flags == 0x06)
        let built = BluetoothOOB.LowEnergy(
            address: try #require(BluetoothOOB.Address(string: "0F-0E-0D-0C-0B-0A")), addressType: .public, role: .peripheral)
        #expect(try built.record().payload.hexString == Self.le[1])
    }

    @Test func addresses() {
        #expect(BluetoothOOB.Address(string: "01:02:03:04:05") == nil)
        #expect(BluetoothOOB.Address(string: "01:02:03:04:05:GG") == nil)
        #expect(BluetoothOOB.Address(string: "1:02:03:04:05:06") == nil)
        #expect(BluetoothOOB.Address(bytes: [1, 2, 3]) == nil)
        #expect(BluetoothOOB.Address(string: "aa:bb:cc:dd:ee:ff")?.description == "AA:BB:CC:DD:EE:FF")
    }

    @Test func bredrMalformed() throws {
        func decode(_ hex: String, _ options: NDEFDecodingOptions = .strict) -> NDEFError.Code? {
            errorCode { _ = try BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, bytes(hex)), options: options) }
        }
        // OOB data length smaller than the payload: invalid when strict, repaired when lenient.
        #expect(decode("08000605040302010309414203") == .invalidPayload)
        let fixed = try? BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, bytes("0800060504030201030941424a")), options: lenient)
        #expect(fixed == nil)  // the structure after the length is itself cut: still an error
        let repaired = try? BluetoothOOB.BREDR(media(BluetoothOOB.BREDR.mimeType, bytes("0800060504030201020941")), options: lenient)
        #expect(repaired?.localName == "A")
        #expect((try? repaired?.record().payload.hexString) == "0b00060504030201020941")
        // OOB data length larger than the payload.
        #expect(decode("0900060504030201") == .truncated)
        #expect(decode("0900060504030201", lenient) == nil)
        // Structure sizes and contents.
        #expect(decode("0c00060504030201030d0c02") == .invalidPayload)  // Class of Device of 2 bytes
        #expect(decode("0c00060504030201030d0c02", lenient) == nil)
        #expect(decode("0d00060504030201040e000102") == .invalidPayload)  // hash of 3 bytes
        #expect(decode("0c0006050403020103020b11") == nil)
        #expect(decode("0c000605040302010402") == .truncated)
        #expect(decode("0a000605040302010402", lenient) == .truncated)
        #expect(decode("0d0006050403020104020b11aa") == .invalidPayload)  // 16-bit list of 3 bytes
        #expect(decode("0b000605040302010209ff") == .invalidEncoding)  // name not UTF-8
        #expect(decode("0b000605040302010209ff", lenient) == nil)
        #expect(decode("0b00060504030201000001") == .invalidPayload)  // non-zero after early termination
        #expect(decode("0b00060504030201000001", lenient) == nil)
        #expect(
            errorCode { _ = try BluetoothOOB.BREDR(media("application/vnd.bluetooth.le.oob", bytes("0800060504030201"))) }
                == .unexpectedRecordType)
        let tooLong = BluetoothOOB.BREDR(
            address: try #require(BluetoothOOB.Address(bytes: [1, 2, 3, 4, 5, 6])),
            structures: [BluetoothOOB.DataStructure(type: .manufacturerSpecificData, data: [UInt8](repeating: 0, count: 255))])
        #expect(errorCode { _ = try tooLong.record() } == .fieldTooLong)
    }

    @Test func leMalformed() {
        func decode(_ hex: String, _ options: NDEFDecodingOptions = .strict) -> NDEFError.Code? {
            errorCode { _ = try BluetoothOOB.LowEnergy(media(BluetoothOOB.LowEnergy.mimeType, bytes(hex)), options: options) }
        }
        #expect(decode("081b0a0b0c0d0e0f00") == .invalidPayload)  // no role
        #expect(decode("081b0a0b0c0d0e0f00", lenient) == nil)
        #expect(decode("021c00") == .invalidPayload)  // no address
        #expect(decode("") == .invalidPayload)
        #expect(decode("081b0a0b0c0d0e0f02021c00") == .invalidPayload)  // reserved address type
        #expect(decode("081b0a0b0c0d0e0f00021c04") == .invalidPayload)  // reserved role
        #expect(decode("081b0a0b0c0d0e0f00021c04", lenient) == nil)
        #expect(decode("071b0a0b0c0d0e0f021c00") == .invalidPayload)  // 6-byte address
        #expect(decode("081b0a0b0c0d0e0f00021c000219ff") == .invalidPayload)  // appearance of 1 byte
        #expect(decode("081b0a0b0c0d0e0f00021c00051000") == .truncated)
    }
}
