import Foundation

/// The checks Core NFC makes on FeliCa command parameters before anything is sent.
///
/// - A list with a count outside its range: `.readerErrorParameterOutOfBound`.
/// - An element of the wrong size (codes of 2 bytes, block list elements of 2 or 3, block data of
///   16): `.readerErrorInvalidParameterLength`.
/// - An element of the right size but the wrong shape (a block list element whose length bit
///   disagrees with its size, lists that must match and do not, a wildcard system code):
///   `.readerErrorInvalidParameter`.
enum FeliCaParameters {
    /// Service Code List: 1–16 codes (Number of Service, FeliCa Card User's Manual §4.4.5).
    static let serviceCodes = 1...16
    /// Node Code List of Request Service (v2): 1–32 codes (§4.4.3).
    static let nodeCodes = 1...32

    /// A list of 2-byte codes (service or node codes, little endian), flattened.
    static func codes(_ list: [Data], range: ClosedRange<Int>, name: String) throws(NFCReaderError) -> [UInt8] {
        guard range.contains(list.count) else {
            throw NFCReaderError(
                .readerErrorParameterOutOfBound, reason: "\(list.count) \(name)s, expected \(range.lowerBound)–\(range.upperBound)")
        }
        var bytes: [UInt8] = []
        for (index, code) in list.enumerated() {
            guard code.count == 2 else {
                throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "\(name) \(index) has \(code.count) bytes, expected 2")
            }
            bytes += code
        }
        return bytes
    }

    /// A block list: 1–255 elements of 2 bytes (D0 bit 7 set, 1-byte block number) or 3 bytes
    /// (D0 bit 7 clear, 2-byte block number little endian) (FeliCa Card User's Manual §4.3.2).
    static func blockList(_ list: [Data]) throws(NFCReaderError) -> [UInt8] {
        guard (1...255).contains(list.count) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, reason: "\(list.count) block list elements, expected 1–255")
        }
        var bytes: [UInt8] = []
        for (index, element) in list.enumerated() {
            guard element.count == 2 || element.count == 3, let d0 = element.first else {
                throw NFCReaderError(
                    .readerErrorInvalidParameterLength, reason: "block list element \(index) has \(element.count) bytes, expected 2 or 3")
            }
            let twoByte = d0 & 0x80 != 0
            guard twoByte == (element.count == 2) else {
                throw NFCReaderError(
                    .readerErrorInvalidParameter,
                    reason: "block list element \(index): its length bit says \(twoByte ? 2 : 3) bytes, it has \(element.count)")
            }
            bytes += element
        }
        return bytes
    }

    /// Block data: one 16-byte block per block list element.
    static func blockData(_ data: [Data], elements: Int) throws(NFCReaderError) -> [UInt8] {
        guard data.count == elements else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "\(data.count) blocks of data for \(elements) block list elements")
        }
        var bytes: [UInt8] = []
        for (index, block) in data.enumerated() {
            guard block.count == 16 else {
                throw NFCReaderError(
                    .readerErrorInvalidParameterLength, reason: "block data \(index) has \(block.count) bytes, expected 16")
            }
            bytes += block
        }
        return bytes
    }

    /// A system code to poll: 2 bytes, neither of them the `FF` wildcard, and one of the codes
    /// the app declares (Apple's rule: any other code is a security violation).
    static func pollingSystemCode(_ code: Data) throws(NFCReaderError) -> UInt16 {
        guard code.count == 2 else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, reason: "a system code has 2 bytes, got \(code.count)")
        }
        let bytes = [UInt8](code)
        guard bytes[0] != 0xFF, bytes[1] != 0xFF else {
            throw NFCReaderError(.readerErrorInvalidParameter, reason: "polling with a wildcard (FF) system code byte is not supported")
        }
        let value = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard let configuration = AppRules.configuration, configuration.felicaSystemCodes.contains(value) else {
            throw NFCReaderError(
                .readerErrorSecurityViolation,
                reason: String(format: "system code %04X", value) + " is not in \(NFCAppConfiguration.Keys.felicaSystemCodes)")
        }
        return value
    }
}
