import NFCBytes
import NFCPN532
import NFCSimulator
import NFCTransport

/// `nfcpy-udp:HOST:PORT` for one CLI command: the card is nfcpy's Type 3 tag emulation
/// listening on its UDP frontend. The command polls for it until ``arrivalLimit``.
struct NfcpyUDPCLIReader: CLIReader {
    /// How long the command waits for the listener to answer a poll.
    static let arrivalLimit = Duration.seconds(10)

    let reader: NfcpyUDPReader
    let meter = AirTimeMeter()
    private let connection = Guarded<(any TagConnection)?>(nil)

    init(host: String, port: UInt16) {
        reader = NfcpyUDPReader(host: host, port: port)
    }

    func connect() async throws -> any TagConnection {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.arrivalLimit
        while clock.now < deadline {
            let found: [TargetInfo]
            do {
                found = try await reader.targets(matching: .felica)
            } catch {
                throw CLIError(.notFound, error.reason)
            }
            if let target = found.first {
                do {
                    let opened = try await reader.connect(to: target, meter: meter)
                    connection.withLock { $0 = opened }
                    return opened
                } catch {
                    throw CLIError("\(reader.name): \(error.reason)")
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CLIError(
            .notFound,
            "no nfcpy tag answered on \(reader.name) within \(Self.arrivalLimit) (nfcpy emulates Type 3 tags only: LocalTarget('212F'))")
    }

    func finish() async throws -> TagImageSaveOutcome {
        await connection.withLock { $0 }?.disconnect()
        return .unchanged
    }
}
