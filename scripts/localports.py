"""Ports on 127.0.0.1 for the launcher under the test scripts (faults, faults-ha, gateway-examples,
web-board-test, soak): free now and outside the kernel's ephemeral range.

A port from bind(("127.0.0.1", 0)) lies inside that range (ip_local_port_range, 32768-60999 by default), so any
outgoing connection on the machine may take it as its source port before the service meant to bind it does: a
standby binds its ports only when it is elected, a killed service again when it is restarted. One CI run of
scripts/faults-ha lost that way: realtime-1's even-numbered ports (Linux gives connect() even ones) were taken,
so every election it won ended in a failed start. connect() never hands out a port outside the range.
Tests/TransitTesting/FreePort.swift is the same choice for the Swift tests.
"""

import random
import socket


def ephemeral_range():
    """The ports connect() takes source ports from."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low, high = (int(x) for x in f.read().split())
            return low, high
    except (OSError, ValueError):
        return 32768, 60999


def is_free(port):
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


# Ports handed out by this process: given out but not bound yet, they would look free again.
_given = set()


def free_port_block(offsets):
    """A base port p with p + o free now for every o in offsets, all outside the ephemeral range, none handed
    out before by this process."""
    span = max(offsets)
    low, high = ephemeral_range()
    ranges = [r for r in ((10000, low - 1 - span), (high + 1, 65535 - span)) if r[0] <= r[1]]
    for _ in range(100 if ranges else 0):
        base = random.randint(*random.choice(ranges))
        ports = {base + o for o in offsets}
        if not ports & _given and all(is_free(p) for p in ports):
            _given.update(ports)
            return base
    raise SystemExit(f"no free block of ports {sorted(offsets)} outside the ephemeral range {low}-{high}")


def free_port():
    return free_port_block([0])
