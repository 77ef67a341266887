#!/usr/bin/env bash
# NDEF codec speed, OpenCoreNFC beside ndeflib in the same run: prints a Markdown table with ratios.
# Usage: scripts/bench-ndef.sh   (needs .venv with ndeflib: see .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
swift build -c release --product nfc-bench >/dev/null
ours=$(.build/release/nfc-bench --json --seconds 1)
peer=$("$PYTHON" Integration/ndeflib/bench_ndeflib.py)
"$PYTHON" - "$ours" "$peer" <<'PY'
import json, sys
ours = json.loads(sys.argv[1])["opencorenfc"]
peer = json.loads(sys.argv[2])
nd = peer["ndeflib"]
names = {"a": "(a) 10 records, 5 URI + 5 Text", "b": "(b) one 8 KiB MIME record", "c": "(c) 1,000 small Text records"}
print(f"ndeflib {peer['ndeflib_version']} on Python {peer['python']}; messages per second, best of runs\n")
print("| workload | bytes | OpenCoreNFC decode | ndeflib decode | ratio | OpenCoreNFC encode | ndeflib encode | ratio |")
print("|---|---|---|---|---|---|---|---|")
for k in "abc":
    o, p = ours[k], nd[k]
    print(f"| {names[k]} | {o['bytes']} | {o['decode']:,} | {p['decode']:,.0f} | {o['decode']/p['decode']:.1f}x "
          f"| {o['encode']:,} | {p['encode']:,.0f} | {o['encode']/p['encode']:.1f}x |")
b = ours["b"]
print(f"\n(b) against a plain copy of the same {b['bytes']} bytes into a new array ({b['copy']:,}/s): "
      f"decode takes {b['copy']/b['decode']:.2f}x the copy's time, encode {b['copy']/b['encode']:.2f}x.")
PY
