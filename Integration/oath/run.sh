#!/usr/bin/env bash
# The OATH outside check: yubikit (yubikey-manager) and oathtool against our emulated OATH applet,
# through pcscd and vpcd ("Virtual PCD C 00 01", port 35968). Needs pcscd running with the extra
# vpcd readers (Integration/pcsc/vpcd-readers.conf), yubikey-manager importable and oathtool.
#   PYTHON=venv/bin/python NFC=.build/debug/nfc Integration/oath/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NFC=${NFC:-$(pwd)/.build/debug/nfc}
[[ $NFC = /* ]] || NFC=$(pwd)/$NFC
cd "$here"
exec "${PYTHON:-python3}" test_oath.py "$@"
