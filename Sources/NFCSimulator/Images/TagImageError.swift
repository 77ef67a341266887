/// A tag image that cannot be loaded: unreadable, malformed, or describing a tag that cannot exist.
public struct TagImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, comparable value.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `invalidValue`.
        public let name: String
        private init(_ name: String) { self.name = name }
        /// The stable name, e.g. `invalidValue`.
        public var description: String { name }

        /// The file cannot be read or written.
        public static let io = Code("io")
        /// No file at the path (or a folder on the way is missing).
        public static let notFound = Code("notFound")
        /// The file or its folder may not be read or written by this user.
        public static let permissionDenied = Code("permissionDenied")
        /// The path names a directory, FIFO, device or socket, not a regular file.
        public static let notARegularFile = Code("notARegularFile")
        /// The file is larger than any tag image.
        public static let tooLarge = Code("tooLarge")
        /// Another command holds the image's lock for longer than this one would wait.
        public static let busy = Code("busy")
        /// `create` found a file already at the path.
        public static let exists = Code("exists")
        /// Not JSON, or not the image format (a missing or mistyped field).
        public static let malformed = Code("malformed")
        /// An image format version this build does not know.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// A tag type this build does not know.
        public static let unknownType = Code("unknownType")
        /// A field holds a value the chip cannot have (a UID of the wrong length, memory of the
        /// wrong size, a configuration byte out of range, a file larger than its declared size).
        public static let invalidValue = Code("invalidValue")
    }

    /// What went wrong; compare it, not the message.
    public let code: Code
    /// Where in the image: a field path such as `memory` or `files[1].data`.
    public let field: String
    /// What is wrong, for people.
    public let reason: String
    /// The byte offset in the image file, when the problem is at a known place.
    public let offset: Int?

    /// An error with a code, the field path (empty when the problem is not in one field), the byte offset when known,
    /// and the reason.
    public init(_ code: Code, field: String = "", offset: Int? = nil, _ reason: String) {
        self.code = code
        self.field = field
        self.offset = offset
        self.reason = reason
    }

    /// Errors are equal when their codes are: the field, reason and offset do not count.
    public static func == (lhs: TagImageError, rhs: TagImageError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code alone, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `code: reason`, or `code at field: reason` when a field is known.
    public var description: String {
        field.isEmpty ? "\(code.name): \(reason)" : "\(code.name) at \(field): \(reason)"
    }
}

/// A virtual tag whose whole state saves to and loads from a tag image.
public protocol TagImageRepresentable: VirtualTag {
    /// The type-specific part of the image (UID, memory, files, configuration, counters, keys).
    associatedtype Image: Codable, Sendable, Hashable
    /// The tag's state as an image.
    var image: Image { get }
    /// Rebuilds a tag from an image, checking that it describes a tag that can exist.
    /// - Throws: ``TagImageError`` `.invalidValue` naming the field.
    init(image: Image) throws(TagImageError)
}
