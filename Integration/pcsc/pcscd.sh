#!/usr/bin/env bash
# Starts, stops or restarts the pcscd the PC/SC integration suite talks to.
#   pcscd.sh start|stop|restart
# The PID is kept in $PCSCD_PIDFILE (default /tmp/opencorenfc-pcscd.pid). `start` returns once
# pcscd answers (vpcd's readers are listed); nothing waits a fixed time.
set -euo pipefail
pidfile=${PCSCD_PIDFILE:-/tmp/opencorenfc-pcscd.pid}
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}

start() {
    if pgrep -x pcscd >/dev/null; then
        # A pcscd started before install-readers.sh does not know the extra readers: replace it.
        if [[ -f /etc/reader.conf.d/vpcd-opencorenfc ]] \
            && ! "$python" "$here/wait_reader.py" --readers 5 | grep -qx "Virtual PCD B 00 00"; then
            echo "pcscd (pid $(pgrep -x pcscd | head -1)) runs without the extra vpcd readers; restarting it" >&2
            pkill -x pcscd || true
            for _ in $(seq 1 100); do pgrep -x pcscd >/dev/null || break; sleep 0.05; done
        else
            echo "pcscd is already running (pid $(pgrep -x pcscd | head -1)); using it" >&2
            return 0
        fi
    fi
    # A session of its own: pcscd outlives whatever process asked for the (re)start.
    setsid pcscd -f >"${PCSCD_LOG:-/tmp/opencorenfc-pcscd.log}" 2>&1 &
    echo $! >"$pidfile"
    "$python" "$here/wait_reader.py" --readers 20
}

stop() {
    [[ -f $pidfile ]] || { echo "no $pidfile: pcscd was not started by this script" >&2; return 0; }
    local pid
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    # pcscd exits within a second of SIGTERM; wait for it, not for a fixed time.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    restart)
        [[ -f $pidfile ]] || { echo "cannot restart a pcscd this script did not start" >&2; exit 1; }
        stop; start ;;
    *) echo "usage: $0 start|stop|restart" >&2; exit 2 ;;
esac
