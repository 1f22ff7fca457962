print("transit-realtime: not yet")
