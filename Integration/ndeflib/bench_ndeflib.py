#!/usr/bin/env python3
"""ndeflib side of the NDEF speed benchmark: messages per second for decode and encode.

Workloads (identical bytes to the Swift benchmark; check with --dump DIR):
  a  10 records: URI "https://www.example.com/path/{i}" and Text "Hello, world {i}" (lang "en"),
     interleaved U,T,U,T,... (i = 0..4)
  b  1 record, media type application/octet-stream, 8192-byte payload (byte i = i % 251)
  c  1000 Text records "r{i}", lang "en"

Each case runs enough iterations for >= --min-time seconds (default 1.0), best of --runs (5).
decode = list(ndef.message_decoder(octets)) (strict, typed records);
encode = b"".join(ndef.message_encoder(records)) from ready-made record objects.
Prints one JSON object.
"""
import argparse
import json
import os
import platform
import sys
import time

import ndef


def workload_a():
    recs = []
    for i in range(5):
        recs.append(ndef.UriRecord("https://www.example.com/path/%d" % i))
        recs.append(ndef.TextRecord("Hello, world %d" % i, "en"))
    return recs


def workload_b():
    return [ndef.Record("application/octet-stream", None, bytes(i % 251 for i in range(8192)))]


def workload_c():
    return [ndef.TextRecord("r%d" % i, "en") for i in range(1000)]


WORKLOADS = {"a": workload_a, "b": workload_b, "c": workload_c}


def rate(fn, min_time, runs):
    """Best messages/second over `runs` runs, each of enough iterations for >= min_time s."""
    n = 1
    while True:  # calibrate
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time:
            break
        n = max(n * 2, int(n * min_time / max(dt, 1e-9) * 1.1))
    best = n / dt
    for _ in range(runs - 1):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", metavar="DIR", help="write a.hex, b.hex, c.hex (the encoded messages) into DIR")
    ap.add_argument("--min-time", type=float, default=1.0, help="seconds per timed run (default 1.0)")
    ap.add_argument("--runs", type=int, default=5, help="runs per case, best is kept (default 5)")
    ap.add_argument("--cases", default="abc", help="which workloads (default abc)")
    a = ap.parse_args()

    result = {}
    for name in a.cases:
        records = WORKLOADS[name]()
        octets = b"".join(ndef.message_encoder(records))
        # sanity: decoding gives back equal records
        assert list(ndef.message_decoder(octets)) == records, name
        if a.dump:
            os.makedirs(a.dump, exist_ok=True)
            with open(os.path.join(a.dump, name + ".hex"), "w") as f:
                f.write(octets.hex() + "\n")
        result[name] = {
            "decode": round(rate(lambda: list(ndef.message_decoder(octets)), a.min_time, a.runs), 1),
            "encode": round(rate(lambda: b"".join(ndef.message_encoder(records)), a.min_time, a.runs), 1),
        }
    print(json.dumps({"ndeflib": result, "python": platform.python_version(),
                      "ndeflib_version": ndef.__version__}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
