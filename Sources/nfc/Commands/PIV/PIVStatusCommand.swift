import ArgumentParser
import NDEFJSON
import NFCBytes
import NFCJSON
import NFCPIV

/// `nfc piv status [--reader R] [--json]`: CHUID, PIN tries, and each slot's certificate.
struct PIVStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the CHUID, the PIN's tries left and the certificate of each slot."
    )

    @OptionGroup var readerOptions: ReaderOptions
    @Flag(name: .long, help: "Print the stable JSON form.")
    var json = false

    struct SlotStatus {
        var slot: PIVSlot
        var container: PIVCertificateContainer?
        var summary: PIVCertificateSummary?
    }

    func run() async throws {
        let (chuid, pin, slots) = try await PIVRunner.run(readerOptions, access: .read, json: json) { client in
            let chuid = try await client.readCHUID()
            let pin = try await client.pinStatus()
            var slots: [SlotStatus] = []
            for slot in PIVSlot.allCases {
                let container = try await client.readCertificate(slot: slot)
                let summary = container.flatMap { $0.isCompressed ? nil : PIVCertificateSummary(der: $0.certificate) }
                slots.append(SlotStatus(slot: slot, container: container, summary: summary))
            }
            return (chuid, pin, slots)
        }
        if json {
            Output.line(
                JSONValue.object([
                    (
                        "chuid",
                        chuid.map { chuid in
                            .object([
                                ("fascN", chuid.fascN.map { .string(Hex.encode($0)) } ?? .null),
                                ("guid", chuid.guid.map { .string(Hex.encode($0)) } ?? .null),
                                ("expiration", chuid.expirationDate.map { .string($0) } ?? .null),
                                ("signed", .bool(!chuid.issuerSignature.isEmpty)),
                            ])
                        } ?? .null
                    ),
                    ("pin", Self.json(pin)),
                    (
                        "slots",
                        .array(
                            slots.map { status in
                                .object([
                                    ("slot", .string(status.slot.hex)),
                                    (
                                        "certificate",
                                        status.container.map { container in
                                            .object([
                                                ("length", .int(Int64(container.certificate.count))),
                                                ("compressed", .bool(container.isCompressed)),
                                                ("subject", status.summary.map { .string($0.subject) } ?? .null),
                                                ("issuer", status.summary.map { .string($0.issuer) } ?? .null),
                                                ("serial", status.summary.map { .string(Hex.encode($0.serialNumber)) } ?? .null),
                                            ])
                                        } ?? .null
                                    ),
                                ])
                            })
                    ),
                ]).serialized(pretty: true))
            return
        }
        if let chuid {
            Output.line(
                "CHUID: GUID \(chuid.guid.map { Hex.encode($0) } ?? "none"), FASC-N \(chuid.fascN.map { Hex.encode($0) } ?? "none"), expires \(chuid.expirationDate.map(TerminalText.escape) ?? "never")"
            )
        } else {
            Output.line("CHUID: none")
        }
        switch pin {
        case .verified: Output.line("PIN: verified")
        case .notVerified(let retries): Output.line("PIN: \(retries) \(retries == 1 ? "try" : "tries") left")
        case .blocked: Output.line("PIN: blocked")
        }
        for status in slots {
            let text: String
            if let container = status.container {
                if container.isCompressed {
                    text = "certificate (gzip, \(container.certificate.count) bytes, not decoded)"
                } else if let summary = status.summary {
                    text = "certificate \(summary.subject) (issuer \(summary.issuer))"
                } else {
                    text = "certificate (\(container.certificate.count) bytes, not parseable)"
                }
            } else {
                text = "no certificate"
            }
            Output.line(TerminalText.escape("Slot \(status.slot): \(text)"))
        }
    }

    static func json(_ pin: PIVPINStatus) -> JSONValue {
        switch pin {
        case .verified: .object([("verified", .bool(true)), ("retries", .null), ("blocked", .bool(false))])
        case .notVerified(let retries): .object([("verified", .bool(false)), ("retries", .int(Int64(retries))), ("blocked", .bool(false))])
        case .blocked: .object([("verified", .bool(false)), ("retries", .int(0)), ("blocked", .bool(true))])
        }
    }
}
