import Foundation
import NFCeMRTD
import X509

/// Country Signing CA certificates from files: PEM (one or more certificates), DER, or a CSCA
/// master list (ICAO Doc 9303 Part 12 §9, `.ml`), or every `.pem`, `.crt`, `.cer`, `.der` and
/// `.ml` file of a directory.
enum CSCAStore {
    static func load(_ paths: [String]) throws -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError(.notFound, "\(path): no such file or directory", file: path)
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let files = names.filter { ["pem", "crt", "cer", "der", "ml"].contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted()
                for name in files { certificates += try read((path as NSString).appendingPathComponent(name)) }
            } else {
                certificates += try read(path)
            }
        }
        return certificates
    }

    /// The certificates of one file.
    static func read(_ path: String) throws -> [Certificate] {
        let bytes = try Input.readFile(path, limit: 4 << 20)
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN CERTIFICATE-----") {
            var found: [Certificate] = []
            var rest = Substring(text)
            while let start = rest.range(of: "-----BEGIN CERTIFICATE-----"),
                let end = rest.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<rest.endIndex)
            {
                do {
                    found.append(try Certificate(pemEncoded: String(rest[start.lowerBound..<end.upperBound])))
                } catch {
                    throw CLIError(.badInput, "\(path): certificate \(found.count + 1) is not valid PEM X.509: \(error)", file: path)
                }
                rest = rest[end.upperBound...]
            }
            return found
        }
        if CSCAMasterList.isMasterList(bytes) {
            do {
                return try CSCAMasterList.certificates(bytes)
            } catch {
                throw CLIError(.badInput, "\(path): \(error.reason)", file: path)
            }
        }
        do {
            return [try Certificate(derEncoded: bytes)]
        } catch {
            throw CLIError(.badInput, "\(path): neither PEM nor DER X.509 certificates nor a CSCA master list", file: path)
        }
    }
}
