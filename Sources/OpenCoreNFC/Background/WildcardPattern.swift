/// A pattern of an apple-app-site-association file: `*` matches any run of characters (none
/// included), `?` exactly one, and `?*` therefore one or more; every other character matches
/// itself (Apple, "Supporting associated domains", the `components` and `paths` keys).
struct WildcardPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    let text: String
    /// Whether letters must match in case (`caseSensitive`, default true).
    let caseSensitive: Bool
    private let characters: [Character]

    init(_ text: String, caseSensitive: Bool = true) {
        self.text = text
        self.caseSensitive = caseSensitive
        self.characters = Array(caseSensitive ? text : text.lowercased())
    }

    var description: String { text }

    /// Whether `subject` matches the whole pattern.
    ///
    /// Greedy matching with one backtrack point for the last `*` seen: linear in practice and
    /// never worse than O(pattern × subject), whatever a hostile file holds.
    func matches(_ subject: String) -> Bool {
        let input = Array(caseSensitive ? subject : subject.lowercased())
        var p = 0
        var s = 0
        var star: Int? = nil
        var starSubject = 0
        while s < input.count {
            if p < characters.count, characters[p] == "?" || characters[p] == input[s] && characters[p] != "*" {
                p += 1
                s += 1
            } else if p < characters.count, characters[p] == "*" {
                star = p
                starSubject = s
                p += 1
            } else if let star {
                p = star + 1
                starSubject += 1
                s = starSubject
            } else {
                return false
            }
        }
        while p < characters.count, characters[p] == "*" { p += 1 }
        return p == characters.count
    }
}
