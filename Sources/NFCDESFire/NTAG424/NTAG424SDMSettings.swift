/// Secure Dynamic Messaging settings (NT4H2421Gx §9.3, §10.7.1): what the tag mirrors into its
/// NDEF file on every read, where, and under which keys.
///
/// Wire form: SDMOptions (bit 7 UID, bit 6 SDMReadCtr, bit 5 SDMReadCtrLimit, bit 4
/// SDMENCFileData, bit 0 ASCII), SDMAccessRights (`F | SDMCtrRet`, `SDMMetaRead | SDMFileRead`),
/// then 3-byte offsets, least significant first, each present only when used: UIDOffset and
/// SDMReadCtrOffset (SDMMetaRead free), PICCDataOffset (SDMMetaRead a key), SDMMACInputOffset,
/// SDMENCOffset, SDMENCLength (with SDMENCFileData), SDMMACOffset (SDMFileRead a key),
/// SDMReadCtrLimit.
public struct NTAG424SDMSettings: Sendable, Hashable {
    /// Mirror the UID.
    public var mirrorsUID: Bool
    /// Mirror SDMReadCtr.
    public var mirrorsCounter: Bool
    /// SDMCtrRet: who may read the counter with GetFileCounters.
    public var counterRetrieval: NTAG424Access
    /// SDMMetaRead: `.free` mirrors UID and counter in the clear, a key encrypts them as PICC
    /// data, `.never` mirrors neither.
    public var metaRead: NTAG424Access
    /// SDMFileRead: the key SDMMAC and SDMENCFileData derive from; `.never` for no MAC.
    public var fileRead: NTAG424Access
    /// UIDOffset (plain UID, 14 characters).
    public var uidOffset: Int?
    /// SDMReadCtrOffset (plain counter, 6 characters).
    public var counterOffset: Int?
    /// PICCDataOffset (encrypted PICC data, 32 characters).
    public var piccDataOffset: Int?
    /// SDMMACInputOffset: where the bytes SDMMAC covers begin.
    public var macInputOffset: Int?
    /// SDMENCOffset (encrypted file data).
    public var encryptedDataOffset: Int?
    /// SDMENCLength, in characters (a multiple of 32).
    public var encryptedDataLength: Int?
    /// SDMMACOffset (16 characters).
    public var macOffset: Int?
    /// SDMReadCtrLimit.
    public var counterLimit: UInt32?

    /// Settings from their parts; offsets not used by the keys chosen are left out on the wire.
    public init(
        mirrorsUID: Bool, mirrorsCounter: Bool, counterRetrieval: NTAG424Access = .never, metaRead: NTAG424Access,
        fileRead: NTAG424Access, uidOffset: Int? = nil, counterOffset: Int? = nil, piccDataOffset: Int? = nil,
        macInputOffset: Int? = nil, encryptedDataOffset: Int? = nil, encryptedDataLength: Int? = nil, macOffset: Int? = nil,
        counterLimit: UInt32? = nil
    ) {
        self.mirrorsUID = mirrorsUID
        self.mirrorsCounter = mirrorsCounter
        self.counterRetrieval = counterRetrieval
        self.metaRead = metaRead
        self.fileRead = fileRead
        self.uidOffset = uidOffset
        self.counterOffset = counterOffset
        self.piccDataOffset = piccDataOffset
        self.macInputOffset = macInputOffset
        self.encryptedDataOffset = encryptedDataOffset
        self.encryptedDataLength = encryptedDataLength
        self.macOffset = macOffset
        self.counterLimit = counterLimit
    }

    private var usesPlainMirrors: Bool { metaRead == .free }
    private var usesPICCData: Bool { if case .key = metaRead { true } else { false } }
    private var usesMAC: Bool { if case .key = fileRead { true } else { false } }
    private var usesEncryptedData: Bool { usesMAC && encryptedDataOffset != nil }

    /// The wire form.
    public var bytes: [UInt8] {
        let options: UInt8 =
            (mirrorsUID ? 0x80 : 0) | (mirrorsCounter ? 0x40 : 0) | (counterLimit != nil ? 0x20 : 0) | (usesEncryptedData ? 0x10 : 0) | 0x01
        var out: [UInt8] = [options, 0xF0 | counterRetrieval.nibble, metaRead.nibble << 4 | fileRead.nibble]
        func add(_ value: Int?, _ present: Bool) {
            guard present, let value else { return }
            out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16)]
        }
        add(uidOffset, mirrorsUID && usesPlainMirrors)
        add(counterOffset, mirrorsCounter && usesPlainMirrors)
        add(piccDataOffset, usesPICCData)
        add(macInputOffset, usesMAC)
        add(encryptedDataOffset, usesEncryptedData)
        add(encryptedDataLength, usesEncryptedData)
        add(macOffset, usesMAC)
        add(counterLimit.map(Int.init), counterLimit != nil)
        return out
    }

    /// Reads the wire form.
    /// - Throws: ``DESFireError`` `.malformedResponse` for a field that is missing or left over.
    public init(parsing bytes: ArraySlice<UInt8>) throws(DESFireError) {
        var rest = bytes
        func take() throws(DESFireError) -> Int {
            guard rest.count >= 3 else { throw DESFireError(.malformedResponse, "the SDM settings end inside an offset") }
            let value = Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8 | Int(rest[rest.startIndex + 2]) << 16
            rest = rest.dropFirst(3)
            return value
        }
        guard rest.count >= 3 else { throw DESFireError(.malformedResponse, "SDM settings of \(rest.count) bytes; at least 3 expected") }
        let options = rest[rest.startIndex]
        let rights = Array(rest[rest.startIndex + 1..<rest.startIndex + 3])
        rest = rest.dropFirst(3)
        guard let retrieval = NTAG424Access(nibble: rights[0] & 0x0F, maximumKey: 4),
            let meta = NTAG424Access(nibble: rights[1] >> 4, maximumKey: 4),
            let file = NTAG424Access(nibble: rights[1] & 0x0F, maximumKey: 4)
        else { throw DESFireError(.malformedResponse, "SDM access rights hold a condition other than 0-4, E, F") }
        self.init(
            mirrorsUID: options & 0x80 != 0, mirrorsCounter: options & 0x40 != 0, counterRetrieval: retrieval, metaRead: meta,
            fileRead: file)
        if mirrorsUID && usesPlainMirrors { uidOffset = try take() }
        if mirrorsCounter && usesPlainMirrors { counterOffset = try take() }
        if usesPICCData { piccDataOffset = try take() }
        if usesMAC { macInputOffset = try take() }
        if usesMAC && options & 0x10 != 0 {
            encryptedDataOffset = try take()
            encryptedDataLength = try take()
        }
        if usesMAC { macOffset = try take() }
        if options & 0x20 != 0 { counterLimit = UInt32(try take()) }
        guard rest.isEmpty else { throw DESFireError(.malformedResponse, "\(rest.count) bytes after the SDM settings") }
    }
}
