print("transit-feedgen: not yet")
