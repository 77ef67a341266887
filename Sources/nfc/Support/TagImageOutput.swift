import NFCSimulator

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing new tag images (`nfc tag new`, `nfc tag import`) and warning about exposed secrets.
enum TagImageOutput {
    /// Creates the image (`0600` when it holds secrets), refusing to replace a file unless `replace`.
    static func create(_ tag: any VirtualTag, at path: String, replace: Bool) throws {
        do {
            try TagImageStore.create(tag, at: path, replace: replace)
        } catch let error where error.code == .exists {
            throw CLIError(.badInput, "\(path) exists; pass --force to replace it", file: path)
        } catch {
            throw CLIError(imageError: error, path: path, doing: "cannot write")
        }
        if let warning = exposureWarning(tag, at: path) { Output.error(warning) }
    }

    /// A warning when an image holding secrets (keys, PINs, OATH secrets, a tag password) can be
    /// read or written by users other than its owner; `nil` otherwise.
    static func exposureWarning(_ tag: any VirtualTag, at path: String) -> String? {
        guard TagImageFile.holdsSecrets(tag) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return nil }
        let mode = String(status.st_mode & 0o777, radix: 8)
        return "warning: \(path) holds secrets (keys, PINs or passwords) and is readable by others (mode \(mode)); run: chmod 600 \(path)"
    }
}
