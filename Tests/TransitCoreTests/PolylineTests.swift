import Testing
import TransitCore

@Suite struct PolylineTests {
    /// The example of Google's "Encoded Polyline Algorithm Format" page.
    @Test func encodesGooglesDocumentedExample() {
        let points: [(lat: Double, lon: Double)] = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
        #expect(Polyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    /// The page's single-value walk-through: -179.9832104 is written `~oia@`.
    @Test func encodesGooglesSingleValueExample() {
        #expect(Polyline.encode(values: [-179.9832104], scale: 1e5) == "`~oia@")
    }

    @Test func decodesWhatItEncodes() throws {
        let points: [(lat: Double, lon: Double)] = [(-33.88306, 151.20657), (-33.8688, 151.20929), (-33.86, 151.2)]
        let decoded = try #require(Polyline.decode(Polyline.encode(points)))
        #expect(decoded.count == 3)
        for (a, b) in zip(points, decoded) {
            #expect(abs(a.lat - b.lat) < 1e-9 && abs(a.lon - b.lon) < 1e-9)
        }
        #expect(
            Polyline.decode(values: Polyline.encode(values: [0, 12.5, 12.5, 1234.56], scale: 100), scale: 100)
                == [0, 12.5, 12.5, 1234.56])
        #expect(Polyline.encode([]) == "")
    }

    @Test func refusesTextThatIsNoPolyline() {
        #expect(Polyline.decode("_p~iF~ps|U_ulL") == nil)  // odd count of numbers
        #expect(Polyline.decode("_") == nil)  // unfinished number
        #expect(Polyline.decode("ab cd") == nil)  // a byte outside the alphabet
    }
}
