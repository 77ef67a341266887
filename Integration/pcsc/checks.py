"""The pass/fail record the integration suites share: `check(name, ok, detail)` prints one line."""
import shutil
import tempfile

failures = []
_passed = [0]


def check(name, condition, detail=""):
    if condition:
        _passed[0] += 1
        print("ok    " + name, flush=True)
    else:
        failures.append(name)
        print("FAIL  %s: %s" % (name, detail), flush=True)


def passed():
    return _passed[0]


def finish(minimum, what="checks"):
    """Prints the summary; the exit status is 1 when a check failed or fewer than `minimum`
    checks ran (a suite that silently ran less than it should is a failure, not a pass)."""
    ran = _passed[0] + len(failures)
    if ran < minimum:
        failures.append("ran %d %s, expected at least %d" % (ran, what, minimum))
    print("\n%d passed, %d failed (%d %s ran, at least %d expected)" % (_passed[0], len(failures), ran, what, minimum))
    for name in failures:
        print("  FAIL " + name)
    return 1 if failures else 0


def run_in_directory(run, minimum, prefix):
    """Runs `run(work)` in a fresh temporary directory, removed afterwards whatever happens; an
    exception is a failed check, never a silent stop. Returns `finish(minimum)`'s exit status."""
    work = tempfile.mkdtemp(prefix=prefix)
    try:
        run(work)
    except Exception as error:
        check("the run ends without an error", False, "%s: %s" % (type(error).__name__, error))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return finish(minimum)
