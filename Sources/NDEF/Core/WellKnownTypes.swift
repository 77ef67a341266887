/// Shared arrays for the most common record types, so decoding a `T` or `U` record does not
/// allocate a new one-byte array for its type (values are equal either way; only storage is shared).
enum WellKnownTypes {
    static let t: [UInt8] = [0x54]
    static let u: [UInt8] = [0x55]
    static let sp: [UInt8] = [0x53, 0x70]

    /// The shared array equal to `buffer[offset..<offset+length]`, if it is a common type.
    @inline(__always)
    static func shared(_ buffer: UnsafeBufferPointer<UInt8>, _ offset: Int, _ length: Int) -> [UInt8]? {
        if length == 1 {
            switch buffer[offset] {
            case 0x54: return t
            case 0x55: return u
            default: return nil
            }
        }
        if length == 2 && buffer[offset] == 0x53 && buffer[offset + 1] == 0x70 { return sp }
        return nil
    }

    /// The well-known record kinds with a typed view, found without comparing whole arrays.
    enum Kind { case text, uri, smartPoster, deviceInformation, signature }

    @inline(__always)
    static func kind(of type: [UInt8]) -> Kind? {
        switch type.count {
        case 1:
            switch type[0] {
            case 0x54: return .text
            case 0x55: return .uri
            default: return nil
            }
        case 2:
            if type[0] == 0x53 && type[1] == 0x70 { return .smartPoster }
            if type[0] == 0x44 && type[1] == 0x69 { return .deviceInformation }
            return nil
        case 3:
            return type[0] == 0x53 && type[1] == 0x69 && type[2] == 0x67 ? .signature : nil
        default:
            return nil
        }
    }
}
