// `$NAME` / `${NAME}` in header values and URLs, expanded from the environment when a configuration is loaded
// (the realtime sources' config, the static feeds' URLs and headers).

public enum EnvironmentExpansion {
    public enum Failure: Error, Equatable {
        /// The variable is not set.
        case missing(String)
        /// The variable is set to an empty string.
        case empty(String)
        /// A `$` not followed by a variable name (the text itself is not repeated: it may hold a secret).
        case syntax
    }

    /// Expands `$NAME` and `${NAME}` (NAME = letter or `_`, then letters, digits, `_`); `$$` is a literal `$`.
    /// Returns the expanded text and the names of the variables used.
    public static func expand(_ text: String, environment: [String: String]) throws(Failure) -> (
        text: String, variables: [String]
    ) {
        guard text.contains("$") else { return (text, []) }
        var out = ""
        var used: [String] = []
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            guard c == "$" else {
                out.append(c)
                i = text.index(after: i)
                continue
            }
            var j = text.index(after: i)
            guard j < text.endIndex else { throw .syntax }
            if text[j] == "$" {
                out.append("$")
                i = text.index(after: j)
                continue
            }
            let braced = text[j] == "{"
            if braced { j = text.index(after: j) }
            let nameStart = j
            while j < text.endIndex, isNameCharacter(text[j], first: j == nameStart) { j = text.index(after: j) }
            let name = String(text[nameStart..<j])
            guard !name.isEmpty else { throw .syntax }
            if braced {
                guard j < text.endIndex, text[j] == "}" else { throw .syntax }
                j = text.index(after: j)
            }
            guard let value = environment[name] else { throw .missing(name) }
            guard !value.isEmpty else { throw .empty(name) }
            out += value
            used.append(name)
            i = j
        }
        return (out, used)
    }

    private static func isNameCharacter(_ c: Character, first: Bool) -> Bool {
        guard c.isASCII else { return false }
        if c == "_" || c.isLetter { return true }
        return !first && c.isNumber
    }
}
