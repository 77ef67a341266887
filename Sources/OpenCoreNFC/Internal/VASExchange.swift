import Foundation
import NFCBytes
import NFCTransport

/// The terminal's half of Apple's VAS protocol (docs/vas-protocol.md §4–§6): SELECT
/// `OSE.VAS.01`, then one GET VAS DATA per configuration.
enum VASExchange {
    /// `OSE.VAS.01`.
    static let applicationIdentifier: [UInt8] = Array("OSE.VAS.01".utf8)
    /// VAS 1.0 (`9F21`, `9F22`).
    static let version: [UInt8] = [0x01, 0x00]
    /// Core NFC's limit on a configuration's URL, scheme included (`NFCVASReaderSession.h`).
    static let maximumURLLength = 64

    /// Reads the configurations' passes from a phone; nil when the device is not Apple's VAS
    /// application (SELECT refused, no `ApplePay` label, another version) or stops answering.
    static func read(_ configurations: [NFCVASCommandConfiguration], over connection: any TagConnection) async -> [NFCVASResponse]? {
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, UInt8(applicationIdentifier.count)] + applicationIdentifier + [0x00]
        guard let answer = try? await connection.transceive(select, timeout: .seconds(1)), answer.count >= 2,
            answer.suffix(2) == [0x90, 0x00],
            let fci = fields(Array(answer.dropLast(2)))?[0x6F].flatMap({ fields($0) }),
            fci[0x50] == Array("ApplePay".utf8), fci[0x9F21] == version
        else { return nil }
        var responses: [NFCVASResponse] = []
        for (index, configuration) in configurations.enumerated() {
            let command = getVASData(configuration, last: index == configurations.count - 1)
            guard let answer = try? await connection.transceive(command, timeout: .seconds(1)), answer.count >= 2 else { return nil }
            let status = Int(answer[answer.count - 2]) << 8 | Int(answer[answer.count - 1])
            // A status word outside Apple's list has no ErrorCode; Core NFC's behaviour for it is
            // not documented, so the response is reported as malformed data.
            let code = NFCVASResponse.ErrorCode(rawValue: status) ?? .incorrectData
            let template = fields(Array(answer.dropLast(2)))?[0x70].flatMap { fields($0) } ?? [:]
            responses.append(
                NFCVASResponse(status: code, vasData: Data(template[0x9F27] ?? []), mobileToken: Data(template[0x9F2A] ?? [])))
        }
        return responses
    }

    /// GET VAS DATA `80 CA 01 P2` with version, merchant id (SHA-256 of the pass type
    /// identifier), terminal capabilities (VAS supported; mode VAS only, as Core NFC's session
    /// advertises itself; bit 7 while more requests follow) and the URL when there is one.
    static func getVASData(_ configuration: NFCVASCommandConfiguration, last: Bool) -> [UInt8] {
        var data = tlv(0x9F22, version)
        data += tlv(0x9F25, SHA256Digest.hash(Array(configuration.passTypeIdentifier.utf8)))
        data += tlv(0x9F26, [0x00, 0x80, 0x00, last ? 0x02 : 0x82])
        if let url = configuration.url { data += tlv(0x9F29, Array(url.absoluteString.utf8)) }
        return [0x80, 0xCA, 0x01, UInt8(configuration.mode.rawValue), UInt8(data.count)] + data + [0x00]
    }

    /// One BER-TLV with a one- or two-byte tag (ISO/IEC 7816-4 §5.2).
    static func tlv(_ tag: UInt16, _ value: [UInt8]) -> [UInt8] {
        let tagBytes: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        let length: [UInt8] = value.count < 0x80 ? [UInt8(value.count)] : [0x81, UInt8(value.count)]
        return tagBytes + length + value
    }

    /// The top-level fields of a BER-TLV list by tag; nil when malformed.
    static func fields(_ bytes: [UInt8]) -> [UInt16: [UInt8]]? {
        var result: [UInt16: [UInt8]] = [:]
        var index = 0
        while index < bytes.count {
            var tag = UInt16(bytes[index])
            index += 1
            if tag & 0x1F == 0x1F {
                guard index < bytes.count else { return nil }
                tag = tag << 8 | UInt16(bytes[index])
                index += 1
            }
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard (1...2).contains(count), count <= bytes.count - index else { return nil }
                length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            guard length <= bytes.count - index else { return nil }
            result[tag] = Array(bytes[index..<(index + length)])
            index += length
        }
        return result
    }
}
