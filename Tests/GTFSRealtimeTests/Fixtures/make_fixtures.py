"""Writes the .pb fixtures of GTFSRealtimeTests with Google's official bindings (a different encoder than
ours), so the tests decode bytes we did not produce. Run once and commit the output:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install gtfs-realtime-bindings
    /tmp/venv/bin/python make_fixtures.py      # in this folder

Made with gtfs-realtime-bindings 3.0.0 / protobuf 7.36.2. The expected values are spelled out in
OfficialFixtureTests.swift (official-detours.pb: TripModificationDecodingTests.swift); change both together.
"""
from google.transit import gtfs_realtime_pb2 as rt

FeedHeader = rt.FeedHeader
TD = rt.TripDescriptor
STU = rt.TripUpdate.StopTimeUpdate
VP = rt.VehiclePosition


def header(feed, timestamp):
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = FeedHeader.FULL_DATASET
    feed.header.timestamp = timestamp


def trip_updates():
    feed = rt.FeedMessage()
    header(feed, 1767225600)
    feed.header.feed_version = "static-2026-01"

    # Everything set.
    e = feed.entity.add(id="tu-1")
    tu = e.trip_update
    tu.trip.trip_id = "T1"
    tu.trip.route_id = "R1"
    tu.trip.direction_id = 1
    tu.trip.start_time = "25:10:00"
    tu.trip.start_date = "20260101"
    tu.trip.schedule_relationship = TD.SCHEDULED
    tu.trip.modified_trip.modifications_id = "M1"
    tu.trip.modified_trip.affected_trip_id = "T1"
    tu.trip.modified_trip.start_time = "25:10:00"
    tu.trip.modified_trip.start_date = "20260101"
    tu.vehicle.id = "V1"
    tu.vehicle.label = "Bus 1"
    tu.vehicle.license_plate = "AB-123"
    tu.vehicle.wheelchair_accessible = rt.VehicleDescriptor.WHEELCHAIR_ACCESSIBLE
    tu.timestamp = 1767225590
    tu.delay = 120
    s = tu.stop_time_update.add(stop_sequence=1, stop_id="S1")
    s.arrival.delay = 60
    s.arrival.uncertainty = 30
    s.departure.delay = 90
    s.departure.time = 1767225700
    s.departure.scheduled_time = 1767225610
    s.departure_occupancy_status = VP.MANY_SEATS_AVAILABLE
    s.schedule_relationship = STU.SCHEDULED
    s.stop_time_properties.assigned_stop_id = "S1b"
    s.stop_time_properties.stop_headsign = "City"
    s.stop_time_properties.pickup_type = STU.StopTimeProperties.PHONE_AGENCY
    s.stop_time_properties.drop_off_type = STU.StopTimeProperties.NONE
    tu.stop_time_update.add(stop_sequence=2, schedule_relationship=STU.SKIPPED)
    tu.stop_time_update.add(stop_id="S3", schedule_relationship=STU.NO_DATA)
    s = tu.stop_time_update.add(stop_sequence=4)
    s.arrival.delay = -30   # early: a negative int32
    tu.trip_properties.trip_id = "T1-dup"
    tu.trip_properties.start_date = "20260102"
    tu.trip_properties.start_time = "08:00:00"
    tu.trip_properties.shape_id = "SH1"
    tu.trip_properties.trip_headsign = "Airport"
    tu.trip_properties.trip_short_name = "X1"

    # Minimal cancelled trip: only what a producer must send.
    e = feed.entity.add(id="tu-2")
    e.trip_update.trip.trip_id = "T2"
    e.trip_update.trip.schedule_relationship = TD.CANCELED

    # Deleted entity (differential style) without payload.
    feed.entity.add(id="tu-3", is_deleted=True)
    return feed


def vehicle_positions():
    feed = rt.FeedMessage()
    header(feed, 1767225601)
    e = feed.entity.add(id="vp-1")
    v = e.vehicle
    v.trip.trip_id = "T1"
    v.trip.start_date = "20260101"
    v.vehicle.id = "V1"
    v.vehicle.label = "Train 7"
    v.position.latitude = -33.8688
    v.position.longitude = 151.2093
    v.position.bearing = 90.5
    v.position.odometer = 12345.25
    v.position.speed = 12.5
    v.current_stop_sequence = 5
    v.stop_id = "S5"
    v.current_status = VP.STOPPED_AT
    v.timestamp = 1767225595
    v.congestion_level = VP.STOP_AND_GO
    v.occupancy_status = VP.STANDING_ROOM_ONLY
    v.occupancy_percentage = 85
    c = v.multi_carriage_details.add(id="C1", label="1", occupancy_status=VP.FULL, occupancy_percentage=100, carriage_sequence=1)
    v.multi_carriage_details.add(id="C2", carriage_sequence=2)

    # A Transport for NSW-style extension 1007 on the vehicle descriptor, kept by the bindings as an
    # unknown field: field 1007, length-delimited, holding a small message (field 1 = "air_conditioned").
    tag = (1007 << 3) | 2
    payload = b"\x0a\x0fair_conditioned"
    raw = bytearray()
    while True:
        b = tag & 0x7F
        tag >>= 7
        raw.append(b | (0x80 if tag else 0))
        if not tag:
            break
    raw += bytes([len(payload)]) + payload
    descriptor = rt.VehicleDescriptor()
    descriptor.ParseFromString(v.vehicle.SerializeToString() + bytes(raw))
    v.vehicle.CopyFrom(descriptor)

    # No position, only a trip: still a valid vehicle entity.
    feed.entity.add(id="vp-2").vehicle.trip.trip_id = "T2"
    return feed


def alerts():
    feed = rt.FeedMessage()
    header(feed, 1767225602)
    e = feed.entity.add(id="al-1")
    a = e.alert
    a.active_period.add(start=1767225000)            # open end
    a.active_period.add(end=1767300000)              # open start
    a.communication_period.add(start=1767200000, end=1767300000)
    a.impact_period.add(start=1767225000, end=1767290000)
    a.informed_entity.add(stop_id="S1")
    a.informed_entity.add(route_id="R1", direction_id=0)
    a.informed_entity.add(agency_id="A1", route_type=3)
    a.informed_entity.add().trip.trip_id = "T1"
    a.cause = rt.Alert.MAINTENANCE
    a.effect = rt.Alert.DETOUR
    a.url.translation.add(text="https://example.org/a1")
    a.header_text.translation.add(text="Stop closed", language="en")
    a.header_text.translation.add(text="Haltestelle geschlossen", language="de")
    a.description_text.translation.add(text="Use stop S2.")
    a.tts_header_text.translation.add(text="Stop closed", language="en")
    a.tts_description_text.translation.add(text="Use stop S 2", language="en")
    a.severity_level = rt.Alert.WARNING
    a.image.localized_image.add(url="https://example.org/map.png", media_type="image/png", language="en")
    a.image_alternative_text.translation.add(text="Map of the detour")
    a.cause_detail.translation.add(text="Track work")
    a.effect_detail.translation.add(text="Buses detour via King St")
    return feed


def detours():
    """The experimental detour entities: trip modifications, a shape, a stop, and a trip update of the
    modified trip (TripDescriptor.modified_trip)."""
    feed = rt.FeedMessage()
    header(feed, 1767225603)
    e = feed.entity.add(id="tm-1")
    m = e.trip_modifications
    m.selected_trips.add(trip_ids=["T1", "T2"], shape_id="SH-detour")
    m.selected_trips.add(trip_ids=["T3"])
    m.start_times.append("08:00:00")
    m.service_dates.extend(["20260101", "20260102"])
    mod = m.modifications.add()
    mod.start_stop_selector.stop_sequence = 2
    mod.end_stop_selector.stop_id = "S3"
    mod.propagated_modification_delay = 120
    mod.replacement_stops.add(travel_time_to_stop=60, stop_id="R1")
    mod.replacement_stops.add(stop_id="R2")
    mod.service_alert_id = "al-1"
    mod.last_modified_time = 1767225000
    m.modifications.add().start_stop_selector.stop_id = "S5"   # nothing replaced, no end selector

    e = feed.entity.add(id="sh-1")
    e.shape.shape_id = "SH-detour"
    e.shape.encoded_polyline = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"

    e = feed.entity.add(id="st-1")
    s = e.stop
    s.stop_id = "R1"
    s.stop_code.translation.add(text="1001")
    s.stop_name.translation.add(text="Temporary stop", language="en")
    s.tts_stop_name.translation.add(text="Temporary stop")
    s.stop_desc.translation.add(text="Outside no. 12")
    s.stop_lat = -33.875
    s.stop_lon = 151.25
    s.zone_id = "Z1"
    s.stop_url.translation.add(text="https://example.org/r1")
    s.parent_station = "P1"
    s.stop_timezone = "Australia/Sydney"
    s.wheelchair_boarding = rt.Stop.AVAILABLE
    s.level_id = "L0"
    s.platform_code.translation.add(text="A")

    e = feed.entity.add(id="tu-m")
    sel = e.trip_update.trip.modified_trip
    sel.modifications_id = "tm-1"
    sel.affected_trip_id = "T1"
    sel.start_date = "20260101"
    e.trip_update.stop_time_update.add(stop_sequence=2, stop_id="R1").arrival.delay = 30
    return feed


for name, feed in [("official-trip-updates.pb", trip_updates()),
                   ("official-vehicle-positions.pb", vehicle_positions()),
                   ("official-alerts.pb", alerts()),
                   ("official-detours.pb", detours())]:
    data = feed.SerializeToString()
    with open(name, "wb") as f:
        f.write(data)
    print(name, len(data), "bytes")
