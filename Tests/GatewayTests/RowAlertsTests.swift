import GatewayProtocol
import Testing
import TransitModel

@testable import Gateway

/// Which alerts a departure row or trip stop names (GATEWAY.md "Alerts on rows"): the EntitySelector rule per
/// row, at the row's own time, each alert once per answer.
@Suite struct RowAlertsTests {
    typealias E = AlertView.InformedEntity

    /// Route R1 (bus, agency A), direction 0, trip T1, at platform P1 of station S at t = 1000.
    static let row = AlertIndex.Row(
        stopId: "P1", parentStation: "S", routeId: "R1", routeType: 3, agencyId: "A", directionId: 0, tripId: "T1",
        time: 1000)

    static func alert(_ id: String, _ entities: [E], from: Int64? = nil, to: Int64? = nil, severity: String = "INFO")
        -> AlertRecord
    {
        AlertRecord(
            id: id, severity: severity,
            activePeriods: from == nil && to == nil ? [] : [.init(start: from, end: to)], informedEntities: entities)
    }

    static func ids(_ records: [AlertRecord], _ row: AlertIndex.Row = row) -> [String] {
        RowAlerts([row], index: AlertIndex(records)).idsByRow[0]
    }

    @Test func eachSelectorKindSelectsTheRow() {
        let selecting: [E] = [
            E(stopId: "P1"), E(stopId: "S"), E(routeId: "R1"), E(routeType: 3), E(tripId: "T1"), E(agencyId: "A"),
            E(routeId: "R1", directionId: 0),
        ]
        for entity in selecting { #expect(Self.ids([Self.alert("a", [entity])]) == ["a"], "\(entity)") }
        let other: [E] = [
            E(stopId: "P2"), E(routeId: "R2"), E(routeType: 2), E(tripId: "T2"), E(agencyId: "B"),
            E(routeId: "R1", directionId: 1), E(directionId: 0), E(),
        ]
        for entity in other { #expect(Self.ids([Self.alert("a", [entity])]) == [], "\(entity)") }
    }

    @Test func fieldsOfOneEntityMustAllHold() {
        // The route at another stop, another route at this stop: neither is this row.
        #expect(Self.ids([Self.alert("a", [E(routeId: "R1", stopId: "P2")])]) == [])
        #expect(Self.ids([Self.alert("a", [E(routeId: "R2", stopId: "P1")])]) == [])
        #expect(Self.ids([Self.alert("a", [E(routeId: "R1", stopId: "S")])]) == ["a"])
        #expect(Self.ids([Self.alert("a", [E(agencyId: "A", routeType: 2)])]) == [])
        #expect(Self.ids([Self.alert("a", [E(routeId: "R1", tripId: "T1", stopId: "P1")])]) == ["a"])
    }

    @Test func anyEntityOfAnAlertMaySelectTheRow() {
        let alert = Self.alert("a", [E(routeId: "R2"), E(stopId: "elsewhere"), E(tripId: "T1")])
        #expect(Self.ids([alert]) == ["a"])
    }

    @Test func anAlertMustBeActiveAtTheRowsOwnTime() {
        #expect(Self.ids([Self.alert("a", [E(stopId: "P1")], from: 900, to: 1001)]) == ["a"])
        #expect(Self.ids([Self.alert("a", [E(stopId: "P1")], from: 900, to: 1000)]) == [])  // [start, end)
        #expect(Self.ids([Self.alert("a", [E(stopId: "P1")], from: 1001)]) == [])
        var later = Self.row
        later.time = 2000
        #expect(Self.ids([Self.alert("a", [E(stopId: "P1")], from: 1500)], later) == ["a"])
    }

    @Test func theAnswerCarriesEachAlertOnceInTheAlertsOpsOrder() {
        var other = Self.row
        other.tripId = "T9"
        other.stopId = "P9"
        let records = [
            Self.alert("z-route", [E(routeId: "R1"), E(stopId: "P1")]),
            Self.alert("b-trip", [E(tripId: "T1")], severity: "SEVERE"),
            Self.alert("a-elsewhere", [E(stopId: "nowhere")]),
        ]
        let found = RowAlerts([Self.row, other], index: AlertIndex(records))
        #expect(found.views.map(\.id) == ["b-trip", "z-route"])
        #expect(found.idsByRow == [["b-trip", "z-route"], ["z-route"]])
    }

    /// Up to `Buckets.linearLimit` ids per field are compared one by one, more are hashed: the same rows
    /// are selected on both sides of that limit, with entries filed before and after the switch.
    @Test func manyAlertedIdsSelectAsFewDo() {
        let limit = Buckets<String>.linearLimit
        for count in [1, limit, limit + 1, 3 * limit] {
            var records = (0..<count).map { Self.alert("s\($0)", [E(stopId: "X\($0)"), E(routeId: "Y\($0)")]) }
            records.append(Self.alert("mine", [E(stopId: "P1"), E(routeId: "R1"), E(routeType: 3)]))
            records.append(Self.alert("route", [E(routeId: "R1")]))
            let index = AlertIndex(records)
            var elsewhere = Self.row
            elsewhere.stopId = "P2"
            elsewhere.parentStation = nil
            elsewhere.routeId = "R2"
            elsewhere.routeType = 2
            var atLast = Self.row
            atLast.stopId = "X\(count - 1)"
            let found = RowAlerts([Self.row, elsewhere, atLast], index: index)
            #expect(found.idsByRow[0] == ["mine", "route"], "\(count) alerted ids")
            #expect(found.idsByRow[1] == [], "\(count) alerted ids")
            #expect(found.idsByRow[2] == ["mine", "route", "s\(count - 1)"], "\(count) alerted ids")
        }
    }

    @Test func noAlertsCostNothingAndNameNothing() {
        let found = RowAlerts([Self.row, Self.row], index: AlertIndex())
        #expect(found.views.isEmpty && found.idsByRow == [[], []])
    }
}
