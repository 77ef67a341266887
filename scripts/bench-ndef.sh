#!/usr/bin/env bash
# NDEF codec speed, OpenCoreNFC beside ndeflib in the same run: prints a Markdown table with ratios.
#   scripts/bench-ndef.sh      (needs .venv with ndeflib: see .ci/run; builds Benchmarks/ in release)
# Ours: the package-benchmark suite Benchmarks/Benchmarks/NDEFCodec (median messages per second
# over its samples, mallocs per message); ndeflib: Integration/ndeflib/bench_ndeflib.py on the
# same workloads (best of 5 runs of ≥ 1 s each, which favours ndeflib).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift package --package-path Benchmarks --allow-writing-to-directory "$out" \
    benchmark --target NDEFCodec --format jmh --path "$out" --no-progress >/dev/null
peer=$("$PYTHON" Integration/ndeflib/bench_ndeflib.py)
"$PYTHON" - "$out/Current_run.jmh.json" "$peer" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))
peer = json.loads(sys.argv[2])
ours, mallocs = {}, {}
for run in runs:
    key = run["benchmark"].split("NDEFCodec.", 1)[1].split(":", 1)[0]  # e.g. decode_a, corenfc_decode_c
    ours[key] = run["primaryMetric"]["scorePercentiles"]["50.0"]
    for metric in run.get("secondaryMetrics", {}).values():
        if metric.get("scoreUnit") == "#":
            mallocs[key] = metric["scorePercentiles"]["50.0"]
nd = peer["ndeflib"]
names = {"a": "(a) 10 records, 5 URI + 5 Text", "b": "(b) one 8 KiB MIME record", "c": "(c) 1,000 small Text records"}
print(f"ndeflib {peer['ndeflib_version']} on Python {peer['python']}; messages per second (ours: median of the samples)\n")
print("| workload | OpenCoreNFC decode | mallocs | ndeflib decode | ratio | Core NFC `NFCNDEFMessage(data:)` | ratio "
      "| OpenCoreNFC encode | mallocs | ndeflib encode | ratio |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in "abc":
    p = nd[k]
    dec, enc = ours[f"decode_{k}"], ours[f"encode_{k}"]
    core = ours.get(f"corenfc_decode_{k}")
    core_cells = f"{core:,.0f} | {core / p['decode']:.1f}x" if core else "— | —"
    print(f"| {names[k]} | {dec:,.0f} | {mallocs.get(f'decode_{k}', '?')} | {p['decode']:,.0f} | {dec / p['decode']:.1f}x "
          f"| {core_cells} | {enc:,.0f} | {mallocs.get(f'encode_{k}', '?')} | {p['encode']:,.0f} | {enc / p['encode']:.1f}x |")
copy = ours["copy_b"]
print(f"\n(b) against a plain copy of the same bytes into a new array ({copy:,.0f}/s): decode takes "
      f"{copy / ours['decode_b']:.2f}x the copy's time, encode {copy / ours['encode_b']:.2f}x.")
PY
