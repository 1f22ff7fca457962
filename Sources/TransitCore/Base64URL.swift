/// base64url without padding (RFC 4648 §5), the text form of the board cursors. Written out by hand: the
/// Foundation route (base64 then three `replacingOccurrences`) cost more than the rest of a cursor.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The encoding of the UTF-8 bytes of `text`.
    public static func encode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { encode(bytes: $0) }
    }

    /// The encoding of `bytes`.
    public static func encode(bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: count) { out in
            var o = 0, i = 0
            while i + 3 <= bytes.count {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = alphabet[Int(v >> 18)]
                out[o + 1] = alphabet[Int(v >> 12 & 63)]
                out[o + 2] = alphabet[Int(v >> 6 & 63)]
                out[o + 3] = alphabet[Int(v & 63)]
                i += 3
                o += 4
            }
            let rest = bytes.count - i
            if rest > 0 {
                let v = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                out[o] = alphabet[Int(v >> 18)]
                out[o + 1] = alphabet[Int(v >> 12 & 63)]
                o += 2
                if rest == 2 {
                    out[o] = alphabet[Int(v >> 6 & 63)]
                    o += 1
                }
            }
            return o
        }
    }
}
