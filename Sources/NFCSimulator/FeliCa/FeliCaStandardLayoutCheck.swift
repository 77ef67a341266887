/// The rules a FeliCa Standard layout must follow to describe a card that can exist.
///
/// FeliCa Card User's Manual Excerpted Edition v2.0 §3: at most 16 systems (the system number
/// is the IDm's upper nibble), system codes unique and free of the `FF` wildcard byte; each
/// system's first area is area 0 (`0000`–`FFFE`); area attributes `000000`/`000001`, end codes
/// `…111111` not below the area; service attributes random, cyclic or purse, overlap codes of one
/// service sharing its number and kind; no code twice in a system; a purse has exactly one block;
/// every block 16 bytes. Up to 15 blocks per read and 13 per write fit a frame (LEN ≤ 255).
enum FeliCaStandardLayoutCheck {
    static func validate(_ tag: FeliCaStandardTag) throws(TagImageError) {
        guard tag.idm.count == 8 else {
            throw TagImageError(.invalidValue, field: "idm", "8 bytes expected, \(tag.idm.count) given")
        }
        guard tag.idm[0] >> 4 == 0 else {
            throw TagImageError(.invalidValue, field: "idm", "the upper nibble of byte 0 is the system number, 0 for system 0")
        }
        guard tag.pmm.count == 8 else {
            throw TagImageError(.invalidValue, field: "pmm", "8 bytes expected, \(tag.pmm.count) given")
        }
        guard (1...15).contains(tag.maximumReadBlocks) else {
            throw TagImageError(.invalidValue, field: "maximumReadBlocks", "1 to 15 blocks fit one read response")
        }
        guard (1...13).contains(tag.maximumWriteBlocks) else {
            throw TagImageError(.invalidValue, field: "maximumWriteBlocks", "1 to 13 blocks fit one write command")
        }
        guard (1...16).contains(tag.systems.count) else {
            throw TagImageError(.invalidValue, field: "systems", "a card has 1 to 16 systems, not \(tag.systems.count)")
        }
        var systemCodes: Set<UInt16> = []
        for (index, system) in tag.systems.enumerated() {
            let field = "systems[\(index)]"
            guard system.code >> 8 != 0xFF, system.code & 0xFF != 0xFF else {
                throw TagImageError(.invalidValue, field: "\(field).systemCode", "FF is the polling wildcard")
            }
            guard systemCodes.insert(system.code).inserted else {
                throw TagImageError(.invalidValue, field: "\(field).systemCode", "system code used twice")
            }
            try validate(system, field: field)
        }
    }

    private static func validate(_ system: FeliCaStandardTag.System, field: String) throws(TagImageError) {
        guard let root = system.areas.first, root.code == 0x0000, root.endCode == 0xFFFE else {
            throw TagImageError(.invalidValue, field: "\(field).areas[0]", "the first area is area 0, 0000–FFFE")
        }
        var codes: Set<UInt16> = []
        for (index, area) in system.areas.enumerated() {
            let path = "\(field).areas[\(index)]"
            guard area.code & 0x3F <= 0x01 else {
                throw TagImageError(.invalidValue, field: "\(path).code", "an area attribute is 000000 or 000001")
            }
            guard area.endCode & 0x3F == 0x3F || (index == 0 && area.endCode == 0xFFFE), area.endCode >> 6 >= area.code >> 6 else {
                throw TagImageError(.invalidValue, field: "\(path).end", "an end code is number·64 + 63, not below the area")
            }
            guard codes.insert(area.code).inserted else {
                throw TagImageError(.invalidValue, field: "\(path).code", "code used twice in the system")
            }
        }
        for (index, service) in system.services.enumerated() {
            let path = "\(field).services[\(index)]"
            guard !service.codes.isEmpty else {
                throw TagImageError(.invalidValue, field: "\(path).codes", "a service has at least one code")
            }
            guard service.keyVersions.count == service.codes.count else {
                throw TagImageError(.invalidValue, field: "\(path).codes", "one key version per code")
            }
            let kind = FeliCaServiceAttribute(code: service.codes[0]).kind
            for (position, code) in service.codes.enumerated() {
                let codePath = "\(path).codes[\(position)]"
                guard let own = FeliCaServiceAttribute(code: code).kind, own == kind else {
                    throw TagImageError(.invalidValue, field: codePath, "not a random, cyclic or purse attribute matching the service")
                }
                guard code >> 6 == service.number else {
                    throw TagImageError(.invalidValue, field: codePath, "overlap codes share the service number")
                }
                guard codes.insert(code).inserted else {
                    throw TagImageError(.invalidValue, field: codePath, "code used twice in the system")
                }
            }
            guard !service.blocks.isEmpty, kind != .purse || service.blocks.count == 1 else {
                throw TagImageError(.invalidValue, field: "\(path).blocks", "a service has blocks; a purse exactly one")
            }
            for (position, block) in service.blocks.enumerated() where block.count != 16 {
                throw TagImageError(.invalidValue, field: "\(path).blocks[\(position)]", "16 bytes expected, \(block.count) given")
            }
        }
    }
}
