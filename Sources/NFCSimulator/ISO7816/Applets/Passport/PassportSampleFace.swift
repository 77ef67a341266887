import NFCBytes

/// The face image a virtual passport carries when none is given: a 30 × 40 grey silhouette,
/// JPEG (341 bytes), drawn for this project.
enum PassportSampleFace {
    /// Its pixel width.
    static let width = 30
    /// Its pixel height.
    static let height = 40
    /// The JPEG bytes.
    static let jpeg: [UInt8] =
        (try? Hex.decode(
            [
                "ffd8ffe000104a46494600010100000100010000ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123",
                "251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d71797064785c656763ffc0000b080028",
                "001e01011100ffc400190000030101010000000000000000000000030506010200ffc4002a1000020202010007090000",
                "00000000000001020311000412061321314171a134445173818291b1c1ffda0008010100003f00a4c14db30c15d6c814",
                "9f0ef3f8cd8678a75e513861ea30998ec110b31a55164e4dcd2b4d2b48f5c9be184d39cebec2bd80a7b1ac78650e7132",
                "192091055b2902fcb26b3a8d0c922a0ab6200bca6c06cee41a9c7af93872baec26ebcb13ee4ba334a648b6554b77a946",
                "03cfbb09a3b1a1acfd649b219ea8008d43d31b6becc5b519781f928344d11dbf5c53d24f76fbbf988f3d945d1ef617f9",
                "a7f433ffd9",
            ].joined())) ?? []
}
