import TransitPresentation

/// How many colours the output may use.
public enum ColorMode: Sendable, Hashable {
    /// No escape sequences at all: `--plain`, NO_COLOR, or output that is not a terminal.
    case none
    /// The xterm 256-colour palette (route colours to their nearest cube colour).
    case palette256
    /// 24-bit colour, where COLORTERM says `truecolor` or `24bit`.
    case trueColor

    /// The mode for this process: NO_COLOR (set and not empty, https://no-color.org) or not a terminal → none;
    /// COLORTERM `truecolor`/`24bit` → 24-bit; else 256 colours.
    public static func detect(environment: [String: String], isTerminal: Bool) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        if !isTerminal { return .none }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": return .trueColor
        default: return .palette256
        }
    }
}

/// An sRGB colour.
public struct RGB: Sendable, Hashable {
    public var red: UInt8, green: UInt8, blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#RRGGBB` (the protocol's route colours); nil for anything else.
    public init?(hex: String?) {
        guard let hex, hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else {
            return nil
        }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// The nearest colour of the 6×6×6 cube of the 256-colour palette (indices 16–231).
    public var palette256: Int {
        func level(_ v: UInt8) -> Int { Int((Double(v) / 255 * 5).rounded()) }
        return 16 + 36 * level(red) + 6 * level(green) + level(blue)
    }

    /// The terminal colour of a semantic presentation colour (badges, banners).
    public init(_ color: PresentationColor) {
        switch color {
        case .green: self.init(0x30, 0xD1, 0x58)
        case .gray: self.init(0x8E, 0x8E, 0x93)
        case .orange: self.init(0xFF, 0x9F, 0x0A)
        case .red: self.init(0xFF, 0x45, 0x3A)
        case .yellow: self.init(0xFF, 0xD6, 0x0A)
        }
    }
}

/// Text attributes; `apply` wraps text in SGR escapes for a colour mode (none: the text unchanged).
public struct TextStyle: Sendable, Hashable {
    public var foreground: RGB?
    public var background: RGB?
    public var bold = false
    public var dim = false
    public var strikethrough = false

    public init(
        foreground: RGB? = nil, background: RGB? = nil, bold: Bool = false, dim: Bool = false,
        strikethrough: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.strikethrough = strikethrough
    }

    public func apply(_ text: String, mode: ColorMode) -> String {
        guard mode != .none, !text.isEmpty else { return text }
        var codes: [String] = []
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if strikethrough { codes.append("9") }
        if let foreground { codes.append(Self.color(foreground, base: 38, mode: mode)) }
        if let background { codes.append(Self.color(background, base: 48, mode: mode)) }
        guard !codes.isEmpty else { return text }
        return "\u{1B}[\(codes.joined(separator: ";"))m\(text)\u{1B}[0m"
    }

    private static func color(_ rgb: RGB, base: Int, mode: ColorMode) -> String {
        mode == .trueColor ? "\(base);2;\(rgb.red);\(rgb.green);\(rgb.blue)" : "\(base);5;\(rgb.palette256)"
    }
}

/// Terminal columns of a string: one per character (the board's glyphs are all single-width), so padding
/// works on text before styling.
enum Columns {
    static func pad(_ text: String, _ width: Int) -> String {
        let count = text.count
        if count == width { return text }
        if count < width { return text + String(repeating: " ", count: width - count) }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : String(repeating: " ", count: width - text.count) + text
    }
}
