import NFCTransport

/// An NFC Forum Type 4 Tag: an ``ISO7816Card`` holding the ``NDEFApplication`` with a CC file
/// and one NDEF file (NFC Forum Type 4 Tag Operation 2.0 §5, T4T 3.0 for files beyond 32 767 bytes).
///
/// A new tag is in the state tags ship in (NTAG 424 DNA, ST25TA, formatted DESFire): the NDEF
/// application, the CC and an NDEF file of zeros, so NLEN is `0000` — the INITIALIZED state of
/// T4T 2.0 §5.3.1, ready to write. A card without the NDEF application is not a Type 4 Tag (it would
/// need proprietary commands to be formatted); make it as an ``ISO7816Card`` with no applets.
public struct Type4Tag: VirtualTag, TagImageRepresentable {
    /// The card underneath: UID, ATS, host limits and the applets.
    public var card: ISO7816Card

    /// Wraps a card (which should hold an ``NDEFApplication``).
    public init(card: ISO7816Card) {
        self.card = card
    }

    /// Makes a Type 4 Tag holding an NDEF message.
    /// - Parameters:
    ///   - configuration: sizes, limits, protection and radio parameters.
    ///   - message: the NDEF message bytes stored after NLEN (empty: NLEN `0000`).
    /// - Throws: ``TagImageError`` `.invalidValue` naming the configuration field that is out of range.
    public init(configuration: Configuration = Configuration(), message: [UInt8] = []) throws(TagImageError) {
        try configuration.validate()
        let cc = configuration.capabilityContainer
        guard message.count <= configuration.ndefFileSize - cc.lengthFieldSize else {
            throw TagImageError(
                .invalidValue, field: "message", "\(message.count) bytes do not fit the \(configuration.ndefFileSize)-byte NDEF file")
        }
        var ndefFile = Self.lengthField(message.count, size: cc.lengthFieldSize) + message
        ndefFile += [UInt8](repeating: 0, count: configuration.ndefFileSize - ndefFile.count)
        let application = NDEFApplication(
            files: [
                NDEFApplication.File(
                    id: NDEFApplication.capabilityContainerID, contents: cc.bytes, readAccess: .always, writeAccess: .never),
                NDEFApplication.File(
                    id: configuration.ndefFileID, contents: ndefFile, readAccess: .always,
                    writeAccess: configuration.writeProtected ? .never : .always
                ),
            ],
            maxReadLength: configuration.maxReadLength, maxUpdateLength: configuration.maxUpdateLength,
            offsetDataObjects: configuration.mappingVersion >= 0x30
        )
        card = ISO7816Card(
            uid: configuration.uid, ats: configuration.answerToSelect,
            configuration: ISO7816Card.Configuration(
                extendedLength: configuration.extendedLength, processingTime: configuration.processingTime),
            applets: [application]
        )
    }

    /// A tag as it ships: the NDEF application with NLEN `0000` (T4T 2.0 §5.3.1 INITIALIZED state).
    public static func blank(configuration: Configuration = Configuration()) throws(TagImageError) -> Type4Tag {
        try Type4Tag(configuration: configuration, message: [])
    }

    /// The NDEF application, if the card holds one.
    public var ndefApplication: NDEFApplication? { card.applet(NDEFApplication.self) }

    /// The CC file as the tag stores it, parsed.
    /// - Throws: ``TagImageError`` when there is no application or CC file or the CC is malformed.
    public func capabilityContainer() throws(TagImageError) -> Type4CapabilityContainer {
        guard let file = ndefApplication?.file(NDEFApplication.capabilityContainerID) else {
            throw TagImageError(.invalidValue, field: "capabilityContainer", "the tag has no CC file E103")
        }
        return try Type4CapabilityContainer(bytes: file.contents)
    }

    /// The NDEF message the tag holds (the NLEN or ENLEN bytes after the length field); `nil`
    /// when the CC or NDEF file is missing or the length exceeds the file.
    public var ndefMessage: [UInt8]? {
        guard let cc = try? capabilityContainer(), let file = ndefApplication?.file(cc.ndefFileID) else { return nil }
        let size = cc.lengthFieldSize
        guard file.contents.count >= size else { return nil }
        let length = file.contents.prefix(size).reduce(0) { $0 << 8 | Int($1) }
        guard length <= file.contents.count - size else { return nil }
        return Array(file.contents[size..<(size + length)])
    }

    /// Stores an NDEF message and its length field in the NDEF file (bytes after it are kept).
    /// - Throws: ``TagImageError`` when there is no NDEF file or the message does not fit.
    public mutating func setNDEFMessage(_ message: [UInt8]) throws(TagImageError) {
        let cc = try capabilityContainer()
        guard let application = ndefApplication, let index = application.files.firstIndex(where: { $0.id == cc.ndefFileID }) else {
            throw TagImageError(.invalidValue, field: "message", "the tag has no NDEF file")
        }
        let size = cc.lengthFieldSize
        let fileSize = application.files[index].contents.count
        guard message.count <= fileSize - size else {
            throw TagImageError(.invalidValue, field: "message", "\(message.count) bytes do not fit the \(fileSize)-byte NDEF file")
        }
        let bytes = Self.lengthField(message.count, size: size) + message
        card.updateApplet(NDEFApplication.self) { $0.files[index].contents.replaceSubrange(0..<bytes.count, with: bytes) }
    }

    /// NLEN (2 bytes) or ENLEN (4 bytes), big-endian.
    static func lengthField(_ length: Int, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
    }

    // MARK: VirtualTag

    /// The card's UID.
    public var identifier: [UInt8] { card.identifier }
    /// The card's ISO/IEC 14443-A parameters (ATQA, SAK, ATS).
    public var parameters: TargetInfo.Parameters { card.parameters }
    /// Powers the card on: no applet selected, transient state reset.
    public mutating func powerOn() { card.powerOn() }
    /// The card's activation: WUPA, anticollision, RATS and, above 106 kbit/s, PPS.
    public mutating func activate(context: ExchangeContext) -> [AirFrame] { card.activate(context: context) }
    /// Answers one APDU through the card's applet host.
    public mutating func respond(to command: [UInt8], context: ExchangeContext) -> TagAnswer {
        card.respond(to: command, context: context)
    }

    // MARK: TagImageRepresentable

    /// A Type 4 Tag's image is its card's image.
    public typealias Image = ISO7816Card.Image

    /// The image of the card that holds the NDEF application.
    public var image: ISO7816Card.Image { card.image }

    /// Rebuilds the tag from a card image holding an NDEF application.
    /// - Throws: ``TagImageError`` `.invalidValue` as ``ISO7816Card/init(image:)``, or at
    ///   `applets` when no applet is an NDEF application.
    public init(image: ISO7816Card.Image) throws(TagImageError) {
        let card = try ISO7816Card(image: image)
        guard card.applet(NDEFApplication.self) != nil else {
            throw TagImageError(.invalidValue, field: "applets", "a Type 4 Tag holds the NDEF application")
        }
        self.card = card
    }
}
