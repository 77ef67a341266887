import NFCSimulator
import NFCTransport
import Testing

/// Any request bytes get the chip's answer (silence or an error response), never a trap.
@Suite("ISO15693 robustness")
struct ISO15693RobustnessTests {
    typealias S = ISO15693TestSupport

    /// Valid requests whose every proper prefix must be refused.
    static let requests: [(ISO15693Tag.Model, [UInt8])] = [
        (.icodeSLIX2, [0x22, 0x20] + S.slix2Wire + [0x01]),
        (.icodeSLIX2, [0x22, 0x21] + S.slix2Wire + [0x01, 1, 2, 3, 4]),
        (.icodeSLIX2, [0x22, 0x23] + S.slix2Wire + [0x00, 0x03]),
        (.icodeSLIX2, [0x22, 0xAB, 0x04] + S.slix2Wire),
        (.icodeSLIX2, [0x26, 0x01, 0x10, 0x92, 0x71]),
        (.st25dv16k, [0x22, 0x33] + S.st25Wire + [0x00, 0x01, 0x03, 0x00]),
        (.st25dv16k, [0x22, 0x34] + S.st25Wire + [0x00, 0x01, 0x01, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]),
        (.st25dv16k, [0x22, 0x3B, 0x3F] + S.st25Wire),
        (.st25dv16k, [0x22, 0xC5, 0x02] + S.st25Wire + [0x00, 0x00, 0x01, 0x00]),
    ]

    @Test("Every proper prefix of a valid request gets silence or an error response", arguments: requests)
    func prefixes(model: ISO15693Tag.Model, request: [UInt8]) {
        var full = ISO15693Tag.blank(model)
        #expect(full.exchange(request)?.first == 0x00)
        for length in 0..<request.count {
            var tag = ISO15693Tag.blank(model)
            let answer = tag.exchange(Array(request.prefix(length)))
            #expect(answer == nil || (answer?.count == 2 && answer?.first == 0x01), "prefix of \(length) bytes")
        }
    }

    @Test("Every flags byte and command code, with short parameters, on both chips", arguments: ISO15693Tag.Model.allCases)
    func everyCode(model: ISO15693Tag.Model) {
        var answered = 0
        for flags in 0...255 {
            for code in 0...255 {
                for parameters in [[], [model.icManufacturerCode], [model.icManufacturerCode, 0xFF, 0xFF]] as [[UInt8]] {
                    var tag = ISO15693Tag.formatted(model)
                    if let answer = tag.exchange([UInt8(flags), UInt8(code)] + parameters) {
                        answered += 1
                        #expect(answer.first == 0x00 || answer.count == 2)
                    }
                }
            }
        }
        #expect(answered > 0)
    }
}
