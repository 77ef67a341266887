/// Secure Dynamic Messaging settings of an NTAG 424 DNA file (data sheet NT4H2421Gx §9.3 and
/// §10.7.1, ChangeFileSettings).
///
/// On the wire: SDMOptions (bit 7 UID mirror, bit 6 SDMReadCtr mirror, bit 5 SDMReadCtrLimit,
/// bit 4 SDMENCFileData, bit 0 ASCII encoding), SDMAccessRights (`F | SDMCtrRet`, then
/// `SDMMetaRead | SDMFileRead`), then the offsets each present only when the settings use them,
/// 3 bytes each, least significant first: UIDOffset and SDMReadCtrOffset (plain mirrors, SDMMetaRead
/// `E`), PICCDataOffset (encrypted mirror, SDMMetaRead a key), SDMMACInputOffset, SDMENCOffset and
/// SDMENCLength (with SDMENCFileData), SDMMACOffset (these three with SDMFileRead a key), and
/// SDMReadCtrLimit.
public struct NTAG424SDM: Sendable, Hashable {
    /// Mirror the UID.
    public var mirrorsUID: Bool
    /// Mirror SDMReadCtr.
    public var mirrorsCounter: Bool
    /// SDMReadCtrLimit, when one is set: reads stop once the counter reaches it.
    public var counterLimit: UInt32?
    /// The key for GetFileCounters (`0`–`4`, `E` free, `F` never).
    public var counterRetrievalKey: UInt8
    /// The key encrypting PICC data (`0`–`4`), `E` for plain mirrors, `F` for none.
    public var metaReadKey: UInt8
    /// The key SDMMAC and SDMENCFileData derive from (`0`–`4`), `F` for no MAC.
    public var fileReadKey: UInt8
    /// UIDOffset (plain UID mirror).
    public var uidOffset: Int?
    /// SDMReadCtrOffset (plain counter mirror).
    public var counterOffset: Int?
    /// PICCDataOffset (encrypted PICC data).
    public var piccDataOffset: Int?
    /// SDMMACInputOffset.
    public var macInputOffset: Int?
    /// SDMENCOffset and SDMENCLength (in ASCII characters, a multiple of 32), when file data is encrypted.
    public var encryptedData: (offset: Int, length: Int)? {
        get { encryptedOffset.map { ($0, encryptedLength ?? 0) } }
        set {
            encryptedOffset = newValue?.offset
            encryptedLength = newValue?.length
        }
    }
    var encryptedOffset: Int?
    var encryptedLength: Int?
    /// SDMMACOffset.
    public var macOffset: Int?

    /// Settings from their parts (an image or ChangeFileSettings checks them against the file).
    public init(
        mirrorsUID: Bool, mirrorsCounter: Bool, counterLimit: UInt32? = nil, counterRetrievalKey: UInt8 = 0x0F,
        metaReadKey: UInt8, fileReadKey: UInt8, uidOffset: Int? = nil, counterOffset: Int? = nil, piccDataOffset: Int? = nil,
        macInputOffset: Int? = nil, encryptedData: (offset: Int, length: Int)? = nil, macOffset: Int? = nil
    ) {
        self.mirrorsUID = mirrorsUID
        self.mirrorsCounter = mirrorsCounter
        self.counterLimit = counterLimit
        self.counterRetrievalKey = counterRetrievalKey
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        self.uidOffset = uidOffset
        self.counterOffset = counterOffset
        self.piccDataOffset = piccDataOffset
        self.macInputOffset = macInputOffset
        self.encryptedOffset = encryptedData?.offset
        self.encryptedLength = encryptedData?.length
        self.macOffset = macOffset
    }

    /// Equal when every setting is.
    public static func == (lhs: NTAG424SDM, rhs: NTAG424SDM) -> Bool { lhs.bytes == rhs.bytes }
    /// Hashes the encoded settings.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// SDMOptions.
    var options: UInt8 {
        (mirrorsUID ? 0x80 : 0) | (mirrorsCounter ? 0x40 : 0) | (counterLimit != nil ? 0x20 : 0) | (encryptedOffset != nil ? 0x10 : 0)
            | 0x01
    }

    /// The settings as GetFileSettings answers them and ChangeFileSettings takes them.
    var bytes: [UInt8] {
        var out: [UInt8] = [options, 0xF0 | counterRetrievalKey, metaReadKey << 4 | fileReadKey]
        for value in [uidOffset, counterOffset, piccDataOffset, macInputOffset, encryptedOffset, encryptedLength, macOffset] {
            if let value { out += NTAG424File.threeBytes(value) }
        }
        if let counterLimit { out += NTAG424File.threeBytes(Int(counterLimit)) }
        return out
    }

    /// Reads the SDM part of ChangeFileSettings data; `nil` when it is malformed or its fields
    /// do not fit `fileSize` (the chip answers PARAMETER_ERROR, data sheet §10.7.1). A tag in LRP
    /// mode (`lrp`) mirrors 48 characters of PICC data, not 32 (§9.3.4.2).
    init?(parsing data: ArraySlice<UInt8>, fileSize: Int, lrp: Bool = false) {
        var rest = data
        func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard rest.count >= count else { return nil }
            defer { rest = rest.dropFirst(count) }
            return rest.prefix(count)
        }
        guard let head = take(3) else { return nil }
        let options = head[head.startIndex]
        // ASCII encoding is the only one the chip knows; bits 3–1 are RFU.
        guard options & 0x01 == 0x01, options & 0x0E == 0, head[head.startIndex + 1] >> 4 == 0x0F else { return nil }
        let counterRetrieval = head[head.startIndex + 1] & 0x0F
        let meta = head[head.startIndex + 2] >> 4
        let fileRead = head[head.startIndex + 2] & 0x0F
        guard [counterRetrieval, meta, fileRead].allSatisfy(NTAG424File.isCondition) else { return nil }
        self.init(
            mirrorsUID: options & 0x80 != 0, mirrorsCounter: options & 0x40 != 0, counterRetrievalKey: counterRetrieval,
            metaReadKey: meta, fileReadKey: fileRead)
        func read(_ present: Bool) -> Int?? {
            guard present else { return .some(nil) }
            guard let bytes = take(3) else { return nil }
            return .some(NTAG424File.number(bytes))
        }
        guard let uid = read(mirrorsUID && meta == 0x0E), let counter = read(mirrorsCounter && meta == 0x0E),
            let picc = read(meta <= 4), let macInput = read(fileRead != 0x0F),
            let encOffset = read(fileRead != 0x0F && options & 0x10 != 0),
            let encLength = read(fileRead != 0x0F && options & 0x10 != 0),
            let mac = read(fileRead != 0x0F), let limit = read(options & 0x20 != 0)
        else { return nil }
        guard rest.isEmpty else { return nil }
        uidOffset = uid
        counterOffset = counter
        piccDataOffset = picc
        macInputOffset = macInput
        encryptedOffset = encOffset
        encryptedLength = encLength
        macOffset = mac
        counterLimit = limit.map { UInt32($0) }
        guard validate(fileSize: fileSize, lrp: lrp) else { return nil }
    }

    /// SDMReadCtrOffset `FFFFFF`: the counter runs but is not mirrored (data sheet §10.7.1).
    static let notMirrored = 0xFF_FFFF

    /// Whether the settings can exist (data sheet §10.7.1, Table 71's PARAMETER_ERROR cases):
    /// SDMMetaRead a key needs UID or counter mirroring, `F` allows neither; SDMCtrRet and a
    /// counter limit need the counter; encrypted file data needs both mirrors and a MAC key, a
    /// non-zero multiple of 32 characters, between the MAC input and the MAC; every mirror fits in
    /// the file and none overlaps another (PICC data 32 characters, 48 in LRP mode).
    func validate(fileSize: Int, lrp: Bool = false) -> Bool {
        if metaReadKey <= 4 && !(mirrorsUID || mirrorsCounter) { return false }
        if metaReadKey == 0x0E && ((mirrorsUID && uidOffset == nil) || (mirrorsCounter && counterOffset == nil)) { return false }
        if metaReadKey == 0x0F && (mirrorsUID || mirrorsCounter) { return false }
        if !mirrorsCounter && (counterRetrievalKey != 0x0F || counterLimit != nil) { return false }
        if let length = encryptedLength {
            guard mirrorsUID && mirrorsCounter, length > 0, length % 32 == 0 else { return false }
            guard let macInput = macInputOffset, let offset = encryptedOffset, let mac = macOffset,
                macInput <= offset, offset + length <= mac
            else { return false }
        }
        if let macInput = macInputOffset, let mac = macOffset, macInput > mac { return false }
        var ranges: [Range<Int>] = []
        for (offset, length) in [
            (uidOffset, 14), (counterOffset == Self.notMirrored ? nil : counterOffset, 6), (piccDataOffset, lrp ? 48 : 32),
            (encryptedOffset, encryptedLength ?? 0), (macOffset, 16),
        ] {
            guard let offset else { continue }
            guard offset >= 0, offset + length <= fileSize else { return false }
            let range = offset..<offset + length
            guard !ranges.contains(where: { $0.overlaps(range) }) else { return false }
            ranges.append(range)
        }
        return (macInputOffset ?? 0) <= fileSize
    }
}
