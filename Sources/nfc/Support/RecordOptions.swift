import ArgumentParser

/// The record options `nfc ndef encode` and `nfc write` share. ArgumentParser collects each
/// option's values; their order across options comes from the parsed arguments
/// (``RecordArguments``, ``Invocation``).
struct RecordOptions: ParsableArguments {
    @Option(name: .long, help: "A URI record (repeatable; records keep their order).")
    var uri: [String] = []
    @Option(name: .long, help: "A Text record (repeatable).")
    var text: [String] = []
    @Option(name: .long, help: "The language of the --text before it (default en).")
    var lang: [String] = []
    @Option(name: .long, help: "A media-type record of this type; its payload from the --payload-file or --payload-hex after it.")
    var mime: [String] = []
    @Option(name: .long, help: "An external-type record DOMAIN:TYPE; its payload from the --payload-file or --payload-hex after it.")
    var external: [String] = []
    @Option(name: .customLong("payload-file"), help: "A file holding the payload of the --mime or --external before it.")
    var payloadFile: [String] = []
    @Option(name: .customLong("payload-hex"), help: "The payload of the --mime or --external before it, in hex.")
    var payloadHex: [String] = []
    /// Deprecated: `--payload-file`.
    @Option(name: .customLong("file"), help: ArgumentHelp(visibility: .hidden))
    var file: [String] = []
    /// Deprecated: `--payload-hex`; on `nfc write` without a record before it, `--message`.
    @Option(name: .customLong("hex"), help: ArgumentHelp(visibility: .hidden))
    var hex: [String] = []

    /// Whether any record was given.
    var hasRecords: Bool { !(uri.isEmpty && text.isEmpty && mime.isEmpty && external.isEmpty) }
}
