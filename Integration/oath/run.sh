#!/usr/bin/env bash
# The OATH outside check: yubikit (yubikey-manager) and oathtool against our emulated OATH applet.
#   1. loopback: yubikit speaks the vpcd protocol straight to `nfc emulate` (no pcscd);
#   2. pcsc: through pcscd + vpcd, reader "Virtual PCD C 00 01" (port 35968), as any PC/SC
#      program would; needs pcscd running with Integration/pcsc/vpcd-readers.conf.
# Both run; the script fails when either has a failed check.
#   PYTHON=venv/bin/python NFC=.build/debug/nfc Integration/oath/run.sh [--transport loopback|pcsc]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NFC=${NFC:-$(pwd)/.build/debug/nfc}
[[ $NFC = /* ]] || NFC=$(pwd)/$NFC
cd "$here"
if [[ $# -gt 0 ]]; then exec "${PYTHON:-python3}" test_oath.py "$@"; fi
status=0
"${PYTHON:-python3}" test_oath.py --transport loopback || status=1
"${PYTHON:-python3}" test_oath.py --transport pcsc || status=1
exit $status
