#!/usr/bin/env bash
# Differential test of `nfc ndef` against ndeflib. Extra arguments go to differential.py
# (e.g. --count 10000 --seed 7). PYTHON and NFC may be overridden; paths are relative to the repo root.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
PYTHON="${PYTHON:-.venv/bin/python}"
NFC="${NFC:-.build/debug/nfc}"
if [[ ! -x "$NFC" ]]; then
  echo "run.sh: nfc binary not found at $NFC (set NFC=...)" >&2
  exit 2
fi
exec "$PYTHON" Integration/ndeflib/differential.py --nfc "$NFC" "$@"
