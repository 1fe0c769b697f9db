"""One line per check for the test scripts in Python (tests/layers.py,
tests/docs.py): "ok   WHAT" or "FAIL WHAT" with its details below, and the
counts for the summary line that tests/run-all.sh reads."""
counts = {'passed': 0, 'failed': 0}


def check(ok, what, detail=()):
    if ok:
        counts['passed'] += 1
        print('ok   ' + what)
    else:
        counts['failed'] += 1
        print('FAIL ' + what)
        for d in detail:
            print('       ' + d)


def summary(name):
    """Prints "NAME: N passed, M failed"; the exit status."""
    print(f'{name}: {counts["passed"]} passed, {counts["failed"]} failed')
    return 1 if counts['failed'] else 0
