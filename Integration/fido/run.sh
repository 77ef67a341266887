#!/usr/bin/env bash
# FIDO outside check: python-fido2 against our emulated security key through pcscd + vpcd.
# Needs pcscd running with vpcd's extra readers (Integration/pcsc/vpcd-readers.conf).
#   PYTHON=venv/bin/python NFC=.build/debug/nfc Integration/fido/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export NFC=${NFC:-$(pwd)/.build/debug/nfc}
[[ $NFC = /* ]] || NFC=$(pwd)/$NFC
cd "$here"
exec "${PYTHON:-python3}" test_fido.py "$@"
