import Crypto

extension WalletApplet {
    /// A phone's Wallet as stored in a tag image (`"applet": "wallet"`): its passes with their
    /// messages and the merchants' public keys. No secret is stored: the merchant's private key
    /// stays with the merchant (the terminal app).
    public struct Image: Codable, Sendable, Hashable {
        /// One pass as stored.
        public struct PassImage: Codable, Sendable, Hashable {
            /// The pass type identifier.
            public var passTypeIdentifier: String
            /// The pass's `nfc.message`, at most 64 bytes.
            public var message: HexBytes
            /// The merchant's P-256 public key, ANSI X9.63 uncompressed (65 bytes, `04` ‖ X ‖ Y).
            public var merchantKey: HexBytes
            /// How the phone answers for it.
            public var release: Pass.Release

            /// A pass image from its fields as given; ``WalletApplet/init(image:)`` checks them.
            public init(passTypeIdentifier: String, message: HexBytes, merchantKey: HexBytes, release: Pass.Release) {
                self.passTypeIdentifier = passTypeIdentifier
                self.message = message
                self.merchantKey = merchantKey
                self.release = release
            }
        }

        /// `OSE.VAS.01` as hex.
        public var aid: HexBytes
        /// The passes, in the order the phone searches them.
        public var passes: [PassImage]
    }

    /// The applet's image.
    public var image: Image {
        Image(
            aid: HexBytes(aid),
            passes: passes.map {
                Image.PassImage(
                    passTypeIdentifier: $0.passTypeIdentifier, message: HexBytes($0.message),
                    merchantKey: HexBytes(Array($0.merchantKey.x963Representation)), release: $0.release)
            })
    }

    /// A phone from its image.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: an AID other than
    ///   `OSE.VAS.01`, an empty pass type identifier, a message over 64 bytes, a merchant key that
    ///   is not a P-256 point.
    public init(image: Image) throws(TagImageError) {
        guard image.aid.bytes == Self.applicationIdentifier else {
            throw TagImageError(.invalidValue, field: "aid", "a Wallet's VAS application is OSE.VAS.01 (4F53452E5641532E3031)")
        }
        var passes: [Pass] = []
        for (index, pass) in image.passes.enumerated() {
            guard !pass.passTypeIdentifier.isEmpty else {
                throw TagImageError(.invalidValue, field: "passes[\(index)].passTypeIdentifier", "a pass type identifier cannot be empty")
            }
            guard pass.message.bytes.count <= 64 else {
                throw TagImageError(
                    .invalidValue, field: "passes[\(index)].message",
                    "a pass message holds at most 64 bytes, not \(pass.message.bytes.count)")
            }
            let key: P256.KeyAgreement.PublicKey
            do {
                key = try P256.KeyAgreement.PublicKey(x963Representation: pass.merchantKey.bytes)
            } catch {
                throw TagImageError(
                    .invalidValue, field: "passes[\(index)].merchantKey", "not an uncompressed P-256 public key (65 bytes, 04 ‖ X ‖ Y)")
            }
            passes.append(
                Pass(passTypeIdentifier: pass.passTypeIdentifier, message: pass.message.bytes, merchantKey: key, release: pass.release))
        }
        self.init(passes: passes)
    }
}
