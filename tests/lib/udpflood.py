#!/usr/bin/env python3
"""A loopback UDP flood: 1400-byte datagrams to a socket of its own on 127.0.0.1, drained by
itself, for SECONDS.  Each send's receive path runs as a NET_RX softirq on the sender's CPU
(loopback_xmit in drivers/net/loopback.c hands the packet to __netif_rx, which queues it
to the current CPU's backlog without RPS, net/core/dev.c), so pinning the flood
(taskset -c N) puts NET_RX softirqs on CPU N.  Used by tests/e2e_explain.sh and
bench/explain.sh.  Usage: udpflood.py SECONDS"""
import socket
import sys
import time

end = time.monotonic() + float(sys.argv[1])
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.bind(("127.0.0.1", 0))
rx.setblocking(False)
to = rx.getsockname()
payload = bytes(1400)
while time.monotonic() < end:
    for _ in range(64):
        tx.sendto(payload, to)
    try:
        while True:
            rx.recv(2048)
    except BlockingIOError:
        pass
