#!/usr/bin/env bash
# Runs the PC/SC integration suite. Needs pcscd running with vsmartcard-vpcd (pcscd.sh start).
#   PYTHON=venv/bin/python NFC=.build/debug/nfc Integration/pcsc/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NFC=${NFC:-$(pwd)/.build/debug/nfc}
[[ $NFC = /* ]] || NFC=$(pwd)/$NFC
cd "$here"
exec "${PYTHON:-python3}" test_pcsc.py "$@"
