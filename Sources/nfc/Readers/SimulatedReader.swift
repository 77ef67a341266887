import Foundation
import NFCBytes
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

    /// Where `--reader sim` keeps its tag: `$OPENCORENFC_SIM_IMAGE`, else
    /// `$XDG_DATA_HOME/opencorenfc/sim-tag.json` (`~/.local/share/…` by default; on macOS
    /// `~/Library/Application Support/OpenCoreNFC/sim-tag.json`).
    static var defaultImagePath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["OPENCORENFC_SIM_IMAGE"], !path.isEmpty { return path }
        #if os(macOS)
        let base = (environment["HOME"] ?? NSHomeDirectory()) + "/Library/Application Support/OpenCoreNFC"
        #else
        let base = (environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")) + "/opencorenfc"
        #endif
        return base + "/sim-tag.json"
    }

    /// Opens the reader named by `--reader`, or `nil` when it is not a simulated one.
    static func open(_ name: String, access: TagImageAccess, removeAfter: Int?) async throws -> SimulatedReader? {
        let path: String
        if name == "sim" {
            path = defaultImagePath
            try createWelcomeTagIfMissing(at: path)
        } else if name.hasPrefix("sim:") {
            path = String(name.dropFirst(4))
            guard !path.isEmpty else { throw CLIError(.usage, "sim: needs a tag image path (sim:FILE)") }
        } else {
            return nil
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

    /// Creates the default tag on first use; two commands starting at once create it once.
    private static func createWelcomeTagIfMissing(at path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try TagImageStore.create(try welcomeTag(), at: path)
        } catch let error as TagImageError where error.code == .exists {
            return
        } catch {
            throw CLIError(.permission, "cannot create the simulated tag \(path): \(error)")
        }
        Output.error("created a virtual NTAG216 at \(path) (nfc tag new … -o \(path) --force to change it)")
    }

    /// The tag `--reader sim` starts with: an NTAG216 holding a Smart Poster (a URI and a
    /// title), so that the first `nfc read` shows something.
    static func welcomeTag() throws -> Type2Tag {
        let message: [UInt8] = (try? Hex.decode("d10222537091010e55036e66632d666f72756d2e6f726751010c5402656e48656c6c6f204e4643")) ?? []
        var image = Type2Tag(model: .ntag216).image
        var memory = image.memory.bytes
        let tlv = [0x03, UInt8(message.count)] + message + [0xFE]
        memory.replaceSubrange(16..<(16 + tlv.count), with: tlv)
        image.memory = HexBytes(memory)
        return try Type2Tag(image: image)
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
