import Foundation
import SQLiteKit
import Testing
import TransitCore
import TransitModel
import TransitStore
import TransitTesting

/// shapes.txt: one row per shape, ordered by shape_pt_sequence, distances kept when usable; malformed rows
/// named by file, line and field; the shape query by shape and by trip, and its straight-line fallback.
@Suite struct ShapeImportTests {
    /// SH1 (T1a–T1c's shape) written out of order and interleaved with SH2; SH2 has no distances; SH3 has a
    /// distance missing on one point; SH4 has a single point.
    static let shapes = """
        shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled
        SH1,-33.8731,151.2065,20,1200.5
        SH2,-33.9,151.1,1,
        SH1,-33.8830,151.2065,1,0
        SH2,-33.91,151.11,2,
        SH1,-33.8800,151.2070,5,400
        SH1,-33.8917,151.1985,30,3000.25
        SH3,-33.8,151.0,1,0
        SH3,-33.81,151.01,2,
        SH3,-33.82,151.02,3,50
        SH4,-33.8,151.0,1,0

        """

    static func importFeed(_ shapes: String, strict: Bool = false) throws -> (TemporaryFolder, ImportSummary) {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["shapes.txt"] = shapes
        let feed = try folder.writeFeed("shapes", files)
        let summary = try runImport([.init(path: feed)], into: folder.path("t.db"), strict: strict)
        return (folder, summary)
    }

    @Test func oneRowPerShapeOrderedBySequence() throws {
        let (folder, summary) = try Self.importFeed(Self.shapes)
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        #expect(
            try rows(db, "SELECT shape_id, point_count, distances IS NULL FROM shapes ORDER BY shape_id")
                == [["SH1", "4", "0"], ["SH2", "2", "1"], ["SH3", "3", "1"]])
        let polyline = try #require(try column(db, "SELECT polyline FROM shapes WHERE shape_id = 'SH1'").first)
        let points = try #require(Polyline.decode(polyline))
        #expect(points.map(\.lat) == [-33.883, -33.88, -33.8731, -33.8917])
        let skipped = summary.files.first { $0.file == "shapes.txt" }?.skipped ?? [:]
        #expect(
            skipped == [
                "shape with fewer than two points (skipped)": 1,
                "shape_dist_traveled missing on some points or decreasing (the shape's distances dropped)": 1,
            ])

        let store = try StaticStore(path: folder.path("t.db"), connections: 1)
        let shape = try store.shape(shapeId: "SH1", tripId: nil)
        #expect(shape.source == .shapes && shape.pointCount == 4 && shape.tripId == nil)
        #expect(shape.distances == [0, 400, 1200.5, 3000.25])
        #expect(try store.shape(shapeId: "SH2", tripId: nil).distances.isEmpty)
        let byTrip = try store.shape(shapeId: nil, tripId: "T1a")
        #expect(byTrip.shapeId == "SH1" && byTrip.tripId == "T1a" && byTrip.polyline == shape.polyline)
    }

    /// Grouped files are written shape by shape, split ones read again whole: both give the same rows.
    @Test func groupedAndSplitFilesGiveTheSameShapes() throws {
        let lines = Self.shapes.split(separator: "\n").map(String.init)
        let header = lines[0]
        let body = lines.dropFirst()
        // Grouped by shape, sequences still out of order within SH1; and the reverse of the original order.
        let grouped = ([header] + body.sorted { $0.prefix(3) < $1.prefix(3) }).joined(separator: "\n") + "\n"
        let reversed = ([header] + body.reversed()).joined(separator: "\n") + "\n"
        let query = "SELECT shape_id, point_count, polyline, distances FROM shapes ORDER BY shape_id"
        var answers: [[[String]]] = []
        var skips: [[String: Int]] = []
        for text in [Self.shapes, grouped, reversed] {
            let (folder, summary) = try Self.importFeed(text)
            answers.append(try rows(try Database(path: folder.path("t.db"), mode: .readOnly), query))
            skips.append(summary.files.first { $0.file == "shapes.txt" }?.skipped ?? [:])
            #expect(summary.files.filter { $0.file == "shapes.txt" }.count == 1)
        }
        #expect(answers[0].count == 3)
        #expect(answers[1] == answers[0] && answers[2] == answers[0])
        #expect(skips[1] == skips[0] && skips[2] == skips[0])
    }

    @Test func tripsWithoutAShapeGetAStraightLineThroughTheirStops() throws {
        // The test feed has no shapes.txt: T1a names SH1, which does not exist; B1 names none.
        let folder = try TemporaryFolder()
        let feed = try folder.writeFeed("noshapes", SampleFeed.files)
        try runImport([.init(path: feed)], into: folder.path("t.db"))
        let store = try StaticStore(path: folder.path("t.db"), connections: 1)
        for trip in ["T1a", "B1"] {
            let shape = try store.shape(shapeId: nil, tripId: trip)
            #expect(shape.source == .stops && shape.shapeId == nil && shape.pointCount == 3)
            #expect(shape.distances.isEmpty)
        }
        // B1: BUS1, TH, RED.
        let points = try #require(Polyline.decode(try store.shape(shapeId: nil, tripId: "B1").polyline))
        #expect(points.map(\.lat) == [-33.88, -33.8731, -33.8917])
        #expect(points.map(\.lon) == [151.21, 151.2065, 151.1985])
        #expect(throws: StoreError.notFound("shape SH1")) { try store.shape(shapeId: "SH1", tripId: nil) }
        #expect(throws: StoreError.notFound("trip NOPE")) { try store.shape(shapeId: nil, tripId: "NOPE") }
        #expect(throws: StoreError.self) { try store.shape(shapeId: "SH1", tripId: "T1a") }
    }

    @Test func malformedRowsNameFileLineAndField() throws {
        for (row, expected) in [
            ("SH9,-93.5,151.0,1,", "shapes.txt:12:2 (shape_pt_lat): shape_pt_lat -93.5 out of range -90…90"),
            ("SH9,-33.5,191.0,1,", "shapes.txt:12:3 (shape_pt_lon): shape_pt_lon 191.0 out of range -180…180"),
            ("SH9,-33.5,north,1,", "shapes.txt:12:3 (shape_pt_lon): bad number \"north\""),
            ("SH9,-33.5,151.0,-1,", "shapes.txt:12:4 (shape_pt_sequence): bad shape_pt_sequence -1"),
            ("SH9,-33.5,151.0,1,-5", "shapes.txt:12:5 (shape_dist_traveled): bad shape_dist_traveled -5.0"),
            (",-33.5,151.0,1,", "shapes.txt:12:1 (shape_id): missing value"),
        ] {
            let message = errorMessage { _ = try Self.importFeed(Self.shapes + row + "\n") }
            #expect(message?.contains(expected) == true, "\(row): \(message ?? "imported")")
        }
    }

    @Test func aRepeatedSequenceIsSkippedAndCountedOrStrictlyFatal() throws {
        let repeated = Self.shapes + "SH1,-33.0,151.0,20,1300\n"
        let (folder, summary) = try Self.importFeed(repeated)
        let skipped = summary.files.first { $0.file == "shapes.txt" }?.skipped ?? [:]
        #expect(skipped["repeated shape_pt_sequence within a shape (later row skipped)"] == 1)
        let db = try Database(path: folder.path("t.db"), mode: .readOnly)
        #expect(try column(db, "SELECT point_count FROM shapes WHERE shape_id = 'SH1'") == ["4"])

        let message = errorMessage { _ = try Self.importFeed(repeated, strict: true) }
        #expect(
            message?.hasSuffix("shapes.txt:12: repeated shape_pt_sequence within a shape (later row skipped)") == true,
            "\(message ?? "imported")")
    }

    @Test func shapesOfTwoFeedsCollideWithoutAPrefix() throws {
        let folder = try TemporaryFolder()
        var files = SampleFeed.files
        files["shapes.txt"] = Self.shapes
        let a = try folder.writeFeed("a", files)
        var other = files
        other["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nX1,X,-33,151\n"
        other["agency.txt"] =
            "agency_id,agency_name,agency_url,agency_timezone\nOTHER,O,https://o.org,Australia/Sydney\n"
        other["routes.txt"] = "route_id,agency_id,route_type\nR9,OTHER,3\n"
        other["trips.txt"] = "route_id,service_id,trip_id\nR9,WB,Z1\n"
        other["calendar.txt"] =
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "WB,1,1,1,1,1,1,1,20250101,20301231\n"
        other["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nZ1,08:00:00,08:00:00,X1,1\n"
        other["calendar_dates.txt"] = nil
        other["frequencies.txt"] = nil
        let b = try folder.writeFeed("b", other)
        let message = errorMessage { try runImport([.init(path: a), .init(path: b)], into: folder.path("t.db")) }
        #expect(message?.contains("shape_id \"SH1\" of feed \"b\"") == true, "\(message ?? "imported")")
        try runImport([.init(path: a), .init(path: b, prefix: "B:")], into: folder.path("t.db"))
        let store = try StaticStore(path: folder.path("t.db"), connections: 1)
        #expect(try store.shape(shapeId: "B:SH1", tripId: nil).pointCount == 4)
    }
}
