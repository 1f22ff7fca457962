import Foundation

@testable import TransitStore

/// Three feeds in one database, in zones other than the project's own (Sydney):
///
/// `ny` (America/New_York; DST starts 2026-03-08 02:00 EST → 03:00 EDT, ends 2026-11-01 02:00 EDT → 01:00 EST)
/// - Penn Station (PENN, station) with tracks PENN1 ("1"), PENN2 ("2") and an entrance PENNE.
/// - Services: DAILY 2026; WK Mon–Fri 2026 (removed Memorial Day Mon 2026-05-25 and Wed 2026-07-15, added Tue
///   2027-01-05 outside its range); SU Sundays 2026 (added 2026-05-25); OLD all days of 2020 (long over); EDGE
///   Wednesdays 2026-06-03…2026-06-17 (both ends are Wednesdays); EXTRA only in calendar_dates (2026-07-04).
/// - DAILY trips at PENN1 → B: E0130 01:30, E0800 08:00, L2530 25:30; P2T PENN2 09:30 → B.
/// - Calendar trips C → D: WK_0900, SU_1000, OLD_1100, EDGE_1200, EXTRA_1300.
/// - PUT A 14:00 (pickup_type 1) → B 14:10 → H 14:20 (last stop).
/// - LOOPT L1 15:00 (seq 10) → L2 15:05 (20) → L1 15:10 (30) → L3 15:15 (40).
/// - FX (frequencies, exact_times 1, every 20 min 08:00–09:00): template F1 arrives 08:00, departs 08:02 (a
///   dwell at the first stop), F2 08:10, F3 08:20. FH (exact_times empty = 0, every 15 min 06:00–07:00): G1 → G2.
/// - Around midnight at MID: M2330, M2345, M2410 (24:10), M2420 (24:20), M0015, M0030 (all DAILY).
/// - SPW (WK) SP 06:00: one departure on weekdays only.
/// - FN (frequencies, exact, every 30 min 23:00–25:00): N1 → N2 in 10 min, so 24:00 and 24:30 run after midnight.
///
/// `london` (Europe/London; BST starts 2026-03-29 01:00 GMT → 02:00 BST, ends 2026-10-25 02:00 BST → 01:00 GMT)
/// - LDAILY trips LPAD → LBS: LE0130 01:30, LE0800 08:00, LL2530 25:30.
enum AcceptanceFeeds {
    static let ny: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        MTA,Test Transit NY,https://example.com,America/New_York

        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code
        PENN,Penn Station,40.7506,-73.9935,1,,
        PENN1,Penn Station Track 1,40.7505,-73.9936,0,PENN,1
        PENN2,Penn Station Track 2,40.7504,-73.9937,0,PENN,2
        PENNE,Penn Station 7th Ave Entrance,40.7510,-73.9920,2,PENN,
        A,Hudson Yards,40.7559,-74.0020,0,,
        B,Herald Sq,40.7496,-73.9877,0,,
        C,Bryant Park,40.7542,-73.9845,0,,
        D,Grand Central,40.7527,-73.9772,0,,
        H,Chelsea,40.7465,-74.0014,0,,
        L1,Loop One,40.7000,-74.0000,0,,
        L2,Loop Two,40.7100,-74.0000,0,,
        L3,Loop Three,40.7200,-74.0000,0,,
        F1,Freq One,40.7300,-74.0000,0,,
        F2,Freq Two,40.7400,-74.0000,0,,
        F3,Freq Three,40.7500,-74.0000,0,,
        G1,Headway One,40.7600,-74.0000,0,,
        G2,Headway Two,40.7700,-74.0000,0,,
        MID,Midnight Ave,40.7800,-74.0000,0,,
        SP,Sparse Rd,40.7900,-74.0000,0,,
        N1,Night Owl One,40.8000,-74.0000,0,,
        N2,Night Owl Two,40.8100,-74.0000,0,,

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        R1,MTA,1,Broadway Local,1

        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        DAILY,1,1,1,1,1,1,1,20260101,20261231
        WK,1,1,1,1,1,0,0,20260101,20261231
        SU,0,0,0,0,0,0,1,20260101,20261231
        OLD,1,1,1,1,1,1,1,20200101,20201231
        EDGE,0,0,1,0,0,0,0,20260603,20260617

        """,
        "calendar_dates.txt": """
        service_id,date,exception_type
        WK,20260525,2
        SU,20260525,1
        WK,20270105,1
        WK,20260715,2
        EXTRA,20260704,1

        """,
        "trips.txt": """
        route_id,service_id,trip_id,trip_headsign
        R1,DAILY,E0130,Early
        R1,DAILY,E0800,Morning
        R1,DAILY,L2530,Late
        R1,DAILY,P2T,Track Two
        R1,WK,WK_0900,Weekday
        R1,SU,SU_1000,Sunday
        R1,OLD,OLD_1100,Old
        R1,EDGE,EDGE_1200,Edge
        R1,EXTRA,EXTRA_1300,Extra
        R1,DAILY,PUT,Pickup
        R1,DAILY,LOOPT,Loop
        R1,DAILY,FX,Exact
        R1,DAILY,FH,Headway
        R1,DAILY,M2330,Night
        R1,DAILY,M2345,Night
        R1,DAILY,M2410,Night
        R1,DAILY,M2420,Night
        R1,DAILY,M0015,Night
        R1,DAILY,M0030,Night
        R1,WK,SPW,Sparse
        R1,DAILY,FN,Night Owl

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type
        E0130,01:30:00,01:30:00,PENN1,1,
        E0130,01:40:00,01:40:00,B,2,
        E0800,08:00:00,08:00:00,PENN1,1,
        E0800,08:10:00,08:10:00,B,2,
        L2530,25:30:00,25:30:00,PENN1,1,
        L2530,25:40:00,25:40:00,B,2,
        P2T,09:30:00,09:30:00,PENN2,1,
        P2T,09:40:00,09:40:00,B,2,
        WK_0900,09:00:00,09:00:00,C,1,
        WK_0900,09:10:00,09:10:00,D,2,
        SU_1000,10:00:00,10:00:00,C,1,
        SU_1000,10:10:00,10:10:00,D,2,
        OLD_1100,11:00:00,11:00:00,C,1,
        OLD_1100,11:10:00,11:10:00,D,2,
        EDGE_1200,12:00:00,12:00:00,C,1,
        EDGE_1200,12:10:00,12:10:00,D,2,
        EXTRA_1300,13:00:00,13:00:00,C,1,
        EXTRA_1300,13:10:00,13:10:00,D,2,
        PUT,14:00:00,14:00:00,A,1,1
        PUT,14:10:00,14:10:00,B,2,0
        PUT,14:20:00,14:20:00,H,3,0
        LOOPT,15:00:00,15:00:00,L1,10,
        LOOPT,15:05:00,15:05:00,L2,20,
        LOOPT,15:10:00,15:10:00,L1,30,
        LOOPT,15:15:00,15:15:00,L3,40,
        FX,08:00:00,08:02:00,F1,1,
        FX,08:10:00,08:10:00,F2,2,
        FX,08:20:00,08:20:00,F3,3,
        FH,06:00:00,06:00:00,G1,1,
        FH,06:05:00,06:05:00,G2,2,
        M2330,23:30:00,23:30:00,MID,1,
        M2330,23:40:00,23:40:00,B,2,
        M2345,23:45:00,23:45:00,MID,1,
        M2345,23:55:00,23:55:00,B,2,
        M2410,24:10:00,24:10:00,MID,1,
        M2410,24:20:00,24:20:00,B,2,
        M2420,24:20:00,24:20:00,MID,1,
        M2420,24:30:00,24:30:00,B,2,
        M0015,00:15:00,00:15:00,MID,1,
        M0015,00:25:00,00:25:00,B,2,
        M0030,00:30:00,00:30:00,MID,1,
        M0030,00:40:00,00:40:00,B,2,
        SPW,06:00:00,06:00:00,SP,1,
        SPW,06:10:00,06:10:00,B,2,
        FN,23:00:00,23:00:00,N1,1,
        FN,23:10:00,23:10:00,N2,2,

        """,
        "frequencies.txt": """
        trip_id,start_time,end_time,headway_secs,exact_times
        FX,08:00:00,09:00:00,1200,1
        FH,06:00:00,07:00:00,900,
        FN,23:00:00,25:00:00,1800,1

        """,
    ]

    static let london: [String: String] = [
        "agency.txt": """
        agency_id,agency_name,agency_url,agency_timezone
        TFL,Test Transit London,https://example.com,Europe/London

        """,
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon
        LPAD,Paddington,51.5154,-0.1755
        LBS,Bond Street,51.5142,-0.1494

        """,
        "routes.txt": """
        route_id,agency_id,route_short_name,route_long_name,route_type
        EL,TFL,EL,Elizabeth line,2

        """,
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        LDAILY,1,1,1,1,1,1,1,20260101,20261231

        """,
        "trips.txt": """
        route_id,service_id,trip_id
        EL,LDAILY,LE0130
        EL,LDAILY,LE0800
        EL,LDAILY,LL2530

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        LE0130,01:30:00,01:30:00,LPAD,1
        LE0130,01:40:00,01:40:00,LBS,2
        LE0800,08:00:00,08:00:00,LPAD,1
        LE0800,08:10:00,08:10:00,LBS,2
        LL2530,25:30:00,25:30:00,LPAD,1
        LL2530,25:40:00,25:40:00,LBS,2

        """,
    ]

    /// `santiago` (America/Santiago; 2026-09-06 00:00 -04 → 01:00 -03: that day has no local midnight).
    static let santiago: [String: String] = [
        "agency.txt": "agency_name,agency_url,agency_timezone\nRed,https://example.com,America/Santiago\n",
        "stops.txt":
            "stop_id,stop_name,stop_lat,stop_lon\nSTG1,Baquedano,-33.4372,-70.6345\nSTG2,Los Heroes,-33.4460,-70.6600\n",
        "routes.txt": "route_id,route_short_name,route_type\nL1,1,1\n",
        "calendar.txt": """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        SDAILY,1,1,1,1,1,1,1,20260101,20261231

        """,
        "trips.txt": "route_id,service_id,trip_id\nL1,SDAILY,S0030\nL1,SDAILY,S0800\nL1,SDAILY,S2530\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        S0030,00:30:00,00:30:00,STG1,1
        S0030,00:40:00,00:40:00,STG2,2
        S0800,08:00:00,08:00:00,STG1,1
        S0800,08:10:00,08:10:00,STG2,2
        S2530,25:30:00,25:30:00,STG1,1
        S2530,25:40:00,25:40:00,STG2,2

        """,
    ]

    /// Built once for every acceptance test that reads it.
    static let shared: Result<AcceptanceDB, any Error> = Result {
        try AcceptanceDB([
            .init(name: "ny", files: ny), .init(name: "london", files: london),
            .init(name: "santiago", files: santiago),
        ])
    }

    static func db() throws -> AcceptanceDB { try shared.get() }
}
