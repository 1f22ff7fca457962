print("transit-static: not yet")
