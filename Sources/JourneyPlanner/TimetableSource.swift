import TransitCore

/// What a `Timetable` is built from: plain values for one window of service days, independent of where they
/// come from (the static database through TransitStore, or a test's generated feed). Indexes into `stops` and
/// `trips` are the caller's; the timetable and the journeys it answers refer to them.
public struct TimetableSource: Sendable {
    public var stops: [Stop]
    public var trips: [Trip]
    /// transfers.txt rows between stops (rows naming trips or routes are left out by the caller).
    public var transfers: [Transfer]
    /// The service days of the window, each with the services running on it. A trip of a day runs at the day's
    /// reference instant plus its GTFS times, so the day before the first date of interest brings the trips
    /// still running after midnight.
    public var days: [ServiceDay]

    public init(stops: [Stop], trips: [Trip], transfers: [Transfer], days: [ServiceDay]) {
        self.stops = stops
        self.trips = trips
        self.transfers = transfers
        self.days = days
    }

    /// A stop, platform or station. `station` is the index of its parent station (nil when it has none).
    public struct Stop: Sendable, Equatable {
        public var lat: Double?
        public var lon: Double?
        public var station: Int?
        /// wheelchair_boarding as given: 0 unknown (a platform inherits its station's), 1 accessible, 2 not.
        public var wheelchairBoarding: Int

        public init(lat: Double?, lon: Double?, station: Int? = nil, wheelchairBoarding: Int = 0) {
            self.lat = lat
            self.lon = lon
            self.station = station
            self.wheelchairBoarding = wheelchairBoarding
        }
    }

    /// One stop_times row of a trip, times in GTFS seconds of the service day.
    public struct StopTime: Sendable, Equatable {
        public var stop: Int
        public var arrival: Int
        public var departure: Int
        /// Whether a rider may board here without arranging it (pickup_type 0).
        public var pickup: Bool
        /// Whether a rider may alight here without arranging it (drop_off_type 0).
        public var dropOff: Bool

        public init(stop: Int, arrival: Int, departure: Int, pickup: Bool = true, dropOff: Bool = true) {
            self.stop = stop
            self.arrival = arrival
            self.departure = departure
            self.pickup = pickup
            self.dropOff = dropOff
        }
    }

    /// A trips.txt row with its stop times. With `frequencies`, the stop times are a template: each instance
    /// departs its first stop at a period's start times, and keeps the template's offsets from there.
    public struct Trip: Sendable, Equatable {
        /// Index into the days' `services`.
        public var service: Int
        public var mode: Mode
        /// wheelchair_accessible as given (1 = accessible).
        public var wheelchairAccessible: Int
        public var stopTimes: [StopTime]
        public var frequencies: [FrequencyPeriod]

        public init(
            service: Int, mode: Mode, wheelchairAccessible: Int = 0, stopTimes: [StopTime],
            frequencies: [FrequencyPeriod] = []
        ) {
            self.service = service
            self.mode = mode
            self.wheelchairAccessible = wheelchairAccessible
            self.stopTimes = stopTimes
            self.frequencies = frequencies
        }
    }

    /// A transfers.txt row. `type`: 0 recommended, 1 timed, 2 minimum time, 3 not possible.
    public struct Transfer: Sendable, Equatable {
        public var from: Int
        public var to: Int
        public var type: Int
        public var minTime: Int?

        public init(from: Int, to: Int, type: Int, minTime: Int? = nil) {
            self.from = from
            self.to = to
            self.type = type
            self.minTime = minTime
        }
    }

    /// A service date of the window: its "noon minus 12 h" instant and the services running on it.
    public struct ServiceDay: Sendable {
        public var date: GTFSDate
        public var referenceUnix: Int64
        public var services: ServiceSet

        public init(date: GTFSDate, referenceUnix: Int64, services: ServiceSet) {
            self.date = date
            self.referenceUnix = referenceUnix
            self.services = services
        }
    }
}
