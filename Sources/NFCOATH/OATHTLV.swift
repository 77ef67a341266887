/// The YKOATH data objects: one-byte tag, BER length (short form, or `81 xx` / `82 xxxx`), value.
enum OATHTag {
    static let name: UInt8 = 0x71
    static let nameList: UInt8 = 0x72
    static let key: UInt8 = 0x73
    static let challenge: UInt8 = 0x74
    static let response: UInt8 = 0x75
    static let truncatedResponse: UInt8 = 0x76
    static let hotp: UInt8 = 0x77
    static let property: UInt8 = 0x78
    static let version: UInt8 = 0x79
    static let imf: UInt8 = 0x7A
    static let algorithm: UInt8 = 0x7B
    static let touch: UInt8 = 0x7C
}

/// One data object of a response, with the offset of its tag in the response data.
struct OATHTLV: Sendable, Hashable {
    var tag: UInt8
    var value: [UInt8]
    var offset: Int

    /// Encodes a data object.
    static func encode(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        switch value.count {
        case 0..<0x80: out.append(UInt8(value.count))
        case 0x80..<0x100: out += [0x81, UInt8(value.count)]
        default: out += [0x82, UInt8(truncatingIfNeeded: value.count >> 8), UInt8(truncatingIfNeeded: value.count)]
        }
        return out + value
    }

    /// Splits response data into data objects.
    /// - Throws: ``OATHError/malformedResponse(_:offset:_:)`` for a truncated header or value, or
    ///   a length form other than the three above.
    static func parse(_ bytes: [UInt8], operation: OATHOperation) throws(OATHError) -> [OATHTLV] {
        var objects: [OATHTLV] = []
        var index = 0
        while index < bytes.count {
            let start = index
            let tag = bytes[index]
            index += 1
            guard index < bytes.count else {
                throw .malformedResponse(operation, offset: start, "tag \(hex(tag)) has no length")
            }
            var length = Int(bytes[index])
            index += 1
            if length == 0x81 || length == 0x82 {
                let count = length - 0x80
                guard index + count <= bytes.count else {
                    throw .malformedResponse(operation, offset: index, "tag \(hex(tag)): the length field is cut off")
                }
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length > 0x7F {
                throw .malformedResponse(
                    operation, offset: index - 1, "tag \(hex(tag)): length byte \(hex(UInt8(length))) is not a YKOATH length")
            }
            guard length <= bytes.count - index else {
                throw .malformedResponse(operation, offset: start, "tag \(hex(tag)) says \(length) bytes, \(bytes.count - index) remain")
            }
            objects.append(OATHTLV(tag: tag, value: Array(bytes[index..<index + length]), offset: start))
            index += length
        }
        return objects
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

extension Array where Element == OATHTLV {
    /// The value of the first object with `tag`.
    func value(_ tag: UInt8) -> [UInt8]? { first { $0.tag == tag }?.value }

    /// The value of the first object with `tag`, or a malformed-response error naming it.
    func require(_ tag: UInt8, _ what: String, operation: OATHOperation, responseLength: Int) throws(OATHError) -> OATHTLV {
        guard let object = first(where: { $0.tag == tag }) else {
            throw .malformedResponse(operation, offset: responseLength, "no \(what) (tag \(OATHTLV.hex(tag)))")
        }
        return object
    }
}
