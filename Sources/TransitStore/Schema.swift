import SQLiteKit

/// The SQLite layout written by `GTFSImporter` and read by the static queries.
///
/// Conventions:
/// - Every big table uses integer surrogate keys (`*_pk`); the GTFS text ids live once, in the table that owns
///   them, behind a UNIQUE index (for lookups by id).
/// - Agency, route, trip, service, shape and block ids are stored with their feed's prefix (e.g. `B:42`);
///   stop ids never are (stops are shared between feeds; the first feed that defines a stop wins).
/// - Times are seconds since the service day's "noon minus 12 h" in the feed's agency timezone, exactly as
///   GTFS writes them: values ≥ 86400 (24:00:00 and later, trips past midnight) are kept as they are.
/// - Dates are integers `YYYYMMDD`.
/// - Optional GTFS text fields that are empty in the feed are NULL.
/// - The file is built next to the target with journal_mode OFF and renamed into place when complete; it is
///   never in WAL mode, so it can be opened read-only to serve.
public enum Schema {
    /// Bumped whenever a table or column changes meaning. Stored in `meta` under `schema_version`.
    public static let version = 4

    /// Keys of the `meta` table.
    public enum MetaKey {
        /// `Schema.version` as text.
        public static let schemaVersion = "schema_version"
        /// A fresh random id (UUID) plus the import time, e.g. `6F1C…-1766394000`: changes on every import,
        /// so a cache (the realtime service) knows a new import replaced the database.
        public static let dbVersion = "db_version"
        /// Unix seconds when the import finished.
        public static let importedAt = "imported_at"
    }

    /// `meta`: key/value facts about the whole database (see `MetaKey`).
    public static let meta = """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID
        """

    /// `feeds`: one row per imported feed, for the feed_info query and for the timezone of everything the
    /// feed defines (`*.feed_pk` points here).
    /// - `name`: `name=path` from the command line, default the file name without extension.
    /// - `prefix`: prepended to the feed's agency/route/trip/service/shape/block ids ('' when none).
    /// - `publisher_name` … `contact_url`: feed_info.txt as given (NULL when the feed has no feed_info).
    ///   `start_date`/`end_date` are feed_info's validity (YYYYMMDD, NULL when absent).
    /// - `service_start_date`/`service_end_date`: the first and last date any service of the feed may run,
    ///   from calendar ranges and calendar_dates additions (NULL when the feed has no services).
    /// - `timezone`: agency_timezone (the first agency's; GTFS requires all agencies of a feed to agree).
    /// - `*_count`: rows imported from this feed (`stop_count` counts only stops this feed defined first;
    ///   `stop_time_count` counts stop_times rows, `pattern_count` the patterns first created by its trips).
    public static let feeds = """
        CREATE TABLE feeds (
            feed_pk             INTEGER PRIMARY KEY,
            name                TEXT NOT NULL UNIQUE,
            prefix              TEXT NOT NULL DEFAULT '',
            path                TEXT NOT NULL,
            publisher_name      TEXT,
            publisher_url       TEXT,
            feed_lang           TEXT,
            default_lang        TEXT,
            version             TEXT,
            start_date          INTEGER,
            end_date            INTEGER,
            contact_email       TEXT,
            contact_url         TEXT,
            service_start_date  INTEGER,
            service_end_date    INTEGER,
            timezone            TEXT NOT NULL,
            imported_at         INTEGER NOT NULL,
            agency_count        INTEGER NOT NULL DEFAULT 0,
            stop_count          INTEGER NOT NULL DEFAULT 0,
            route_count         INTEGER NOT NULL DEFAULT 0,
            trip_count          INTEGER NOT NULL DEFAULT 0,
            stop_time_count     INTEGER NOT NULL DEFAULT 0,
            pattern_count       INTEGER NOT NULL DEFAULT 0,
            service_count       INTEGER NOT NULL DEFAULT 0,
            frequency_count     INTEGER NOT NULL DEFAULT 0
        )
        """

    /// `feed_info`: feed_info.txt of every feed under its GTFS column names (a view over `feeds`, which holds
    /// them with the import's own facts).
    public static let feedInfo = """
        CREATE VIEW feed_info AS
        SELECT feed_pk, name AS feed_name, publisher_name AS feed_publisher_name,
               publisher_url AS feed_publisher_url, feed_lang, default_lang, version AS feed_version,
               start_date AS feed_start_date, end_date AS feed_end_date, contact_email AS feed_contact_email,
               contact_url AS feed_contact_url
        FROM feeds
        """

    /// `agency`: agency.txt. `agency_id` is prefixed; a feed whose agency has no agency_id (allowed with a
    /// single agency) gets its feed name as id. Routes point here with `agency_pk`.
    public static let agency = """
        CREATE TABLE agency (
            agency_pk  INTEGER PRIMARY KEY,
            agency_id  TEXT NOT NULL UNIQUE,
            feed_pk    INTEGER NOT NULL,
            name       TEXT NOT NULL,
            url        TEXT,
            timezone   TEXT NOT NULL,
            lang       TEXT,
            phone      TEXT,
            fare_url   TEXT,
            email      TEXT
        )
        """

    /// `stops`: stops.txt of all feeds (one row per stop_id; first feed wins). Serves the stop query (by
    /// `stop_id`, children via `stops_by_parent`), search and nearby (via `stop_search` / `stop_rtree`, whose
    /// ids are `stop_pk`), and departures (`board_pk`).
    /// - `parent_pk`: the parent_station's `stop_pk` (NULL when none; an unknown parent is skipped+counted).
    /// - `board_pk`: the key of this stop's departures in `departures`: its parent station's `stop_pk` when
    ///   it is a platform (location_type 0) of a station, else its own `stop_pk`.
    /// - `wheelchair_boarding`: as given (0 = no information, which for a platform means "see the parent").
    /// - `lat`/`lon`: NULL when absent (allowed for generic nodes and boarding areas).
    /// - Precomputed from the schedule (a station aggregates its children): `trip_count` = scheduled trips
    ///   stopping (frequency trips count once per instance), `primary_route_type` = the route_type of the
    ///   most routes (ties broken by `Mode.rank`, then lower route_type), `primary_mode` its `Mode` string,
    ///   `mode_mask` = OR of `Mode.bit` of every mode serving it (the search's mode filter). NULL/0 when no
    ///   trip stops there.
    public static let stops = """
        CREATE TABLE stops (
            stop_pk              INTEGER PRIMARY KEY,
            stop_id              TEXT NOT NULL UNIQUE,
            feed_pk              INTEGER NOT NULL,
            code                 TEXT,
            name                 TEXT NOT NULL DEFAULT '',
            tts_name             TEXT,
            desc                 TEXT,
            lat                  REAL,
            lon                  REAL,
            zone_id              TEXT,
            url                  TEXT,
            location_type        INTEGER NOT NULL DEFAULT 0,
            parent_pk            INTEGER,
            board_pk             INTEGER NOT NULL,
            timezone             TEXT,
            wheelchair_boarding  INTEGER NOT NULL DEFAULT 0,
            level_id             TEXT,
            platform_code        TEXT,
            trip_count           INTEGER NOT NULL DEFAULT 0,
            primary_route_type   INTEGER,
            primary_mode         TEXT,
            mode_mask            INTEGER NOT NULL DEFAULT 0
        )
        """

    /// `routes`: routes.txt. `route_id` prefixed; `mode` is `Mode(routeType:)`; `color`/`text_color` are
    /// as given in the feed (normally `RRGGBB` without '#'; NULL when empty), the query formats `#RRGGBB`.
    /// `trip_count` = trips of the route (for ordering or hiding empty routes). Serves the routes query
    /// (`routes_by_mode` for the mode filter) and route details of departures and trips.
    public static let routes = """
        CREATE TABLE routes (
            route_pk     INTEGER PRIMARY KEY,
            route_id     TEXT NOT NULL UNIQUE,
            feed_pk      INTEGER NOT NULL,
            agency_pk    INTEGER NOT NULL,
            short_name   TEXT,
            long_name    TEXT,
            desc         TEXT,
            route_type   INTEGER NOT NULL,
            mode         TEXT NOT NULL,
            url          TEXT,
            color        TEXT,
            text_color   TEXT,
            sort_order   INTEGER,
            trip_count   INTEGER NOT NULL DEFAULT 0
        )
        """

    /// `services`: every service_id of calendar.txt and calendar_dates.txt (prefixed), so trips and the
    /// departures index refer to services by a small integer. A service may have a `calendar` row, date
    /// exceptions, or both (services defined only by calendar_dates have no calendar row).
    public static let services = """
        CREATE TABLE services (
            service_pk  INTEGER PRIMARY KEY,
            service_id  TEXT NOT NULL UNIQUE,
            feed_pk     INTEGER NOT NULL
        )
        """

    /// `calendar`: calendar.txt by `service_pk`: weekday flags 0/1 and the date range (inclusive).
    public static let calendar = """
        CREATE TABLE calendar (
            service_pk  INTEGER PRIMARY KEY,
            monday      INTEGER NOT NULL,
            tuesday     INTEGER NOT NULL,
            wednesday   INTEGER NOT NULL,
            thursday    INTEGER NOT NULL,
            friday      INTEGER NOT NULL,
            saturday    INTEGER NOT NULL,
            sunday      INTEGER NOT NULL,
            start_date  INTEGER NOT NULL,
            end_date    INTEGER NOT NULL
        )
        """

    /// `calendar_dates`: exceptions (1 = service added on `date`, 2 = removed). Keyed by service for the
    /// trip queries ("dates this service runs"), with `calendar_dates_by_date` for "services active on a day".
    public static let calendarDates = """
        CREATE TABLE calendar_dates (
            service_pk      INTEGER NOT NULL,
            date            INTEGER NOT NULL,
            exception_type  INTEGER NOT NULL,
            PRIMARY KEY (service_pk, date)
        ) WITHOUT ROWID
        """

    /// `trips`: trips.txt (only trips with at least one valid stop_time). Serves trip by id (UNIQUE trip_id),
    /// the bulk trip schedules, and trip details of departure rows.
    /// - `pattern_pk`: its stop sequence and time offsets (`pattern_stops`).
    /// - `start_secs`: the trip's first time (arrival at its first stop, else departure); a stop's time is
    ///   `start_secs + offset`. For a frequency trip (`is_frequency` = 1) this is the template's first time;
    ///   its instances DEPART the first stop at the `frequencies` rows' times (GTFS start_time), so an instance
    ///   starting at S is at a stop at S + offset − (the first stop's `departure_offset`).
    /// - `end_secs`: arrival at the last stop (`start_secs` + last arrival offset).
    /// - `block_id` and `shape_id` are prefixed like the other ids.
    public static let trips = """
        CREATE TABLE trips (
            trip_pk                INTEGER PRIMARY KEY,
            trip_id                TEXT NOT NULL UNIQUE,
            feed_pk                INTEGER NOT NULL,
            route_pk               INTEGER NOT NULL,
            service_pk             INTEGER NOT NULL,
            pattern_pk             INTEGER NOT NULL,
            start_secs             INTEGER NOT NULL,
            end_secs               INTEGER NOT NULL,
            headsign               TEXT,
            short_name             TEXT,
            direction_id           INTEGER,
            block_id               TEXT,
            shape_id               TEXT,
            wheelchair_accessible  INTEGER NOT NULL DEFAULT 0,
            bikes_allowed          INTEGER NOT NULL DEFAULT 0,
            is_frequency           INTEGER NOT NULL DEFAULT 0
        )
        """

    /// `shapes`: shapes.txt, one row per shape (not one per point). `shape_id` is prefixed; `point_count`
    /// points ordered by shape_pt_sequence (a repeated sequence keeps its first row), written as one Google
    /// encoded polyline at 1e-5 degrees (`polyline`). `distances`: the points' shape_dist_traveled in the
    /// feed's own unit, rounded to 1/`shapeDistanceScale` and written as a one-value-per-point polyline series
    /// (`Polyline.encode(values:scale:)`); NULL unless every point has one and they never decrease. Trips
    /// without a shape (or naming one shapes.txt does not define) are drawn by the shape query as a straight
    /// line through their pattern's stops, computed when asked (nothing is stored for them).
    public static let shapes = """
        CREATE TABLE shapes (
            shape_pk     INTEGER PRIMARY KEY,
            shape_id     TEXT NOT NULL UNIQUE,
            feed_pk      INTEGER NOT NULL,
            point_count  INTEGER NOT NULL,
            polyline     TEXT NOT NULL,
            distances    TEXT
        )
        """

    /// `shapes.distances` holds shape_dist_traveled × this, rounded (0.01 of the feed's unit).
    public static let shapeDistanceScale = 100.0

    /// `patterns`: a distinct stop sequence with its time offsets. Trips share a pattern when every stop
    /// (stop, stop_sequence, pickup/drop-off types, stop_headsign, timepoint, shape_dist_traveled) and every
    /// arrival/departure offset from the trip's first time are equal.
    public static let patterns = """
        CREATE TABLE patterns (
            pattern_pk  INTEGER PRIMARY KEY,
            stop_count  INTEGER NOT NULL,
            trip_count  INTEGER NOT NULL
        )
        """

    /// `pattern_stops`: the stops of a pattern in order (`stop_index` 0…stop_count-1), clustered by pattern
    /// so a trip's stops are one range scan. Offsets are seconds after the trip's `start_secs`.
    /// Intermediate stops without times in stop_times.txt get times interpolated between the surrounding
    /// timed stops (by shape_dist_traveled when given, else evenly by stop) and `timepoint` 0; otherwise
    /// `timepoint` is as given (default 1).
    public static let patternStops = """
        CREATE TABLE pattern_stops (
            pattern_pk           INTEGER NOT NULL,
            stop_index           INTEGER NOT NULL,
            stop_pk              INTEGER NOT NULL,
            stop_sequence        INTEGER NOT NULL,
            arrival_offset       INTEGER NOT NULL,
            departure_offset     INTEGER NOT NULL,
            pickup_type          INTEGER NOT NULL DEFAULT 0,
            drop_off_type        INTEGER NOT NULL DEFAULT 0,
            stop_headsign        TEXT,
            timepoint            INTEGER NOT NULL DEFAULT 1,
            shape_dist_traveled  REAL,
            PRIMARY KEY (pattern_pk, stop_index)
        ) WITHOUT ROWID
        """

    /// `transfers`: transfers.txt rows between stops (stop_pks; a station's entry applies to its platforms, see the
    /// journey planner), `transfer_type` 0–3 as given, `min_transfer_time` in seconds (NULL when absent). Rows naming
    /// trips or routes and in-seat transfers (types 4, 5) are not imported; a repeated pair keeps its first row.
    public static let transfers = """
        CREATE TABLE transfers (
            from_stop_pk       INTEGER NOT NULL,
            to_stop_pk         INTEGER NOT NULL,
            transfer_type      INTEGER NOT NULL,
            min_transfer_time  INTEGER,
            PRIMARY KEY (from_stop_pk, to_stop_pk)
        ) WITHOUT ROWID
        """

    /// `departures`: the scheduled departures index, clustered so that a stop's (or a whole station's,
    /// platforms included) departures in a time window are ONE range scan:
    /// `WHERE board_pk = ? AND departure_secs BETWEEN ? AND ?` (ORDER BY departure_secs [DESC] for past).
    /// - `board_pk` = `stops.board_pk` of the stop served (the station for its platforms); a platform's own
    ///   board filters on `stop_pk` within the station's range.
    /// - `departure_secs` = the trip's absolute departure time at that stop (service-day seconds, ≥ 86400 past
    ///   midnight: the query also scans the previous service day's range from 86400 on).
    /// - `service_pk` lets the query keep only rows whose service runs on the service day, in memory;
    ///   trip details are fetched only for the rows it returns. `stop_index` indexes `pattern_stops`.
    /// Only rows that offer a departure: not pickup_type 1, not the trip's last stop. Frequency trips are
    /// not expanded here (see `frequency_stops`).
    public static let departures = """
        CREATE TABLE departures (
            board_pk        INTEGER NOT NULL,
            departure_secs  INTEGER NOT NULL,
            trip_pk         INTEGER NOT NULL,
            stop_index      INTEGER NOT NULL,
            stop_pk         INTEGER NOT NULL,
            service_pk      INTEGER NOT NULL,
            PRIMARY KEY (board_pk, departure_secs, trip_pk, stop_index)
        ) WITHOUT ROWID
        """

    /// `frequencies`: frequencies.txt by trip. `start_secs`/`end_secs` as given (service-day seconds),
    /// `exact_times` 0 (headway-based) or 1 (schedule-based, instances at start + k·headway).
    public static let frequencies = """
        CREATE TABLE frequencies (
            trip_pk       INTEGER NOT NULL,
            start_secs    INTEGER NOT NULL,
            end_secs      INTEGER NOT NULL,
            headway_secs  INTEGER NOT NULL,
            exact_times   INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (trip_pk, start_secs)
        ) WITHOUT ROWID
        """

    /// `frequency_stops`: where frequency-based trips offer departures (same rule as `departures`), keyed
    /// like it by `board_pk`, so the departures query finds the frequency trips of a stop or station with one
    /// range scan and expands instances from `frequencies` + `pattern_stops`.
    public static let frequencyStops = """
        CREATE TABLE frequency_stops (
            board_pk    INTEGER NOT NULL,
            trip_pk     INTEGER NOT NULL,
            stop_index  INTEGER NOT NULL,
            stop_pk     INTEGER NOT NULL,
            service_pk  INTEGER NOT NULL,
            PRIMARY KEY (board_pk, trip_pk, stop_index)
        ) WITHOUT ROWID
        """

    /// `stop_routes`: the routes serving a stop (any stop_time of one of its trips), a station including
    /// its children's routes, with the number of scheduled trips (frequency instances counted). Serves the
    /// stop query's route list.
    public static let stopRoutes = """
        CREATE TABLE stop_routes (
            stop_pk     INTEGER NOT NULL,
            route_pk    INTEGER NOT NULL,
            trip_count  INTEGER NOT NULL,
            PRIMARY KEY (stop_pk, route_pk)
        ) WITHOUT ROWID
        """

    /// `stop_search`: FTS5 over stop names (and codes), rowid = `stops.stop_pk`. Holds stations (location
    /// type 1) and stops without a parent (`is_platform` 0) and platforms of a station (`is_platform` 1, so a
    /// search can fold them into their station); entrances, nodes and boarding areas (2, 3, 4) never.
    /// Tokenizer unicode61 without diacritics; prefix indexes for 1–4 characters (`cen*`).
    public static let stopSearch = """
        CREATE VIRTUAL TABLE stop_search USING fts5(
            name, code, is_platform UNINDEXED,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '1 2 3 4'
        )
        """

    /// `stop_rtree`: R*Tree over coordinates of stops with location_type 0 or 1 (id = `stops.stop_pk`).
    /// Bounds are 32-bit floats, rounded outwards: use it to find candidates, then compute the exact distance
    /// from `stops.lat`/`lon`.
    public static let stopRtree = """
        CREATE VIRTUAL TABLE stop_rtree USING rtree(stop_pk, min_lat, max_lat, min_lon, max_lon)
        """

    /// Secondary indexes, created after the bulk load (still before the file is renamed into place).
    public static let indexes: [String] = [
        "CREATE INDEX stops_by_parent ON stops(parent_pk) WHERE parent_pk IS NOT NULL",
        "CREATE INDEX routes_by_mode ON routes(mode)",
        "CREATE INDEX trips_by_route ON trips(route_pk)",
        "CREATE INDEX calendar_dates_by_date ON calendar_dates(date, service_pk)",
    ]

    /// Every table (and the `feed_info` view), in creation order.
    public static let tables: [String] = [
        meta, feeds, feedInfo, agency, stops, routes, services, calendar, calendarDates, trips, shapes, patterns,
        patternStops,
        departures, frequencies, frequencyStops, stopRoutes, stopSearch, stopRtree, transfers,
    ]

    /// Creates every table and index in an empty database.
    public static func createAll(in db: SQLiteKit.Database) throws {
        for sql in tables { try db.exec(sql) }
        for sql in indexes { try db.exec(sql) }
    }
}
