import ArgumentParser
import NFCBytes
import NFCSimulator

/// `nfc emulate --image FILE… (--pcsc [--vpcd HOST:PORT] [--remove-after N] [--basic-reader] | --pn532 PATH | --nfcpy-udp [HOST:]PORT)`
struct EmulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract:
            "Make a virtual tag a card in pcscd's vpcd virtual reader, the tag in a virtual PN532's field, or a card for nfcpy's UDP reader.",
        discussion: """
            The tag sits in a contactless reader as PC/SC applications see one: the reader answers \
            the FF pseudo-APDUs (GET DATA, READ/UPDATE BINARY, Manage Session, Transparent \
            Exchange) and passes other APDUs to ISO-DEP cards (docs/pcsc.md). Needs pcscd with \
            vsmartcard-vpcd; the emulator waits for it and reconnects when pcscd restarts. The \
            image is saved after every command that changes the tag. Ctrl-C (or SIGTERM) stops.

            With --pn532 PATH the tag is in the field of a virtual PN532 on a pseudo-terminal \
            linked at PATH, for libnfc (LIBNFC_DEVICE=pn532_uart:PATH) and other PN532 hosts \
            (docs/pn532.md).

            With --nfcpy-udp [HOST:]PORT the tag answers nfcpy's software UDP reader \
            (nfc.ContactlessFrontend('udp:HOST:PORT')) frame by frame: Type 2, Type 4 (A and B) \
            and Type 3 tags. HOST defaults to 127.0.0.1.
            """
    )

    @Option(
        name: .long,
        help:
            "The tag image to emulate; saved after every command that changes the tag. --pn532 and --nfcpy-udp take several (repeat --image): the tags are in the field together."
    )
    var image: [String] = []

    @Flag(name: .long, help: "Emulate through pcscd's vpcd virtual reader.")
    var pcsc = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Be a PN532 on a pseudo-terminal linked at PATH, the tag in its field (libnfc: LIBNFC_DEVICE=pn532_uart:PATH; docs/pn532.md).",
            valueName: "PATH"))
    var pn532: String?

    @Option(
        name: .customLong("nfcpy-udp"),
        help: ArgumentHelp(
            "Answer nfcpy's UDP reader (nfc.ContactlessFrontend('udp:HOST:PORT')) on this port; HOST defaults to 127.0.0.1.",
            valueName: "[HOST:]PORT"))
    var nfcpyUDP: String?

    @Option(name: .long, help: "Where vpcd listens, HOST:PORT.")
    var vpcd = VPCDEndpoint().description

    @Option(
        name: .customLong("remove-after"),
        help: ArgumentHelp("Answer N APDUs, then pull the card out when the next one comes.", valueName: "N"))
    var removeAfter: Int?

    @Flag(name: .customLong("basic-reader"), help: "A PC/SC Part 3 reader without transparent exchange (FF C2 answers 6A 81).")
    var basicReader = false

    @Option(
        name: .customLong("reader-profile"),
        help: ArgumentHelp(
            "--pcsc: answer as this reader's firmware does, from its manual: generic (PC/SC Part 3), acr122u, acr1252u, acr1552u (ACS ACR122U, ACR1252U, ACR1552U), omnikey5022, omnikey5427 (HID OMNIKEY 5022, 5427 CK) or utrust3700f (Identiv uTrust 3700 F). docs/readers.md.",
            valueName: "PROFILE"))
    var readerProfile: String?

    func validate() throws {
        guard !image.isEmpty else { throw ValidationError("give the tag image to emulate: --image FILE") }
        if image.count > 1, pn532 == nil, nfcpyUDP == nil {
            throw ValidationError("--pcsc emulates one card: give one --image (--pn532 and --nfcpy-udp take several)")
        }
        guard Set(image).count == image.count else { throw ValidationError("--image names the same file twice") }
        guard [pcsc, pn532 != nil, nfcpyUDP != nil].filter({ $0 }).count == 1 else {
            throw ValidationError(
                "give one of --pcsc (pcscd's vpcd reader), --pn532 PATH (a PN532 on a pseudo-terminal) or --nfcpy-udp [HOST:]PORT (nfcpy's UDP reader)"
            )
        }
        if let nfcpyUDP, NfcpyUDPEmulation.endpoint(nfcpyUDP) == nil {
            throw ValidationError("--nfcpy-udp takes [HOST:]PORT (e.g. 54321 or 127.0.0.1:54321), not \"\(nfcpyUDP)\"")
        }
        if let pn532, pn532.isEmpty { throw ValidationError("--pn532 takes the path of the link to make") }
        guard VPCDEndpoint(parsing: vpcd) != nil else {
            throw ValidationError("--vpcd takes HOST:PORT (e.g. 127.0.0.1:35963), not \"\(vpcd)\"")
        }
        if let removeAfter, removeAfter < 0 {
            throw ValidationError("--remove-after takes a number of commands, 0 or more")
        }
        if let readerProfile {
            guard pcsc else { throw ValidationError("--reader-profile goes with --pcsc") }
            guard let profile = EmulatedReaderProfile(rawValue: readerProfile.lowercased()) else {
                throw ValidationError(
                    "--reader-profile: no profile \"\(readerProfile)\"; the profiles are \(EmulatedReaderProfile.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            if basicReader, profile != .generic {
                throw ValidationError("--basic-reader is a generic reader; it does not go with --reader-profile \(profile)")
            }
        }
    }

    func run() throws {
        if let pn532 { return try runPN532(at: pn532) }
        if let nfcpyUDP, let (host, port) = NfcpyUDPEmulation.endpoint(nfcpyUDP) {
            let handles = try openImages(announcing: "for nfcpy's UDP reader")
            defer { for handle in handles { handle.close() } }
            return try NfcpyUDPEmulation(images: handles, host: host, port: port).run()
        }
        guard let endpoint = VPCDEndpoint(parsing: vpcd) else {
            throw CLIError("--vpcd takes HOST:PORT, not \"\(vpcd)\"")
        }
        let handle = try openImage(image[0], announcing: "on vpcd \(endpoint) (Ctrl-C to stop)")
        defer { handle.close() }
        let tag = handle.tag
        let profile = readerProfile.flatMap { EmulatedReaderProfile(rawValue: $0.lowercased()) } ?? .generic
        guard profile.sees(tag) else {
            throw CLIError(.usage, "the \(profile) reader cannot see \(image[0]): it reads no ISO/IEC 15693 tag")
        }
        let emulation = PCSCEmulation(
            front: EmulatedReaderFront(tag: tag, basicReader: basicReader, profile: profile),
            image: handle, link: VPCDLink(endpoint: endpoint), removeAfter: removeAfter
        )
        try emulation.run()
    }

    /// `--pn532 PATH`: the tag in a virtual PN532's field, on a pseudo-terminal linked at PATH.
    private func runPN532(at path: String) throws {
        let handles = try openImages(announcing: "in a virtual PN532")
        defer { for handle in handles { handle.close() } }
        try PN532Emulation(images: handles, linkPath: path).run()
    }

    /// Opens every `--image`, in order; one that cannot be opened closes those opened before.
    private func openImages(announcing place: String) throws -> [TagImageStore.Handle] {
        var handles: [TagImageStore.Handle] = []
        do {
            for path in image { handles.append(try openImage(path, announcing: place)) }
        } catch {
            for handle in handles { handle.close() }
            throw error
        }
        return handles
    }

    /// Opens the image for the emulator, which owns it while it runs (other commands wait for it,
    /// and none of their changes can be overwritten by the emulator's next save), and says what
    /// it emulates, `place` last.
    private func openImage(_ path: String, announcing place: String) throws -> TagImageStore.Handle {
        let handle: TagImageStore.Handle
        do {
            handle = try TagImageStore.open(path, for: .modify, timeout: .zero)
        } catch {
            throw CLIError(imageError: error, path: path)
        }
        let tag = handle.tag
        let kind = VirtualTagKind(of: tag).map(\.rawValue) ?? "\(type(of: tag))"
        Output.error("emulating \(kind) \(Hex.encode(tag.identifier, uppercase: true)) \(place)")
        return handle
    }
}
