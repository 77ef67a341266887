#!/usr/bin/env bash
# PIV from outside: OpenSC (pkcs15-tool, pkcs11-tool) and yubikit's PivSession against the
# emulated PIV applet of an `nfc tag new security-key` card, through pcscd + vpcd.
#   PYTHON=venv/bin/python NFC=.build/debug/nfc Integration/piv/run.sh
# Needs pcscd running with vsmartcard-vpcd, Debian's opensc, and yubikey-manager (requirements.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NFC=${NFC:-$(pwd)/.build/debug/nfc}
[[ $NFC = /* ]] || NFC=$(pwd)/$NFC
cd "$here"
exec "${PYTHON:-python3}" test_piv.py "$@"
