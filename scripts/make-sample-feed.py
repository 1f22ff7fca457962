#!/usr/bin/env python3
"""Write the bundled Sydney-shaped sample GTFS feed into data/sample-gtfs/.

Deterministic (no randomness, no clock): running it twice gives byte-identical files.
Standard library only. Usage: scripts/make-sample-feed.py [--out DIR]

data/sample-gtfs/README.md documents which trips, stops and dates exercise which rule;
keep it in step when this script changes.
"""

import argparse
import csv
import datetime as dt
import io
import math
import os

FEED_START = dt.date(2025, 1, 1)
FEED_END = dt.date(2030, 12, 31)


def ymd(d):
    return d.strftime("%Y%m%d")


# --------------------------------------------------------------------------------------------
# Agencies (several ids, one timezone, as GTFS requires when a feed has several agencies)
# --------------------------------------------------------------------------------------------
AGENCIES = [
    ("SydneyTrains", "Sydney Trains", "https://transportnsw.info", "131500"),
    ("SMNW", "Sydney Metro", "https://transportnsw.info", "131500"),
    ("2459", "Transit Systems", "https://transportnsw.info", "131500"),
    ("2436", "Keolis Downer Northern Beaches", "https://transportnsw.info", "131500"),
    ("2440", "CDC NSW", "https://transportnsw.info", "131500"),
    ("SF", "Transdev Sydney Ferries", "https://transportnsw.info", "131500"),
    ("LR", "Transdev Sydney Light Rail", "https://transportnsw.info", "131500"),
]

# --------------------------------------------------------------------------------------------
# Stations: id, name, lat, lon, wheelchair_boarding of the parent
# Platforms are children: id = station id + two-digit platform number.
# --------------------------------------------------------------------------------------------
STATIONS = {
    "200060": ("Central Station", -33.883240, 151.206290, 1),
    "200070": ("Town Hall Station", -33.873310, 151.206700, 1),
    "200080": ("Wynyard Station", -33.865770, 151.205800, 1),
    "200020": ("Circular Quay Station", -33.861220, 151.210810, 1),
    "200030": ("St James Station", -33.870660, 151.210840, 2),
    "200040": ("Museum Station", -33.876440, 151.209630, 2),
    "200050": ("Martin Place Station", -33.867730, 151.211260, 1),
    "201100": ("Kings Cross Station", -33.874710, 151.222620, 1),
    "202710": ("Edgecliff Station", -33.879460, 151.236760, 1),
    "202210": ("Bondi Junction Station", -33.891340, 151.247430, 1),
    "201510": ("Redfern Station", -33.891710, 151.198560, 2),
    "204420": ("Sydenham Station", -33.915010, 151.166840, 1),
    "220510": ("Wolli Creek Station", -33.928330, 151.153010, 1),
    "222010": ("Hurstville Station", -33.967540, 151.102140, 1),
    "223210": ("Sutherland Station", -34.031310, 151.057720, 1),
    "223010": ("Cronulla Station", -34.055630, 151.153620, 1),
    "206010": ("North Sydney Station", -33.840430, 151.207340, 1),
    "206710": ("Chatswood Station", -33.796930, 151.180400, 1),
    "207720": ("Hornsby Station", -33.702400, 151.099430, 1),
    "213510": ("Strathfield Station", -33.871510, 151.094170, 1),
    "215020": ("Parramatta Station", -33.817410, 151.005440, 1),
    "214810": ("Blacktown Station", -33.769190, 150.906320, 1),
    "275010": ("Penrith Station", -33.750000, 150.694200, 1),
    "213410": ("Burwood Station", -33.877020, 151.103540, 0),
    "214110": ("Lidcombe Station", -33.864540, 151.047040, 1),
    "201710": ("Green Square Station", -33.905600, 151.202600, 1),
    "202010": ("Mascot Station", -33.921700, 151.187800, 1),
    "202020": ("Domestic Airport Station", -33.933200, 151.178900, 1),
    "202030": ("International Airport Station", -33.936200, 151.166300, 1),
    "221210": ("Revesby Station", -33.951600, 151.014400, 1),
    "256010": ("Campbelltown Station", -34.063300, 150.817100, 1),
    # Metro-only stations
    "2155384": ("Tallawong Station", -33.691600, 150.906000, 1),
    "2153478": ("Norwest Station", -33.732200, 150.962400, 1),
    "2154392": ("Castle Hill Station", -33.731700, 151.004600, 1),
    "212110": ("Epping Station", -33.772700, 151.081900, 1),
    "211310": ("Macquarie University Station", -33.775600, 151.115200, 1),
    "206520": ("Crows Nest Station", -33.826000, 151.201000, 1),
    "206020": ("Victoria Cross Station", -33.838600, 151.206500, 1),
    "200011": ("Barangaroo Station", -33.862600, 151.204800, 1),
    "200072": ("Gadigal Station", -33.875900, 151.207000, 1),
    "201720": ("Waterloo Station", -33.899400, 151.206900, 1),
    # Ferry wharves grouped under one parent, like the stations
    "10101100": ("Circular Quay Wharves", -33.861100, 151.211400, 1),
}

# Child wheelchair_boarding: 0 = inherit from parent (GTFS), a few explicit 1/2.
PLATFORM_WHEELCHAIR = {("200060", 16): 1, ("200060", 24): 2, ("200030", 1): 0, ("200070", 5): 2}

# Per line and station, the platform used by direction 0 and direction 1.
LINES_RAIL = {
    # line: (route_id, agency, long name, desc, colour, station ids in direction 0, default platforms)
    "T1": ("ST_T1", "SydneyTrains", "North Shore & Western Line",
           "Sydney Trains Network, Penrith to Hornsby via City", "F99D1C",
           ["275010", "214810", "215020", "213510", "200060", "200070", "200080", "206010", "206710", "207720"]),
    "T2": ("ST_T2", "SydneyTrains", "Inner West & Leppington Line",
           "Sydney Trains Network, Parramatta to City Circle via Strathfield", "0098CD",
           ["215020", "214110", "213510", "213410", "201510", "200060", "200070", "200080", "200020",
            "200030", "200040"]),
    "T4": ("ST_T4", "SydneyTrains", "Eastern Suburbs & Illawarra Line",
           "Sydney Trains Network, Bondi Junction to Cronulla", "005AA3",
           ["202210", "202710", "201100", "200050", "200070", "200060", "201510", "204420", "220510",
            "222010", "223210", "223010"]),
    "T8": ("ST_T8", "SydneyTrains", "Airport & South Line",
           "Sydney Trains Network, City Circle to Campbelltown via Airport", "00954C",
           ["200020", "200080", "200070", "200060", "201710", "202010", "202020", "202030", "220510",
            "221210", "256010"]),
    "M1": ("SMNW_M1", "SMNW", "Metro North West & Bankstown Line",
           "Sydney Metro, Tallawong to Sydenham", "168388",
           ["2155384", "2153478", "2154392", "212110", "211310", "206710", "206520", "206020", "200011",
            "200050", "200072", "200060", "201720", "204420"]),
}

PLATFORMS = {
    # (line, station): (platform dir 0, platform dir 1)
    ("T1", "200060"): (16, 17), ("T1", "200070"): (3, 4), ("T1", "200080"): (3, 4),
    ("T2", "200060"): (18, 19), ("T2", "200070"): (5, 6), ("T2", "200080"): (5, 6), ("T2", "200020"): (1, 2),
    ("T2", "200030"): (1, 2), ("T2", "200040"): (1, 2),
    ("T4", "200060"): (24, 25), ("T4", "200070"): (1, 2), ("T4", "200050"): (1, 2),
    ("T8", "200060"): (22, 23), ("T8", "200070"): (5, 6), ("T8", "200080"): (5, 6), ("T8", "200020"): (1, 2),
    ("M1", "200060"): (26, 27), ("M1", "206710"): (1, 2), ("M1", "212110"): (3, 4),
    ("M1", "200050"): (3, 4), ("M1", "204420"): (3, 4),
    ("T1", "206710"): (3, 4), ("T1", "213510"): (3, 4), ("T1", "215020"): (3, 4),
    ("T2", "215020"): (1, 2), ("T2", "213510"): (5, 6),
    ("T4", "204420"): (1, 2),
}

# --------------------------------------------------------------------------------------------
# Stops that are not stations: bus stops (no parent), light rail stops, wharves
# id: (name, lat, lon, wheelchair_boarding, code)
# --------------------------------------------------------------------------------------------
BUS_STOPS = {
    # 333 Circular Quay - North Bondi (prepaid, frequent)
    "2000421": ("Alfred St, Circular Quay, Stand A", -33.861700, 151.210300, 1),
    "2000136": ("Elizabeth St near Martin Place", -33.868400, 151.210500, 1),
    "2010120": ("Oxford St, Taylor Square", -33.880900, 151.217100, 1),
    "2022124": ("Bondi Junction Interchange, Stand D", -33.891500, 151.248900, 1),
    "2026113": ("Campbell Pde, Bondi Beach", -33.890500, 151.276700, 2),
    "2026180": ("Ramsgate Ave, North Bondi", -33.885100, 151.284400, 0),
    # 311 loop: Railway Square - Millers Point - Railway Square
    "2000161": ("Railway Square, George St, Stand A", -33.883700, 151.203600, 1),
    "2000238": ("Elizabeth St opp Museum Station", -33.875800, 151.210900, 1),
    "2000245": ("Bridge St near Loftus St", -33.863100, 151.209800, 1),
    "2000423": ("Alfred St, Circular Quay, Stand C", -33.861500, 151.209300, 1),
    "2000368": ("Kent St near Argyle Pl, Millers Point", -33.858700, 151.204300, 2),
    "2000384": ("York St, Wynyard Station, Stand E", -33.865300, 151.205000, 1),
    "2000117": ("Clarence St near Market St", -33.870800, 151.204600, 0),
    # L90 Wynyard - Palm Beach
    "2000383": ("Carrington St, Wynyard Station, Stand D", -33.866100, 151.206200, 1),
    "2089144": ("Military Rd, Neutral Bay", -33.832000, 151.218200, 1),
    "2088101": ("Spit Junction, Military Rd, Stand B", -33.824300, 151.243100, 1),
    "2099188": ("Pittwater Rd, Dee Why", -33.751900, 151.288500, 1),
    "2103203": ("Mona Vale, Pittwater Rd, Stand A", -33.677600, 151.303300, 0),
    "2107155": ("Barrenjoey Rd, Avalon Beach", -33.636300, 151.329100, 2),
    "2108102": ("Palm Beach Wharf, Barrenjoey Rd", -33.597900, 151.323600, 0),
    # 2519 school bus
    "2126201": ("Castle Hill Rd opp Cherrybrook Station", -33.736300, 151.047000, 1),
    "2126187": ("New Line Rd, Cherrybrook", -33.725200, 151.044500, 0),
    "2120310": ("Boundary Rd, Pennant Hills", -33.735400, 151.068800, 2),
    "2120399": ("Pennant Hills High School, Laurence St", -33.741100, 151.066900, 1),
    # N70 NightRide Town Hall - Penrith
    "2000140": ("Town Hall Station, York St, Stand N", -33.873100, 151.205500, 1),
    "2135178": ("Parramatta Rd, Strathfield", -33.868100, 151.094600, 0),
    "2150215": ("Parramatta Station, Argyle St, Stand B", -33.817700, 151.003600, 1),
    "2148193": ("Blacktown Station, Flushcombe Rd, Stand C", -33.768300, 150.905100, 1),
    "2750226": ("Penrith Station, Station St, Stand K", -33.750800, 150.694500, 1),
    # rail replacement buses, T8 trackwork
    "2044153": ("Sydenham Station, Railway Rd, Stand A", -33.914600, 151.167500, 1),
    "2205128": ("Wolli Creek Station, Arncliffe St", -33.928700, 151.153700, 1),
    "2020164": ("Domestic Airport Station, Stand R", -33.933600, 151.179500, 1),
    "2020311": ("International Airport Station, Stand R", -33.935800, 151.166900, 1),
}

LR_STOPS = {
    # L2 Randwick and L3 Kingsford share the CBD section down to Moore Park.
    "2000440": ("Circular Quay Light Rail", -33.861900, 151.209600, 1),
    "2000441": ("Bridge Street Light Rail", -33.864000, 151.207900, 1),
    "2000442": ("Wynyard Light Rail", -33.866700, 151.207200, 1),
    "2000443": ("QVB Light Rail", -33.871600, 151.206900, 1),
    "2000444": ("Town Hall Light Rail", -33.873900, 151.206600, 1),
    "2000445": ("Chinatown Light Rail", -33.878200, 151.205600, 1),
    "2000446": ("Haymarket Light Rail", -33.880500, 151.204600, 1),
    "2000447": ("Central Chalmers Street Light Rail", -33.884400, 151.207200, 1),
    "2010150": ("Surry Hills Light Rail", -33.887900, 151.212400, 1),
    "2021150": ("Moore Park Light Rail", -33.893500, 151.222300, 1),
    "2031150": ("Royal Randwick Light Rail", -33.908600, 151.233100, 1),
    "2031151": ("Randwick Light Rail", -33.915800, 151.240500, 1),
    "2033150": ("Kensington Light Rail", -33.906900, 151.223100, 1),
    "2033151": ("UNSW Anzac Parade Light Rail", -33.915400, 151.226200, 1),
    "2032150": ("Kingsford Light Rail", -33.923800, 151.227100, 1),
    "2032151": ("Juniors Kingsford Light Rail", -33.928400, 151.226900, 1),
}

WHARVES = {
    # children of 10101100 (Circular Quay Wharves)
    "10101102": ("Circular Quay, Wharf 2", -33.860700, 151.211600, 0, "10101100", "2"),
    "10101103": ("Circular Quay, Wharf 3", -33.860600, 151.212300, 0, "10101100", "3"),
    # standalone wharves
    "10102027": ("Manly Wharf", -33.800300, 151.284200, 1, "", ""),
    "10103028": ("Taronga Zoo Wharf", -33.846200, 151.240300, 2, "", ""),
    "10102031": ("Watsons Bay Wharf", -33.843800, 151.281600, 0, "", ""),
}

# --------------------------------------------------------------------------------------------
# Services and calendars
# --------------------------------------------------------------------------------------------
def easter(year):
    """Anonymous Gregorian computus."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return dt.date(year, month, day)


def nth_weekday(year, month, weekday, n):
    d = dt.date(year, month, 1)
    d += dt.timedelta(days=(weekday - d.weekday()) % 7)
    return d + dt.timedelta(weeks=n - 1)


def nsw_public_holidays(year):
    """NSW public holidays (incl. weekend substitutes) of one year, sorted."""
    days = set()

    def with_monday_substitute(d):
        days.add(d)
        if d.weekday() == 5:
            days.add(d + dt.timedelta(days=2))
        elif d.weekday() == 6:
            days.add(d + dt.timedelta(days=1))

    with_monday_substitute(dt.date(year, 1, 1))
    with_monday_substitute(dt.date(year, 1, 26))
    e = easter(year)
    days.update({e - dt.timedelta(days=2), e - dt.timedelta(days=1), e, e + dt.timedelta(days=1)})
    days.add(dt.date(year, 4, 25))
    days.add(nth_weekday(year, 6, 0, 2))    # King's Birthday: second Monday of June
    days.add(nth_weekday(year, 10, 0, 1))   # Labour Day: first Monday of October
    xmas, boxing = dt.date(year, 12, 25), dt.date(year, 12, 26)
    days.update({xmas, boxing})
    if xmas.weekday() == 5:      # Sat: Mon 27 and Tue 28 are the substitutes
        days.update({dt.date(year, 12, 27), dt.date(year, 12, 28)})
    elif xmas.weekday() == 6:    # Sun: Boxing Day Mon 26, Christmas substitute Tue 27
        days.add(dt.date(year, 12, 27))
    elif xmas.weekday() == 4:    # Fri: Boxing Day Sat, substitute Mon 28
        days.add(dt.date(year, 12, 28))
    return sorted(days)


def weekday_holidays():
    out = []
    for y in range(FEED_START.year, FEED_END.year + 1):
        out += [d for d in nsw_public_holidays(y) if d.weekday() < 5]
    return out


def school_holiday_weekdays():
    """Summer school holidays (about 20 Dec - 27 Jan): weekdays only."""
    out = []
    d = FEED_START
    while d <= FEED_END:
        if d.weekday() < 5 and ((d.month == 12 and d.day >= 20) or (d.month == 1 and d.day <= 27)):
            out.append(d)
        d += dt.timedelta(days=1)
    return out


NYE_DATES = [dt.date(y, 12, 31) for y in range(2025, 2031)]
TRACKWORK_DATES = [dt.date(2025, 3, 8), dt.date(2025, 3, 9), dt.date(2026, 3, 7), dt.date(2026, 3, 8),
                   dt.date(2026, 8, 15), dt.date(2026, 8, 16), dt.date(2027, 5, 1), dt.date(2027, 5, 2)]

CALENDAR = [
    # service_id, mon..sun
    ("WKD", (1, 1, 1, 1, 1, 0, 0)),
    ("SAT", (0, 0, 0, 0, 0, 1, 0)),
    ("SUN", (0, 0, 0, 0, 0, 0, 1)),
    ("SCHOOL", (1, 1, 1, 1, 1, 0, 0)),
]


def calendar_dates_rows():
    rows = []
    for d in weekday_holidays():
        rows.append(("WKD", ymd(d), 2))
        rows.append(("SUN", ymd(d), 1))
        rows.append(("SCHOOL", ymd(d), 2))
    holiday_set = set(weekday_holidays())
    for d in school_holiday_weekdays():
        if d not in holiday_set:
            rows.append(("SCHOOL", ymd(d), 2))
    rows += [("NYE", ymd(d), 1) for d in NYE_DATES]
    rows += [("TRACKWORK", ymd(d), 1) for d in TRACKWORK_DATES]
    rows.sort(key=lambda r: (r[1], r[0]))
    return rows


# --------------------------------------------------------------------------------------------
# Geometry and times
# --------------------------------------------------------------------------------------------
def stop_position(stop_id):
    for table in (STATIONS, BUS_STOPS, LR_STOPS, WHARVES):
        if stop_id in table:
            return table[stop_id][1], table[stop_id][2]
    if stop_id[:-2] in STATIONS:  # platform
        return STATIONS[stop_id[:-2]][1], STATIONS[stop_id[:-2]][2]
    raise KeyError(stop_id)


def distance_km(a, b):
    (la1, lo1), (la2, lo2) = stop_position(a), stop_position(b)
    dy = (la2 - la1) * 111.2
    dx = (lo2 - lo1) * 111.2 * 0.8305  # cos(-33.85 deg), fixed so the output never depends on libm
    return (dx * dx + dy * dy) ** 0.5


def run_minutes(a, b, kmh, minimum):
    # straight-line distance * 1.3 for the real path, at an average speed that includes dwell times
    return max(minimum, int(round(distance_km(a, b) * 1.3 / kmh * 60)))


def hhmmss(secs, no_pad=False):
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    if no_pad:
        return "%d:%02d:%02d" % (h, m, s)
    return "%02d:%02d:%02d" % (h, m, s)


def hhmm_id(secs):
    return "%02d%02d" % (secs // 3600, (secs % 3600) // 60)


def minutes(h, m=0):
    return (h * 60 + m) * 60


# --------------------------------------------------------------------------------------------
# Feed assembly
# --------------------------------------------------------------------------------------------
class Feed:
    def __init__(self):
        self.routes = []
        self.trips = []
        self.stop_times = []
        self.frequencies = []
        self.trip_ids = set()

    def add_trip(self, route_id, service_id, trip_id, headsign, direction, wheelchair, block_id="",
                 vehicle_category=""):
        assert trip_id not in self.trip_ids, trip_id
        self.trip_ids.add(trip_id)
        self.trips.append(dict(route_id=route_id, service_id=service_id, trip_id=trip_id,
                               trip_headsign=headsign, direction_id=direction, block_id=block_id,
                               shape_id="", wheelchair_accessible=wheelchair,
                               vehicle_category_id=vehicle_category))

    def add_stop_times(self, trip_id, rows, no_pad_hours=False, seq_step=1, seq_start=1):
        """rows: (stop_id, arrival_secs, departure_secs, pickup_type, drop_off_type)"""
        for i, (stop_id, arr, dep, pickup, drop) in enumerate(rows):
            self.stop_times.append(dict(
                trip_id=trip_id, stop_sequence=seq_start + i * seq_step, stop_id=stop_id,
                arrival_time=hhmmss(arr, no_pad_hours), departure_time=hhmmss(dep, no_pad_hours),
                pickup_type=pickup, drop_off_type=drop, timepoint=1))


def timed_rows(stops, start, kmh, minimum, dwell=None, pickup=None, drop=None):
    """Stop rows of one trip from a start time and a per-segment running time."""
    dwell = dwell or {}
    pickup = pickup or {}
    drop = drop or {}
    rows, t = [], start
    for i, s in enumerate(stops):
        if i > 0:
            t += run_minutes(stops[i - 1], s, kmh, minimum) * 60
        arr = t
        t += dwell.get(s, 0)
        # ends keep pickup_type/drop_off_type 0 (as TfNSW writes them): a consumer must know by itself
        # that a trip's last stop offers no departure
        rows.append((s, arr, t, pickup.get(s, 0), drop.get(s, 0)))
    return rows


def departures(first, last, headway):
    return list(range(first, last + 1, headway))


def rail_line(feed, line, schedule, kmh, no_pad_hours=False, seq_step=1):
    """schedule: list of (service_id, first departure, last departure, headway in minutes)."""
    route_id, agency, long_name, desc, colour, stations = LINES_RAIL[line]
    for direction in (0, 1):
        seq = stations if direction == 0 else list(reversed(stations))
        stops = []
        for st in seq:
            p0, p1 = PLATFORMS.get((line, st), (1, 2))
            stops.append("%s%02d" % (st, p0 if direction == 0 else p1))
        headsign = STATIONS[seq[-1]][0].replace(" Station", "")
        # one-minute dwell at Central, so arrival and departure differ there
        dwell = {s: 60 for s in stops if s.startswith("200060")}
        for service, first, last, headway in schedule:
            for dep in departures(first, last, headway * 60):
                trip_id = "%s.%s.%d.%s" % (line, service, direction, hhmm_id(dep))
                feed.add_trip(route_id, service, trip_id, headsign, direction, 1)
                feed.add_stop_times(trip_id, timed_rows(stops, dep, kmh, 2, dwell), no_pad_hours, seq_step,
                                    seq_start=seq_step)


def build():
    feed = Feed()
    R = feed.routes

    def route(route_id, agency, short, long_name, rtype, colour, text, desc=""):
        R.append(dict(route_id=route_id, agency_id=agency, route_short_name=short, route_long_name=long_name,
                      route_desc=desc, route_type=rtype, route_color=colour, route_text_color=text))

    for line in ("T1", "T2", "T4", "T8"):
        route_id, agency, long_name, desc, colour, _ = LINES_RAIL[line]
        route(route_id, agency, line, long_name, 2, colour, "FFFFFF", desc)
    route("SMNW_M1", "SMNW", "M1", LINES_RAIL["M1"][2], 401, "168388", "FFFFFF", LINES_RAIL["M1"][3])
    route("2459_333", "2459", "333", "Circular Quay to North Bondi (Prepay Only)", 700, "00B5EF", "FFFFFF",
          'Sydney Buses Network, "Prepay Only" route')
    route("2459_311", "2459", "311", "Railway Square to Millers Point (Loop Service)", 700, "00B5EF", "FFFFFF",
          "Sydney Buses Network")
    route("2436_L90", "2436", "L90", "Wynyard to Palm Beach (Limited Stops)", 700, "00B5EF", "FFFFFF",
          "Sydney Buses Network")
    route("2459_N70", "2459", "N70", "Town Hall to Penrith (NightRide)", 700, "1F2A44", "FFFFFF",
          "Sydney NightRide Network")
    route("2440_2519", "2440", "2519", "Cherrybrook to Pennant Hills High School", 712, "FDB913", "000000",
          "School Buses")
    route("ST_RRT8", "SydneyTrains", "T8", "Buses replace T8 trains, Sydenham to International Airport",
          714, "00954C", "FFFFFF", "Rail replacement buses")
    route("SF_F1", "SF", "F1", "Manly", 4, "00774B", "FFFFFF", "Sydney Ferries Network")
    route("SF_F2", "SF", "F2", "Taronga Zoo", 4, "144734", "FFFFFF", "Sydney Ferries Network")
    route("LR_L2", "LR", "L2", "Randwick Line", 900, "DD1E25", "FFFFFF", "Sydney Light Rail")
    route("LR_L3", "LR", "L3", "Kingsford Line", 900, "781140", "FFFFFF", "Sydney Light Rail")

    # ---- Trains: T1 every 30 min on weekdays (15 min in the peaks), hourly on weekends; the other
    # lines hourly on weekdays, every two hours on weekends (kept thin so the sample stays small).
    # The last weekday departures (23:40) run past midnight.
    rail_line(feed, "T1", [("WKD", minutes(5, 10), minutes(6, 40), 30),
                           ("WKD", minutes(7, 10), minutes(9, 25), 15),
                           ("WKD", minutes(9, 40), minutes(16, 10), 30),
                           ("WKD", minutes(16, 25), minutes(18, 40), 15),
                           ("WKD", minutes(19, 10), minutes(23, 40), 30),
                           ("SAT", minutes(5, 40), minutes(23, 40), 60),
                           ("SUN", minutes(6, 40), minutes(23, 40), 60)], kmh=55)
    # T4 writes single-digit hours ("5:07:00"), which GTFS allows.
    rail_line(feed, "T4", [("WKD", minutes(5, 7), minutes(23, 7), 60),
                           ("SAT", minutes(5, 37), minutes(23, 37), 120),
                           ("SUN", minutes(6, 37), minutes(22, 37), 120)], kmh=50, no_pad_hours=True)
    rail_line(feed, "T2", [("WKD", minutes(5, 22), minutes(23, 22), 60),
                           ("SAT", minutes(6, 22), minutes(22, 22), 120),
                           ("SUN", minutes(7, 22), minutes(21, 22), 120)], kmh=50)
    # T8 uses stop_sequence 10, 20, 30, ...
    rail_line(feed, "T8", [("WKD", minutes(5, 45), minutes(22, 45), 60),
                           ("SAT", minutes(6, 45), minutes(21, 45), 120),
                           ("SUN", minutes(6, 45), minutes(21, 45), 120)], kmh=50, seq_step=10)

    # ---- Metro M1: frequency-based with exact_times=1 (a fixed timetable written compactly).
    route_id, _, _, _, _, stations = LINES_RAIL["M1"]
    for direction in (0, 1):
        seq = stations if direction == 0 else list(reversed(stations))
        stops = ["%s%02d" % (st, PLATFORMS.get(("M1", st), (1, 2))[direction]) for st in seq]
        headsign = STATIONS[seq[-1]][0].replace(" Station", "")
        for service, windows in (
            ("WKD", [(minutes(5, 0), minutes(7, 0), 600), (minutes(7, 0), minutes(10, 0), 240),
                     (minutes(10, 0), minutes(15, 0), 480), (minutes(15, 0), minutes(19, 0), 240),
                     (minutes(19, 0), minutes(24, 0), 600)]),
            ("SAT", [(minutes(5, 0), minutes(24, 0), 600)]),
            ("SUN", [(minutes(5, 0), minutes(24, 0), 600)]),
        ):
            trip_id = "M1.%s.%d.FREQ" % (service, direction)
            feed.add_trip(route_id, service, trip_id, headsign, direction, 1)
            feed.add_stop_times(trip_id, timed_rows(stops, windows[0][0], 60, 2))
            for start, end, headway in windows:
                feed.frequencies.append(dict(trip_id=trip_id, start_time=hhmmss(start), end_time=hhmmss(end),
                                             headway_secs=headway, exact_times=1))

    # ---- Light rail L2 and L3: frequency-based with exact_times=0 (headway only).
    cbd = ["2000440", "2000441", "2000442", "2000443", "2000444", "2000445", "2000446", "2000447",
           "2010150", "2021150"]
    for line, route_id, tail in (("L2", "LR_L2", ["2031150", "2031151"]),
                                 ("L3", "LR_L3", ["2033150", "2033151", "2032150", "2032151"])):
        for direction in (0, 1):
            stops = cbd + tail if direction == 0 else list(reversed(cbd + tail))
            headsign = LR_STOPS[stops[-1]][0].replace(" Light Rail", "")
            for service, windows in (
                ("WKD", [(minutes(5, 0), minutes(7, 0), 900), (minutes(7, 0), minutes(19, 0), 480),
                         (minutes(19, 0), minutes(25, 0), 900)]),
                ("SAT", [(minutes(5, 0), minutes(25, 0), 600)]),
                ("SUN", [(minutes(5, 30), minutes(24, 30), 720)]),
            ):
                trip_id = "%s.%s.%d.FREQ" % (line, service, direction)
                feed.add_trip(route_id, service, trip_id, headsign, direction, 1)
                feed.add_stop_times(trip_id, timed_rows(stops, windows[0][0], 18, 2))
                for start, end, headway in windows:
                    feed.frequencies.append(dict(trip_id=trip_id, start_time=hhmmss(start),
                                                 end_time=hhmmss(end), headway_secs=headway, exact_times=0))

    # ---- Bus 333: hourly on weekdays, every two hours on weekends.
    s333 = ["2000421", "2000136", "2010120", "2022124", "2026113", "2026180"]
    for direction in (0, 1):
        stops = s333 if direction == 0 else list(reversed(s333))
        headsign = "North Bondi" if direction == 0 else "Circular Quay"
        for service, first, last, hw in (("WKD", minutes(6, 5), minutes(23, 5), 60),
                                         ("SAT", minutes(7, 5), minutes(23, 5), 120),
                                         ("SUN", minutes(7, 5), minutes(21, 5), 120)):
            for dep in departures(first, last, hw * 60):
                trip_id = "333.%s.%d.%s" % (service, direction, hhmm_id(dep))
                # the 11:05 and 15:05 runs use an older bus without a ramp; the 13:05 one is unknown
                wheelchair = {minutes(11, 5): 2, minutes(15, 5): 2, minutes(13, 5): 0}.get(dep, 1)
                feed.add_trip("2459_333", service, trip_id, headsign, direction, wheelchair)
                feed.add_stop_times(trip_id, timed_rows(stops, dep, 18, 3))

    # ---- Bus 311 loop: starts and ends at Railway Square; Bridge St near Loftus St (2000245) twice.
    s311 = ["2000161", "2000238", "2000245", "2000423", "2000368", "2000245", "2000384", "2000117",
            "2000161"]
    for service, first, last in (("WKD", minutes(6, 10), minutes(21, 10)), ("SAT", minutes(8, 10), minutes(18, 10))):
        for dep in departures(first, last, 3600):
            trip_id = "311.%s.0.%s" % (service, hhmm_id(dep))
            feed.add_trip("2459_311", service, trip_id, "Railway Square (Loop)", 0, 1)
            feed.add_stop_times(trip_id, timed_rows(s311, dep, 15, 3))

    # ---- L90: city-bound buses are set-down only (pickup_type=1) at Military Rd, Neutral Bay;
    # outbound ones are pick-up only there (drop_off_type=1). stop_sequence 5, 10, 15, ...
    sL90 = ["2000383", "2089144", "2088101", "2099188", "2103203", "2107155", "2108102"]
    for direction in (0, 1):
        stops = sL90 if direction == 0 else list(reversed(sL90))
        headsign = "Palm Beach" if direction == 0 else "Wynyard"
        pickup = {"2089144": 1} if direction == 1 else {}
        drop = {"2089144": 1} if direction == 0 else {}
        for service, first, last, hw in (("WKD", minutes(5, 30), minutes(23, 30), 60),
                                         ("SAT", minutes(6, 30), minutes(22, 30), 120),
                                         ("SUN", minutes(7, 30), minutes(21, 30), 120)):
            for dep in departures(first, last, hw * 60):
                trip_id = "L90.%s.%d.%s" % (service, direction, hhmm_id(dep))
                feed.add_trip("2436_L90", service, trip_id, headsign, direction, 1)
                feed.add_stop_times(trip_id, timed_rows(stops, dep, 30, 4, pickup=pickup, drop=drop),
                                    seq_step=5, seq_start=5)

    # ---- N70 NightRide: trips of the evening's service day written as 24:10 ... 28:10.
    sN70 = ["2000140", "2135178", "2150215", "2148193", "2750226"]
    for direction in (0, 1):
        stops = sN70 if direction == 0 else list(reversed(sN70))
        headsign = "Penrith" if direction == 0 else "Town Hall"
        start0 = minutes(24, 10) if direction == 0 else minutes(24, 5)
        for service in ("WKD", "SAT", "SUN"):
            for dep in departures(start0, start0 + 4 * 3600, 3600):
                trip_id = "N70.%s.%d.%s" % (service, direction, hhmm_id(dep))
                feed.add_trip("2459_N70", service, trip_id, headsign, direction, 1)
                feed.add_stop_times(trip_id, timed_rows(stops, dep, 45, 5))

    # ---- School bus 2519 (route_type 712), SCHOOL service: no trips in summer holidays.
    s2519 = ["2126201", "2126187", "2120310", "2120399"]
    feed.add_trip("2440_2519", "SCHOOL", "2519.SCHOOL.0.0805", "Pennant Hills High School", 0, 2)
    feed.add_stop_times("2519.SCHOOL.0.0805", timed_rows(s2519, minutes(8, 5), 20, 3))
    feed.add_trip("2440_2519", "SCHOOL", "2519.SCHOOL.1.1520", "Cherrybrook Station", 1, 2)
    feed.add_stop_times("2519.SCHOOL.1.1520", timed_rows(list(reversed(s2519)), minutes(15, 20), 20, 3))

    # ---- Rail replacement buses (route_type 714), TRACKWORK service: only on calendar_dates.
    sRR = ["2044153", "2205128", "2020164", "2020311"]
    for direction in (0, 1):
        stops = sRR if direction == 0 else list(reversed(sRR))
        headsign = "International Airport" if direction == 0 else "Sydenham"
        for dep in departures(minutes(6, 0), minutes(22, 0), 7200):
            trip_id = "RRT8.TRACKWORK.%d.%s" % (direction, hhmm_id(dep))
            feed.add_trip("ST_RRT8", "TRACKWORK", trip_id, headsign, direction, 1, vehicle_category="BUS")
            feed.add_stop_times(trip_id, timed_rows(stops, dep, 20, 4))

    # ---- Ferries. F1 Manly every 30 min on weekdays, hourly on weekends; F2 Taronga hourly.
    for direction in (0, 1):
        stops = ["10101103", "10102027"] if direction == 0 else ["10102027", "10101103"]
        headsign = "Manly" if direction == 0 else "Circular Quay"
        for service, first, last, hw in (("WKD", minutes(5, 30), minutes(23, 30), 30),
                                         ("SAT", minutes(7, 0), minutes(23, 0), 120),
                                         ("SUN", minutes(7, 0), minutes(21, 0), 120)):
            for dep in departures(first, last, hw * 60):
                trip_id = "F1.%s.%d.%s" % (service, direction, hhmm_id(dep))
                feed.add_trip("SF_F1", service, trip_id, headsign, direction, 1, vehicle_category="FERRY")
                feed.add_stop_times(trip_id, timed_rows(stops, dep, 20, 20))
        # New Year's Eve only (calendar_dates): after-midnight runs 24:15, 24:45, 25:15
        for dep in (minutes(24, 15), minutes(24, 45), minutes(25, 15)):
            trip_id = "F1.NYE.%d.%s" % (direction, hhmm_id(dep))
            feed.add_trip("SF_F1", "NYE", trip_id, headsign, direction, 1, vehicle_category="FERRY")
            feed.add_stop_times(trip_id, timed_rows(stops, dep, 20, 20))
    for direction in (0, 1):
        stops = ["10101102", "10103028"] if direction == 0 else ["10103028", "10101102"]
        headsign = "Taronga Zoo" if direction == 0 else "Circular Quay"
        for service in ("WKD", "SAT", "SUN"):
            first = minutes(7, 15) if direction == 0 else minutes(7, 30)
            for dep in departures(first, first + 12 * 3600, 3600):
                trip_id = "F2.%s.%d.%s" % (service, direction, hhmm_id(dep))
                feed.add_trip("SF_F2", service, trip_id, headsign, direction, 2, vehicle_category="FERRY")
                feed.add_stop_times(trip_id, timed_rows(stops, dep, 15, 12))
    return feed


def stops_rows():
    rows = []

    def stop(stop_id, code, name, lat, lon, loc_type, parent, wheelchair, platform):
        rows.append(dict(stop_id=stop_id, stop_code=code, stop_name=name, stop_lat="%.6f" % lat,
                         stop_lon="%.6f" % lon, location_type=loc_type, parent_station=parent,
                         wheelchair_boarding=wheelchair, platform_code=platform))

    used_platforms = set()
    for line, (_, _, _, _, _, stations) in LINES_RAIL.items():
        for st in stations:
            p = PLATFORMS.get((line, st), (1, 2))
            used_platforms.add((st, p[0]))
            used_platforms.add((st, p[1]))
    for sid, (name, lat, lon, wc) in STATIONS.items():
        if sid == "10101100":
            stop(sid, "", name, lat, lon, 1, "", wc, "")
            continue
        stop(sid, "", name, lat, lon, 1, "", wc, "")
        for st, p in sorted(used_platforms):
            if st != sid:
                continue
            # platforms spread a few metres apart so nearby results are stable
            stop("%s%02d" % (sid, p), "%s%02d" % (sid, p), "%s, Platform %d" % (name, p),
                 lat + 0.00004 * (p % 7 - 3), lon + 0.00004 * (p % 5 - 2), 0, sid,
                 PLATFORM_WHEELCHAIR.get((sid, p), 0), str(p))
        if sid == "200060":
            # Central: platforms nobody in this feed uses (intercity), an entrance and a generic node
            for p in (1, 2):
                stop("%s%02d" % (sid, p), "%s%02d" % (sid, p), "%s, Platform %d" % (name, p),
                     lat + 0.0006, lon - 0.0003 * p, 0, sid, 1, str(p))
            stop("200060E1", "", "Central Station, Eddy Ave Entrance", -33.882700, 151.207800, 2, sid, 1, "")
            stop("200060E2", "", "Central Station, Chalmers St Entrance", -33.883900, 151.207400, 2, sid, 2, "")
            stop("200060N1", "", "Central Station, Grand Concourse", -33.883000, 151.206000, 3, sid, 1, "")
        if sid == "200070":
            stop("200070E1", "", "Town Hall Station, George St Entrance", -33.873500, 151.206900, 2, sid, 1, "")
    for sid, (name, lat, lon, wc) in BUS_STOPS.items():
        stop(sid, sid, name, lat, lon, 0, "", wc, "")
    for sid, (name, lat, lon, wc) in LR_STOPS.items():
        stop(sid, sid, name, lat, lon, 0, "", wc, "")
    for sid, (name, lat, lon, wc, parent, platform) in WHARVES.items():
        stop(sid, sid, name, lat, lon, 0, parent, wc, platform)
    return rows


# --------------------------------------------------------------------------------------------
# Shapes: one per pattern (route + stop sequence), a smooth synthetic curve through every stop
# --------------------------------------------------------------------------------------------
# Routes left without shapes, so the straight line through the stops has a case: the school bus.
ROUTES_WITHOUT_SHAPES = {"2440_2519"}
CURVE_STEPS = 8  # points per segment between two stops (the stop itself included)


def shape_points(stops):
    """(lat, lon, dist_m) of a curve through every stop: between two stops a quadratic Bezier curve whose
    control point sits off the straight line by 12 % of its length, alternately left and right, so the line
    bends like a road but still passes through each stop exactly. Plain arithmetic only (no libm), so the
    output is the same everywhere."""
    points = [stop_position(stops[0])]
    for i in range(1, len(stops)):
        (la1, lo1), (la2, lo2) = stop_position(stops[i - 1]), stop_position(stops[i])
        side = 0.12 if i % 2 else -0.12
        # perpendicular offset in degrees, scaled so it is perpendicular on the ground
        cla = (la1 + la2) / 2 - (lo2 - lo1) * 0.8305 * side
        clo = (lo1 + lo2) / 2 + (la2 - la1) / 0.8305 * side
        for k in range(1, CURVE_STEPS + 1):
            t = k / CURVE_STEPS
            a, b, c = (1 - t) * (1 - t), 2 * (1 - t) * t, t * t
            points.append((a * la1 + b * cla + c * la2, a * lo1 + b * clo + c * lo2))
    rows, dist = [], 0.0
    for i, (la, lo) in enumerate(points):
        if i > 0:
            dy = (la - points[i - 1][0]) * 111200.0
            dx = (lo - points[i - 1][1]) * 111200.0 * 0.8305
            dist += (dx * dx + dy * dy) ** 0.5
        rows.append((la, lo, dist))
    return rows


def add_shapes(feed):
    """Gives each trip the shape of its pattern; returns the shapes.txt rows."""
    stops_by_trip = {}
    for r in feed.stop_times:
        stops_by_trip.setdefault(r["trip_id"], []).append(r["stop_id"])
    shape_ids, rows = {}, []
    for trip in feed.trips:
        if trip["route_id"] in ROUTES_WITHOUT_SHAPES:
            continue
        stops = tuple(stops_by_trip[trip["trip_id"]])
        key = (trip["route_id"], stops)
        if key not in shape_ids:
            shape_id = "%s.%d" % (trip["route_id"], sum(1 for k in shape_ids if k[0] == trip["route_id"]) + 1)
            shape_ids[key] = shape_id
            for seq, (la, lo, dist) in enumerate(shape_points(stops), start=1):
                rows.append(dict(shape_id=shape_id, shape_pt_lat="%.6f" % la, shape_pt_lon="%.6f" % lo,
                                 shape_pt_sequence=seq, shape_dist_traveled="%.1f" % dist))
        trip["shape_id"] = shape_ids[key]
    return rows


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------
def write_csv(path, columns, rows, bom=False, crlf=False):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n" if crlf else "\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(columns)
    for r in rows:
        w.writerow([r[c] for c in columns])
    data = buf.getvalue().encode("utf-8")
    if bom:
        data = b"\xef\xbb\xbf" + data
    with open(path, "wb") as f:
        f.write(data)
    return len(rows)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(here, "..", "data", "sample-gtfs"))
    out = parser.parse_args().out
    os.makedirs(out, exist_ok=True)
    feed = build()
    shapes = add_shapes(feed)
    counts = {}

    counts["agency"] = write_csv(
        os.path.join(out, "agency.txt"),
        ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone"],
        [dict(agency_id=a, agency_name=n, agency_url=u, agency_timezone="Australia/Sydney", agency_lang="en",
              agency_phone=p) for a, n, u, p in AGENCIES])
    # stops.txt: UTF-8 BOM and CRLF line endings; names with commas are quoted.
    counts["stops"] = write_csv(
        os.path.join(out, "stops.txt"),
        ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station",
         "wheelchair_boarding", "platform_code"],
        stops_rows(), bom=True, crlf=True)
    counts["routes"] = write_csv(
        os.path.join(out, "routes.txt"),
        ["route_id", "agency_id", "route_short_name", "route_long_name", "route_desc", "route_type",
         "route_color", "route_text_color"], feed.routes)
    # trips.txt: an extra column GTFS does not define (TfNSW's vehicle_category_id).
    counts["trips"] = write_csv(
        os.path.join(out, "trips.txt"),
        ["route_id", "service_id", "trip_id", "trip_headsign", "direction_id", "block_id", "shape_id",
         "wheelchair_accessible", "vehicle_category_id"], feed.trips)
    # stop_times.txt: columns in a non-standard order.
    counts["stop_times"] = write_csv(
        os.path.join(out, "stop_times.txt"),
        ["trip_id", "stop_sequence", "stop_id", "departure_time", "arrival_time", "pickup_type",
         "drop_off_type", "timepoint"], feed.stop_times)
    counts["calendar"] = write_csv(
        os.path.join(out, "calendar.txt"),
        ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
         "start_date", "end_date"],
        [dict(service_id=s, monday=d[0], tuesday=d[1], wednesday=d[2], thursday=d[3], friday=d[4],
              saturday=d[5], sunday=d[6], start_date=ymd(FEED_START), end_date=ymd(FEED_END))
         for s, d in CALENDAR])
    counts["calendar_dates"] = write_csv(
        os.path.join(out, "calendar_dates.txt"), ["service_id", "date", "exception_type"],
        [dict(service_id=s, date=d, exception_type=e) for s, d, e in calendar_dates_rows()])
    counts["frequencies"] = write_csv(
        os.path.join(out, "frequencies.txt"), ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
        feed.frequencies)
    counts["shapes"] = write_csv(
        os.path.join(out, "shapes.txt"),
        ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"], shapes)
    counts["feed_info"] = write_csv(
        os.path.join(out, "feed_info.txt"),
        ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date",
         "feed_version", "feed_contact_email"],
        [dict(feed_publisher_name="Transit sample feed (synthetic, Sydney-shaped)",
              feed_publisher_url="https://example.org/transit-sample", feed_lang="en",
              feed_start_date=ymd(FEED_START), feed_end_date=ymd(FEED_END), feed_version="sample-2025.1",
              feed_contact_email="sample-feed@example.org")])
    print(" ".join("%s=%d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()
