#!/usr/bin/env bash
# Runs every fuzz target long: Fuzz/long.sh [SECONDS-PER-TARGET] [TARGET...] (default 3600).
exec "$(dirname "$0")/run.sh" "${1:-3600}" "${@:2}"
