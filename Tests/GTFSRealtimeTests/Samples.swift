// Feeds for the tests: every field set ("full") and every optional absent ("minimal").
import GTFSRealtime
import TransitModel

enum Samples {
    static let unicode = "Zürich Hbf → 東京駅 🚆"

    static func fullTripDescriptor(_ i: Int = 0) -> TripDescriptor {
        TripDescriptor(
            tripId: "trip-\(i)", routeId: "route-\(i)", directionId: 1, startTime: "25:10:00", startDate: "20260101",
            scheduleRelationship: .duplicated,
            modifiedTrip: ModifiedTripSelector(
                modificationsId: "m", affectedTripId: "a", startTime: "08:00:00", startDate: "20260102")
        )
    }

    static func fullVehicleDescriptor() -> VehicleDescriptor {
        VehicleDescriptor(
            id: "veh-1", label: "Bus \(unicode)", licensePlate: "AB 123", wheelchairAccessible: .wheelchairInaccessible)
    }

    static func fullStopTimeUpdate(_ i: Int) -> StopTimeUpdate {
        StopTimeUpdate(
            stopSequence: UInt32(i), stopId: "stop-\(i)",
            arrival: StopTimeEvent(
                delay: -45, time: 1_767_225_600 + Int64(i), uncertainty: 30, scheduledTime: 1_767_225_000),
            departure: StopTimeEvent(delay: Int32.max, time: Int64.min, uncertainty: 0, scheduledTime: Int64.max),
            departureOccupancyStatus: .crushedStandingRoomOnly, scheduleRelationship: .skipped,
            stopTimeProperties: StopTimeProperties(
                assignedStopId: "stop-\(i)b", stopHeadsign: "City", pickupType: .coordinateWithDriver,
                dropOffType: .notAvailable)
        )
    }

    static func fullTripUpdate(_ i: Int = 0) -> TripUpdate {
        TripUpdate(
            trip: fullTripDescriptor(i), vehicle: fullVehicleDescriptor(),
            stopTimeUpdates: (1...3).map(fullStopTimeUpdate), timestamp: UInt64.max, delay: Int32.min,
            tripProperties: TripProperties(
                tripId: "dup", startDate: "20260103", startTime: "09:00:00", shapeId: "sh", tripHeadsign: "Airport",
                tripShortName: "X1")
        )
    }

    static func fullVehiclePosition() -> VehiclePosition {
        VehiclePosition(
            trip: fullTripDescriptor(), vehicle: fullVehicleDescriptor(),
            position: Position(latitude: -33.8688, longitude: 151.2093, bearing: 359.5, odometer: 1e9 + 0.25, speed: 0),
            currentStopSequence: 7, stopId: "stop-7", currentStatus: .incomingAt, timestamp: 1_767_225_601,
            congestionLevel: .severeCongestion, occupancyStatus: .notBoardable, occupancyPercentage: 130,
            multiCarriageDetails: [
                CarriageDetails(
                    id: "c1", label: "A", occupancyStatus: .empty, occupancyPercentage: -1, carriageSequence: 1),
                CarriageDetails(),
            ]
        )
    }

    static func translated(_ text: String) -> TranslatedText {
        TranslatedText([
            .init(text: text, language: "en"), .init(text: text + " (de)", language: "de"), .init(text: ""),
        ])
    }

    static func fullAlert() -> Alert {
        Alert(
            activePeriods: [TimeRange(start: 10, end: 20), TimeRange(start: 30), TimeRange(end: 40), TimeRange()],
            communicationPeriods: [TimeRange(start: 1, end: 2)], impactPeriods: [TimeRange(start: 3)],
            informedEntities: [
                EntitySelector(
                    agencyId: "A", routeId: "R", routeType: 700, trip: fullTripDescriptor(), stopId: "S", directionId: 0
                ),
                EntitySelector(stopId: "S2"),
            ],
            cause: .specialEvent, effect: .accessibilityIssue, url: translated("https://example.org"),
            headerText: translated("Header \(unicode)"), descriptionText: translated("Description"),
            ttsHeaderText: translated("tts header"), ttsDescriptionText: translated("tts description"),
            severityLevel: .severe,
            image: TranslatedImage(localizedImages: [
                .init(url: "https://example.org/i.png", mediaType: "image/png", language: "en"),
                .init(url: "u", mediaType: "m"),
            ]),
            imageAlternativeText: translated("alt"), causeDetail: translated("cause"),
            effectDetail: translated("effect")
        )
    }

    static func fullTripModifications() -> TripModifications {
        TripModifications(
            selectedTrips: [
                .init(tripIds: ["T1", "T2 \(unicode)"], shapeId: "SH-detour"), .init(tripIds: [""]),
            ],
            startTimes: ["08:00:00", "25:30:00"], serviceDates: ["20260101", "20260102"],
            modifications: [
                .init(
                    startStopSelector: StopSelector(stopSequence: 2, stopId: "S2"),
                    endStopSelector: StopSelector(stopId: "S3"), propagatedModificationDelay: -30,
                    replacementStops: [
                        ReplacementStop(travelTimeToStop: 60, stopId: "R1"), ReplacementStop(stopId: "R2"),
                        ReplacementStop(travelTimeToStop: Int32.min, stopId: ""),
                    ],
                    serviceAlertId: "al", lastModifiedTime: UInt64.max),
                .init(startStopSelector: StopSelector(stopSequence: 0)),
            ])
    }

    static func fullStop() -> RealtimeStop {
        RealtimeStop(
            stopId: "R1", stopCode: translated("1001"), stopName: translated("Temporary \(unicode)"),
            ttsStopName: translated("Temporary"), stopDesc: translated("Outside no. 12"), stopLat: -33.875,
            stopLon: 151.25, zoneId: "Z1", stopUrl: translated("https://example.org/r1"), parentStation: "P1",
            stopTimezone: "Australia/Sydney", wheelchairBoarding: .notAvailable, levelId: "L0",
            platformCode: translated("A"))
    }

    static func fullFeed() -> FeedMessage {
        FeedMessage(
            header: FeedHeader(
                gtfsRealtimeVersion: "2.0", incrementality: .differential, timestamp: 1_767_225_600, feedVersion: "v1"),
            entities: [
                FeedEntity(id: "tu", isDeleted: false, tripUpdate: fullTripUpdate()),
                FeedEntity(id: "vp", vehicle: fullVehiclePosition()),
                FeedEntity(id: "al", alert: fullAlert()),
                FeedEntity(
                    id: "all", isDeleted: true, tripUpdate: fullTripUpdate(1), vehicle: fullVehiclePosition(),
                    alert: fullAlert()),
                FeedEntity(id: "tm", tripModifications: fullTripModifications()),
                FeedEntity(id: "sh", shape: RealtimeShape(shapeId: "SH-detour", encodedPolyline: "_p~iF~ps|U_ulLnnqC")),
                FeedEntity(id: "st", stop: fullStop()),
            ]
        )
    }

    /// Only what the spec requires: every optional absent, every list empty (but an alert's informed entity).
    static func minimalFeed() -> FeedMessage {
        FeedMessage(
            header: FeedHeader(gtfsRealtimeVersion: ""),
            entities: [
                FeedEntity(id: ""),
                FeedEntity(
                    id: "tu",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(), stopTimeUpdates: [StopTimeUpdate(arrival: StopTimeEvent())])),
                FeedEntity(id: "vp", vehicle: VehiclePosition(position: Position(latitude: 0, longitude: -0.0))),
                FeedEntity(
                    id: "al",
                    alert: Alert(informedEntities: [EntitySelector()], headerText: TranslatedText([]))),
                FeedEntity(
                    id: "tm",
                    tripModifications: TripModifications(
                        selectedTrips: [.init(tripIds: [""])], serviceDates: [""],
                        modifications: [.init(startStopSelector: StopSelector(stopId: ""))])),
                FeedEntity(id: "sh", shape: RealtimeShape(shapeId: "", encodedPolyline: "")),
                FeedEntity(id: "st", stop: RealtimeStop(stopId: "")),
            ]
        )
    }

    /// A buses-sized shape in miniature: `trips` trip updates of `stops` stop time updates each.
    static func busFeed(trips: Int, stops: Int) -> FeedMessage {
        var entities: [FeedEntity] = []
        for t in 0..<trips {
            var updates: [StopTimeUpdate] = []
            for s in 0..<stops {
                updates.append(
                    StopTimeUpdate(
                        stopSequence: UInt32(s + 1), stopId: "2000\(s)",
                        arrival: StopTimeEvent(delay: Int32(t % 300), time: 1_767_225_600 + Int64(s * 90)),
                        departure: StopTimeEvent(delay: Int32(t % 300), time: 1_767_225_630 + Int64(s * 90))))
            }
            entities.append(
                FeedEntity(
                    id: "e\(t)",
                    tripUpdate: TripUpdate(
                        trip: TripDescriptor(
                            tripId: "trip-\(t)", routeId: "r\(t % 50)", startDate: "20260101",
                            scheduleRelationship: .scheduled),
                        stopTimeUpdates: updates, timestamp: 1_767_225_600)))
        }
        return FeedMessage(header: FeedHeader(timestamp: 1_767_225_600), entities: entities)
    }
}
