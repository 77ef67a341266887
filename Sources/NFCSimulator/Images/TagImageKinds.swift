/// The tag kinds tag image files can hold (filled in as tag models gain images).
enum TagImageKinds {
    static let all: [TagImageKind] = []
}
