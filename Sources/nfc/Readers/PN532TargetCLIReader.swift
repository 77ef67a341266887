import NFCBytes
import NFCPN532
import NFCSimulator
import NFCTransport

/// `pn532-target:PATH` for one CLI command: a virtual PN532 on a pseudo-terminal linked at PATH
/// whose card is the program that drives it as a target (libnfc's `nfc-emulate-forum-tag4`).
///
/// The command waits up to ``arrivalLimit`` for that program's TgInitAsTarget, reads or writes
/// its card with the same engines as any reader, then releases it (the program's next TgGetData
/// learns so), gives it ``releaseGrace`` to read that, and removes the link. Ctrl-C or SIGTERM
/// while it waits removes the link too (`TemporaryFiles`, as for a save's temporary file).
struct PN532TargetCLIReader: CLIReader {
    /// Core NFC's own session limit: a session that sees no tag for 60 s ends.
    static let arrivalLimit = Duration.seconds(60)
    /// How long the program gets to read the release before the terminal closes.
    static let releaseGrace = Duration.milliseconds(300)

    let path: String
    let meter = AirTimeMeter()
    private let state = Guarded<(reader: PN532TargetReader?, connection: (any TagConnection)?, slot: Int?)>(
        (nil, nil, nil))

    init(path: String) {
        self.path = path
    }

    /// The card is a program, which ends once released: there is nothing to connect to again.
    var resetRefusal: String? {
        "a pn532-target card is a program driving the chip; it ends when the card is released, so it cannot be reset"
    }

    func connect() async throws -> any TagConnection {
        let reader: PN532TargetReader
        do {
            reader = try PN532TargetReader(linkPath: path)
        } catch {
            throw CLIError(.permission, error.reason)
        }
        let slot = TemporaryFiles.register(path)
        state.withLock {
            $0.reader = reader
            $0.slot = slot
        }
        Output.error(
            "waiting for a program to drive the PN532 at \(path) as a target "
                + "(e.g. LIBNFC_DEVICE=pn532_uart:\(path) nfc-emulate-forum-tag4 FILE)")
        let target = try await arrival(on: reader)
        do {
            let connection = try await reader.connect(to: target, meter: meter)
            state.withLock { $0.connection = connection }
            return connection
        } catch {
            throw CLIError("\(reader.name): \(error.reason)")
        }
    }

    /// The program's card, once it offers one.
    private func arrival(on reader: PN532TargetReader) async throws -> TargetInfo {
        let events = await reader.events(matching: .all)
        let found = await withTaskGroup(of: TargetInfo?.self) { group in
            group.addTask {
                for await event in events {
                    if case .targetArrived(let target) = event { return target }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: Self.arrivalLimit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else {
            _ = await reader.stop()
            TemporaryFiles.unregister(state.withLock { $0.slot })
            throw CLIError(.notFound, "no program drove the PN532 at \(path) as a target within \(Self.arrivalLimit)")
        }
        return found
    }

    func finish() async throws -> TagImageSaveOutcome {
        let (reader, connection, slot) = state.withLock { $0 }
        if let connection {
            await connection.disconnect()
            try? await Task.sleep(for: Self.releaseGrace)
        }
        await reader?.stop()
        TemporaryFiles.unregister(slot)
        return .unchanged
    }
}
