/// The tag kinds tag image files can hold, and the `type` names they answer to.
enum TagImageKinds {
    static let all: [TagImageKind] = [
        TagImageKind(Type2Tag.self, typeNames: VirtualTagKind.allCases.filter { $0.type2Model != nil }.map(\.rawValue)) { tag in
            VirtualTagKind(of: tag)?.rawValue ?? tag.model.rawValue
        },
        TagImageKind(Type1Tag.self, typeNames: [VirtualTagKind.topaz512.rawValue, VirtualTagKind.topaz96.rawValue]) { tag in
            VirtualTagKind(of: tag)?.rawValue ?? VirtualTagKind.topaz512.rawValue
        },
        TagImageKind(ISO15693Tag.self, typeNames: [VirtualTagKind.slix2.rawValue, VirtualTagKind.iso15693_2k.rawValue]) { tag in
            VirtualTagKind(of: tag)?.rawValue ?? tag.model.rawValue
        },
        TagImageKind(Type4Tag.self, typeNames: [VirtualTagKind.type4.rawValue]) { _ in VirtualTagKind.type4.rawValue },
        TagImageKind(NTAG424Tag.self, typeNames: [VirtualTagKind.ntag424.rawValue]) { _ in VirtualTagKind.ntag424.rawValue },
        TagImageKind(
            DESFireCard.self,
            typeNames: [VirtualTagKind.desfireEV1, .desfireEV2, .desfireEV3].map(\.rawValue)
        ) { card in VirtualTagKind(of: card)?.rawValue ?? VirtualTagKind.desfireEV3.rawValue },
        TagImageKind(MIFAREPlusCard.self, typeNames: [VirtualTagKind.mifarePlus.rawValue]) { _ in VirtualTagKind.mifarePlus.rawValue },
        TagImageKind(ISO7816Card.self, typeNames: [VirtualTagKind.iso7816.rawValue]) { _ in VirtualTagKind.iso7816.rawValue },
        TagImageKind(FeliCaLiteSTag.self, typeNames: [VirtualTagKind.felicaLiteS.rawValue]) { _ in VirtualTagKind.felicaLiteS.rawValue },
        TagImageKind(FeliCaStandardTag.self, typeNames: [VirtualTagKind.felica.rawValue]) { _ in VirtualTagKind.felica.rawValue },
    ]
}
