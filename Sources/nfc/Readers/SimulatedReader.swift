import Foundation
import NFCReaders
import NFCSimulator
import NFCTags
import NFCTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tags in a simulated field for one CLI command: loaded from their images, saved back after.
///
/// `--reader sim` uses a persistent virtual tag in the user's data directory (created on
/// first use as an NTAG216 holding a Smart Poster) so that `write` then `read` work across runs;
/// `--reader sim:FILE` uses a given image; `--reader sim:FOLDER` puts every image in the folder
/// (`*.json`) in the field at once, for `nfc scan --all` (a command on one tag refuses a field
/// holding several, as a phone does). Each image is opened through ``TagImageStore``: locked
/// (shared to read, exclusive to modify) from load to save, and written back only when the tag
/// changed — also when the tag was pulled out mid-command (`--remove-after`), which is how one
/// sees what an interrupted write leaves behind.
struct SimulatedReader: CLIReader {
    let images: [(handle: TagImageStore.Handle, id: VirtualTagID)]
    let field: SimulatedField
    /// The folder the images came from, for `sim:FOLDER`.
    let folder: String?
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
        var status = stat()
        let isFolder = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        let paths = isFolder ? try folderImages(path, access: access) : [path]
        var handles: [TagImageStore.Handle] = []
        for file in paths {
            do {
                handles.append(try TagImageStore.open(file, for: access, timeout: lockTimeout))
            } catch {
                handles.forEach { $0.close() }
                throw CLIError(imageError: error, path: file)
            }
        }
        let field = SimulatedField()
        var images: [(handle: TagImageStore.Handle, id: VirtualTagID)] = []
        for handle in handles {
            let id = await field.place(handle.tag)
            if let removeAfter { await field.inject(.removeAfterCommands(removeAfter), into: id) }
            images.append((handle, id))
        }
        return SimulatedReader(images: images, field: field, folder: isFolder ? path : nil)
    }

    /// The images of `sim:FOLDER`, in name order: only to read (several tags are one field to
    /// look at; a change needs one tag, `sim:FILE`).
    private static func folderImages(_ folder: String, access: TagImageAccess) throws -> [String] {
        guard access == .read else {
            throw CLIError(.usage, "sim:\(folder) is a folder of tags; a command that changes a tag needs one image (sim:FILE)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw CLIError(.notFound, "cannot list \(folder): \(error.localizedDescription)", file: folder)
        }
        guard !names.isEmpty else { throw CLIError(.notFound, "no tag images (*.json) in \(folder)", file: folder) }
        return names.map { (folder as NSString).appendingPathComponent($0) }
    }

    /// How long to wait for another command's lock on the image: `$OPENCORENFC_LOCK_TIMEOUT`
    /// seconds, else ``TagImageStore/defaultTimeout`` (10 s).
    static var lockTimeout: Duration {
        guard let text = ProcessInfo.processInfo.environment["OPENCORENFC_LOCK_TIMEOUT"], let seconds = Double(text),
            seconds >= 0, seconds <= 86_400
        else { return TagImageStore.defaultTimeout }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// Connects to the tag; a field holding several is refused.
    func connect() async throws -> any TagConnection {
        let targets = try await allTargets() ?? []
        guard let target = targets.first else { throw CLIError("no tag in the field") }
        guard targets.count == 1 else {
            throw CLIError(
                .usage,
                "\(targets.count) tags in the field (sim:\(folder ?? "")): nfc scan --all lists them; a command on one tag needs one image (sim:FILE)"
            )
        }
        return try await connect(to: target)
    }

    /// Every tag in the field.
    func allTargets() async throws -> [TargetInfo]? {
        do {
            return try await field.targets(matching: .all)
        } catch {
            throw CLIError("cannot poll: \(error)")
        }
    }

    func connect(to target: TargetInfo) async throws -> any TagConnection {
        do {
            return try await field.connect(to: target, meter: meter)
        } catch {
            throw CLIError("cannot connect: \(error)")
        }
    }

    /// Saves each tag's state back to its image if it changed (whether or not the tag is still in
    /// the field), then releases the images' locks. One image that cannot be saved does not keep
    /// the others from being saved; the first failure is thrown after.
    func finish() async throws -> TagImageSaveOutcome {
        defer { images.forEach { $0.handle.close() } }
        var outcome = TagImageSaveOutcome.unchanged
        var failure: CLIError?
        for (handle, id) in images {
            guard let tag = await field.tag(id) else { continue }
            do {
                let saved = try handle.save(tag)
                if case .unchanged = outcome { outcome = saved }
            } catch {
                failure = failure ?? CLIError(imageError: error, path: handle.path, doing: "cannot save")
            }
        }
        if let failure { throw failure }
        return outcome
    }
}
