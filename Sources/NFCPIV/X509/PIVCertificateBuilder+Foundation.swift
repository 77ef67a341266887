#if canImport(Foundation)
import Foundation

extension PIVCertificateBuilder {
    /// A builder valid between two dates (rounded down to whole seconds).
    public init(commonName: String, publicKey: [UInt8], serialNumber: [UInt8], notBefore: Date, notAfter: Date) {
        self.init(
            commonName: commonName, publicKey: publicKey, serialNumber: serialNumber,
            notBefore: Int64(notBefore.timeIntervalSince1970.rounded(.down)),
            notAfter: Int64(notAfter.timeIntervalSince1970.rounded(.down))
        )
    }
}
#endif
