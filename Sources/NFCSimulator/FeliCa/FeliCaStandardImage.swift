/// The tag image of a FeliCa Standard card: IDm, PMm, limits, and every system with its areas,
/// services, key versions and blocks. Codes are written as 2 hex bytes, most significant first.
extension FeliCaStandardTag: TagImageRepresentable {
    /// The whole non-volatile state of a FeliCa Standard card.
    public struct Image: Codable, Sendable, Hashable {
        /// IDm of system 0 (8 bytes; the other systems put their number in the upper nibble).
        public var idm: HexBytes
        /// Manufacture parameter (8 bytes).
        public var pmm: HexBytes
        /// The most blocks one Read Without Encryption may name (1–15).
        public var maximumReadBlocks: Int
        /// The most blocks one Write Without Encryption may name (1–13).
        public var maximumWriteBlocks: Int
        /// `nil` for a card without Request Specification Version and Reset Mode.
        public var specificationVersion: SpecificationVersionImage?
        /// The systems (1–16), system 0 first; system n answers with the IDm whose upper nibble of byte 0 is n.
        public var systems: [SystemImage]

        /// Creates an image from its fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(
            idm: HexBytes, pmm: HexBytes, maximumReadBlocks: Int, maximumWriteBlocks: Int,
            specificationVersion: SpecificationVersionImage?, systems: [SystemImage]
        ) {
            self.idm = idm
            self.pmm = pmm
            self.maximumReadBlocks = maximumReadBlocks
            self.maximumWriteBlocks = maximumWriteBlocks
            self.specificationVersion = specificationVersion
            self.systems = systems
        }
    }

    /// Basic version and option versions (2 bytes each, as the numbers read: `0100` is 1.00).
    public struct SpecificationVersionImage: Codable, Sendable, Hashable {
        /// The basic version (2 bytes).
        public var basicVersion: HexBytes
        /// One version per option (2 bytes each; at most 255 options).
        public var optionVersions: [HexBytes]
        /// Creates the versions from their fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(basicVersion: HexBytes, optionVersions: [HexBytes]) {
            self.basicVersion = basicVersion
            self.optionVersions = optionVersions
        }
    }

    /// One system in an image.
    public struct SystemImage: Codable, Sendable, Hashable {
        /// The system code (2 bytes; no `FF` byte, and unique on the card).
        public var systemCode: HexBytes
        /// The areas; the first is area 0, code `0000`, end `FFFE`.
        public var areas: [AreaImage]
        /// The services, each with its codes and blocks.
        public var services: [ServiceImage]
        /// Creates a system from its fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(systemCode: HexBytes, areas: [AreaImage], services: [ServiceImage]) {
            self.systemCode = systemCode
            self.areas = areas
            self.services = services
        }
    }

    /// One area in an image.
    public struct AreaImage: Codable, Sendable, Hashable {
        /// The area code (2 bytes): number << 6 | attribute `000000` (may hold sub-areas) or `000001` (may not).
        public var code: HexBytes
        /// The end code (2 bytes): end number << 6 | `111111`, not below the area (`FFFE` for area 0).
        public var end: HexBytes
        /// The area key's version, which Request Service reports.
        public var keyVersion: UInt16
        /// Creates an area from its fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(code: HexBytes, end: HexBytes, keyVersion: UInt16) {
            self.code = code
            self.end = end
            self.keyVersion = keyVersion
        }
    }

    /// One service (its overlap codes) in an image.
    public struct ServiceImage: Codable, Sendable, Hashable {
        /// The codes that reach the service's blocks: one number and kind (random, cyclic or purse), one access each.
        public var codes: [ServiceCodeImage]
        /// The blocks, 16 bytes each; a purse service has exactly one.
        public var blocks: [HexBytes]
        /// Creates a service from its fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(codes: [ServiceCodeImage], blocks: [HexBytes]) {
            self.codes = codes
            self.blocks = blocks
        }
    }

    /// A service code and its key version.
    public struct ServiceCodeImage: Codable, Sendable, Hashable {
        /// The service code (2 bytes): number << 6 | attribute.
        public var code: HexBytes
        /// The key version of this code, which Request Service reports.
        public var keyVersion: UInt16
        /// Creates a code entry from its fields as given; ``FeliCaStandardTag/init(image:)`` checks them.
        public init(code: HexBytes, keyVersion: UInt16) {
            self.code = code
            self.keyVersion = keyVersion
        }
    }

    /// The card's non-volatile state: IDm, PMm, block limits, specification version and every system.
    public var image: Image {
        let version = specificationVersion.map {
            SpecificationVersionImage(
                basicVersion: FeliCaImageCheck.hex($0.basicVersion), optionVersions: $0.optionVersions.map(FeliCaImageCheck.hex))
        }
        let systems = systems.map { system in
            SystemImage(
                systemCode: FeliCaImageCheck.hex(system.code),
                areas: system.areas.map {
                    AreaImage(code: FeliCaImageCheck.hex($0.code), end: FeliCaImageCheck.hex($0.endCode), keyVersion: $0.keyVersion)
                },
                services: system.services.map { service in
                    ServiceImage(
                        codes: zip(service.codes, service.keyVersions).map {
                            ServiceCodeImage(code: FeliCaImageCheck.hex($0), keyVersion: $1)
                        },
                        blocks: service.blocks.map(HexBytes.init)
                    )
                }
            )
        }
        return Image(
            idm: HexBytes(idm), pmm: HexBytes(pmm), maximumReadBlocks: maximumReadBlocks,
            maximumWriteBlocks: maximumWriteBlocks, specificationVersion: version, systems: systems
        )
    }

    /// Rebuilds a card from an image, checked as the initializer that takes a custom layout checks it; the volatile
    /// state (mode, time-slot choice) starts fresh.
    ///
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field: a code that is not 2 bytes, more than 255 option
    /// versions, or a layout that cannot exist (IDm or PMm not 8 bytes, block limits out of range, a code used twice,
    /// an attribute or end code the card does not have, a block not 16 bytes).
    public init(image: Image) throws(TagImageError) {
        var version: SpecificationVersion?
        if let spec = image.specificationVersion {
            var options: [UInt16] = []
            for (index, option) in spec.optionVersions.enumerated() {
                options.append(try FeliCaImageCheck.code(option, field: "specificationVersion.optionVersions[\(index)]"))
            }
            guard options.count <= 0xFF else {
                throw TagImageError(.invalidValue, field: "specificationVersion.optionVersions", "at most 255 options")
            }
            version = SpecificationVersion(
                basicVersion: try FeliCaImageCheck.code(spec.basicVersion, field: "specificationVersion.basicVersion"),
                optionVersions: options
            )
        }
        var systems: [System] = []
        for (index, system) in image.systems.enumerated() {
            let field = "systems[\(index)]"
            var areas: [Area] = []
            for (position, area) in system.areas.enumerated() {
                let path = "\(field).areas[\(position)]"
                areas.append(
                    Area(
                        code: try FeliCaImageCheck.code(area.code, field: "\(path).code"),
                        endCode: try FeliCaImageCheck.code(area.end, field: "\(path).end"),
                        keyVersion: area.keyVersion
                    ))
            }
            var services: [Service] = []
            for (position, service) in system.services.enumerated() {
                let path = "\(field).services[\(position)]"
                var codes: [UInt16] = []
                for (entry, code) in service.codes.enumerated() {
                    codes.append(try FeliCaImageCheck.code(code.code, field: "\(path).codes[\(entry)].code"))
                }
                services.append(Service(codes: codes, keyVersions: service.codes.map(\.keyVersion), blocks: service.blocks.map(\.bytes)))
            }
            systems.append(
                System(code: try FeliCaImageCheck.code(system.systemCode, field: "\(field).systemCode"), areas: areas, services: services))
        }
        try self.init(
            idm: image.idm.bytes, pmm: image.pmm.bytes, systems: systems, maximumReadBlocks: image.maximumReadBlocks,
            maximumWriteBlocks: image.maximumWriteBlocks, specificationVersion: version
        )
    }
}
