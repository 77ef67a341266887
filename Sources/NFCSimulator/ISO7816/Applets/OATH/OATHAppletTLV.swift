/// The applet's reading and writing of YKOATH data objects: one-byte tag, BER length (short,
/// `81 xx` or `82 xxxx`), value. PUT's property object is the one exception: tag `78` and one
/// value byte, no length.
enum OATHAppletTLV {
    struct Object: Hashable {
        var tag: UInt8
        var value: [UInt8]
    }

    static func encode(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if value.count < 0x80 {
            out.append(UInt8(value.count))
        } else if value.count < 0x100 {
            out += [0x81, UInt8(value.count)]
        } else {
            out += [0x82, UInt8(truncatingIfNeeded: value.count >> 8), UInt8(truncatingIfNeeded: value.count)]
        }
        return out + value
    }

    /// Parses command data; `nil` when a length runs past the end or uses another form.
    static func parse(_ bytes: [UInt8], propertyTagWithoutLength: Bool = false) -> [Object]? {
        var objects: [Object] = []
        var index = 0
        while index < bytes.count {
            let tag = bytes[index]
            index += 1
            if propertyTagWithoutLength && tag == 0x78 {
                guard index < bytes.count else { return nil }
                objects.append(Object(tag: tag, value: [bytes[index]]))
                index += 1
                continue
            }
            guard index < bytes.count else { return nil }
            var length = Int(bytes[index])
            index += 1
            if length == 0x81 || length == 0x82 {
                let count = length - 0x80
                guard bytes.count - index >= count else { return nil }
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            } else if length > 0x7F {
                return nil
            }
            guard bytes.count - index >= length else { return nil }
            objects.append(Object(tag: tag, value: Array(bytes[index..<index + length])))
            index += length
        }
        return objects
    }
}

extension Array where Element == OATHAppletTLV.Object {
    func first(_ tag: UInt8) -> [UInt8]? { first { $0.tag == tag }?.value }
}
