/// Google's encoded polyline format: each value is rounded to an integer at a fixed precision, written as
/// the difference from the previous value, zig-zag signed, in 5-bit chunks (least significant first) of
/// printable ASCII (chunk + 63, 0x20 set on every chunk but the last). Points interleave latitude and
/// longitude at 1e-5 degrees; `encode(values:scale:)` writes a single series (the shapes' distances).
public enum Polyline {
    /// Degrees are stored at 1e-5 (about 1.1 m).
    public static let coordinateScale = 1e5

    /// The encoded polyline of `points` (latitude, longitude in degrees).
    public static func encode(_ points: [(lat: Double, lon: Double)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var lastLat = 0, lastLon = 0
        for point in points {
            let lat = Int((point.lat * coordinateScale).rounded())
            let lon = Int((point.lon * coordinateScale).rounded())
            append(lat - lastLat, to: &out)
            append(lon - lastLon, to: &out)
            lastLat = lat
            lastLon = lon
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One series of numbers, each rounded to a multiple of 1/`scale`, delta-encoded like the coordinates.
    public static func encode(values: [Double], scale: Double) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 4)
        var last = 0
        for value in values {
            let scaled = Int((value * scale).rounded())
            append(scaled - last, to: &out)
            last = scaled
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The points of an encoded polyline; nil when the text is not one.
    public static func decode(_ text: String) -> [(lat: Double, lon: Double)]? {
        guard let numbers = decodeIntegers(text), numbers.count % 2 == 0 else { return nil }
        var points: [(lat: Double, lon: Double)] = []
        points.reserveCapacity(numbers.count / 2)
        var lat = 0, lon = 0
        var index = 0
        while index < numbers.count {
            lat += numbers[index]
            lon += numbers[index + 1]
            points.append((Double(lat) / coordinateScale, Double(lon) / coordinateScale))
            index += 2
        }
        return points
    }

    /// The series written by `encode(values:scale:)`; nil when the text is not one.
    public static func decode(values text: String, scale: Double) -> [Double]? {
        guard let numbers = decodeIntegers(text) else { return nil }
        var value = 0
        return numbers.map { delta in
            value += delta
            return Double(value) / scale
        }
    }

    private static func append(_ value: Int, to out: inout [UInt8]) {
        var rest = UInt64(bitPattern: Int64(value < 0 ? ~(value << 1) : value << 1))
        while rest >= 0x20 {
            out.append(UInt8((0x20 | (rest & 0x1F)) + 63))
            rest >>= 5
        }
        out.append(UInt8(rest + 63))
    }

    private static func decodeIntegers(_ text: String) -> [Int]? {
        var numbers: [Int] = []
        var result: UInt64 = 0
        var shift: UInt64 = 0
        for byte in text.utf8 {
            guard byte >= 63, byte <= 126, shift < 64 else { return nil }
            let chunk = UInt64(byte - 63)
            result |= (chunk & 0x1F) << shift
            if chunk & 0x20 != 0 {
                shift += 5
                continue
            }
            let signed = Int64(bitPattern: result)
            numbers.append(Int(signed & 1 == 0 ? signed >> 1 : ~(signed >> 1)))
            result = 0
            shift = 0
        }
        return shift == 0 ? numbers : nil
    }
}
