import Foundation
import NFCReaders
import NFCSimulator
import NFCTags
import NFCTransport

/// A tag in a simulated field for one CLI command: loaded from its image, saved back after.
///
/// `--reader sim` uses a persistent virtual tag in the user's data directory (created on
/// first use as an NTAG216 holding a Smart Poster) so that `write` then `read` work across runs;
/// `--reader sim:FILE` uses a given image. The image is opened through ``TagImageStore``: locked
/// (shared to read, exclusive to modify) from load to save, and written back only when the tag
/// changed — also when the tag was pulled out mid-command (`--remove-after`), which is how one
/// sees what an interrupted write leaves behind.
struct SimulatedReader: CLIReader {
    let image: TagImageStore.Handle
    let field: SimulatedField
    let tagID: VirtualTagID
    let meter = AirTimeMeter()

    /// Opens the simulated reader `name` names, or `nil` when it names PC/SC readers.
    static func open(_ name: ReaderName, access: TagImageAccess, removeAfter: Int?) async throws -> SimulatedReader? {
        guard case .simulator(let given) = name else { return nil }
        let path = given ?? SimulatorHome.defaultImagePath
        if given == nil {
            do {
                if try SimulatorHome.createWelcomeTagIfMissing(at: path) {
                    Output.error("created a virtual NTAG216 at \(path) (nfc tag new … -o \(path) --force to change it)")
                }
            } catch {
                throw CLIError(.permission, "cannot create the simulated tag \(path): \(error)")
            }
        }
        let image: TagImageStore.Handle
        do {
            image = try TagImageStore.open(path, for: access, timeout: lockTimeout)
        } catch {
            throw CLIError(imageError: error, path: path)
        }
        let field = SimulatedField()
        let id = await field.place(image.tag)
        if let removeAfter { await field.inject(.removeAfterCommands(removeAfter), into: id) }
        return SimulatedReader(image: image, field: field, tagID: id)
    }

    /// How long to wait for another command's lock on the image: `$OPENCORENFC_LOCK_TIMEOUT`
    /// seconds, else ``TagImageStore/defaultTimeout`` (10 s).
    static var lockTimeout: Duration {
        guard let text = ProcessInfo.processInfo.environment["OPENCORENFC_LOCK_TIMEOUT"], let seconds = Double(text),
            seconds >= 0, seconds <= 86_400
        else { return TagImageStore.defaultTimeout }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// Connects to the tag.
    func connect() async throws -> any TagConnection {
        do {
            guard let target = try await field.targets(matching: .all).first else {
                throw CLIError("no tag in the field")
            }
            return try await field.connect(to: target, meter: meter)
        } catch let error as TransportError {
            throw CLIError("cannot connect: \(error)")
        }
    }

    /// Saves the tag's state back to its image if it changed (whether or not the tag is still in
    /// the field), then releases the image's lock.
    func finish() async throws -> TagImageSaveOutcome {
        defer { image.close() }
        guard let tag = await field.tag(tagID) else { return .unchanged }
        do {
            return try image.save(tag)
        } catch {
            throw CLIError(imageError: error, path: image.path, doing: "cannot save")
        }
    }
}
