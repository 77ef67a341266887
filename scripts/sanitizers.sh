#!/usr/bin/env bash
# The whole test suite under the thread sanitizer and the address sanitizer, each in its own
# scratch path (.build-tsan, .build-asan). Fails if a test fails or a sanitizer reports anything.
#   scripts/sanitizers.sh [--build-only|--test-only] [thread|address]...   (default: both)
# --build-only builds and stops (CI runs it in the background while the integration suites wait on
# pcscd); --test-only runs the tests of a build made that way.
# SANITIZER_EXPECT_TESTS=N requires exactly N tests to run and none to skip (CI sets it).
# SANITIZER_BUILD_ARGS are given to the build and the test run (CI: --disable-default-traits
# for the thread sanitizer, so the suite also runs without the Simulator and PCSC traits).
# Extra arguments for `swift test` go in SANITIZER_TEST_ARGS, e.g. to skip the live PC/SC suites
# on a machine whose pcscd readers belong to someone else:
#   SANITIZER_TEST_ARGS="--skip LiveDriverTests --skip PCSCSessionTests" scripts/sanitizers.sh
# SANITIZER_SHARE_BUILD=1 (CI, address only) builds in the debug build's own scratch path (.build)
# with `-Xswiftc -sanitize=address` instead of SwiftPM's --sanitize: the Swift modules are
# rebuilt instrumented, the C targets (swift-crypto's BoringSSL, about 90 s of every cold build)
# are reused as the debug build compiled them, uninstrumented. The debug build is replaced by
# the instrumented one. docs/hardening.md says what that leaves out.
# Suppressions (toolchain false positives and leaks in Foundation only) and why:
# scripts/tsan-suppressions.txt, scripts/lsan-suppressions.txt, docs/hardening.md.
set -euo pipefail
cd "$(dirname "$0")/.."
phase=all
case ${1:-} in
    --build-only) phase=build; shift ;;
    --test-only) phase=test; shift ;;
esac
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(thread address)
read -r -a extra <<<"${SANITIZER_TEST_ARGS:-}"
# SANITIZER_BUILD_ARGS go to both the build and the test run (e.g. --disable-default-traits).
read -r -a build_args <<<"${SANITIZER_BUILD_ARGS:-}"
for kind in "${kinds[@]}"; do
    case $kind in
        thread)
            scratch=.build-tsan
            export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" ;;
        address)
            scratch=.build-asan
            # Leak checking is on by default with ASan on Linux; detect_leaks=1 says so.
            export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}"
            export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt ${LSAN_OPTIONS:-}" ;;
        *) echo "sanitizers.sh: unknown sanitizer $kind (thread or address)" >&2; exit 2 ;;
    esac
    sanitize=(--sanitize="$kind")
    if [[ ${SANITIZER_SHARE_BUILD:-} == 1 && $kind == address ]]; then
        scratch=.build
        sanitize=(-Xswiftc -sanitize=address)
    fi
    start=$(date +%s)
    if [[ $phase != test ]]; then
        echo "=== $kind sanitizer: build ($scratch)"
        swift build --build-tests "${sanitize[@]}" --scratch-path "$scratch" "${build_args[@]}"
        if [[ $phase == build ]]; then echo "=== $kind sanitizer: built in $(( $(date +%s) - start )) s"; continue; fi
    fi
    echo "=== $kind sanitizer: test"
    log=$(mktemp)
    status=0
    # Under the watchdog (scripts/test-watchdog): a hung test is named and the run stopped; with
    # SANITIZER_EXPECT_TESTS set (CI), exactly that many tests must run and none may skip.
    if [[ -n ${SANITIZER_EXPECT_TESTS:-} ]]; then checks=(--expect-tests "$SANITIZER_EXPECT_TESTS"); else checks=(--min-tests 1 --allow-skips); fi
    scripts/test-watchdog --test-limit 300 "${checks[@]}" --log "$log" -- \
        swift test --skip-build "${sanitize[@]}" --scratch-path "$scratch" "${build_args[@]}" "${extra[@]}" || status=$?
    # A sanitizer report in a child process (the nfc tool the CLI tests run) fails its test; one in
    # the test process itself changes its exit status. Either way, say so plainly.
    if grep -qE "WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer" "$log"; then
        echo "=== $kind sanitizer: REPORTS FOUND (see above)"
        status=1
    fi
    rm -f "$log"
    echo "=== $kind sanitizer: $(( $(date +%s) - start )) s, status $status"
    [[ $status == 0 ]] || exit "$status"
done
