"""The pass/fail record the integration suites share: `check(name, ok, detail)` prints one line."""
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
