/// The well-known types the typed views know (NFC Forum RTD: Text `T`, URI `U`, Smart Poster
/// `Sp`, Device Information `Di`, Signature `Sig`), recognised on a record's type bytes in place.
enum WellKnownTypes {
    enum Kind { case text, uri, smartPoster, deviceInformation, signature }

    @inline(__always)
    static func kind(of type: ArraySlice<UInt8>) -> Kind? {
        let i = type.startIndex
        switch type.count {
        case 1:
            switch type[i] {
            case 0x54: return .text
            case 0x55: return .uri
            default: return nil
            }
        case 2:
            if type[i] == 0x53 && type[i + 1] == 0x70 { return .smartPoster }
            if type[i] == 0x44 && type[i + 1] == 0x69 { return .deviceInformation }
            return nil
        case 3:
            return type[i] == 0x53 && type[i + 1] == 0x69 && type[i + 2] == 0x67 ? .signature : nil
        default:
            return nil
        }
    }
}
