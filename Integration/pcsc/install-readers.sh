#!/usr/bin/env bash
# Installs the extra vpcd readers of vpcd-readers.conf (needs root; pcscd reads them at start).
# Each entry gets its own copy of Debian's libifdvpcd.so: see the comment in vpcd-readers.conf.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
library=$(awk '$1 == "LIBPATH" { print $2; exit }' /etc/reader.conf.d/vpcd)
[[ -f $library ]] || { echo "vpcd's driver is not installed (no LIBPATH in /etc/reader.conf.d/vpcd)" >&2; exit 1; }
prefix=/usr/local/lib/libifdvpcd-opencorenfc
for entry in b c d; do install -m 644 "$library" "$prefix-$entry.so"; done
sed "s|@LIB@|$prefix|" "$here/vpcd-readers.conf" >/etc/reader.conf.d/vpcd-opencorenfc
