print("transit-gateway: not yet")
