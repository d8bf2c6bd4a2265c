"""Runs a checker script of this folder on small trees written to a temp dir, one per case, and
says which cases give the wanted exit code and line (used by the checkers' selftests; judge
also by test_check_calls.py, whose cases are compiled)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run_case(script, clean, changes):
    """The checker's exit code and output on clean updated by changes (a path -> text or None)."""
    files = dict(clean)
    files.update(changes)
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            if text is None:
                continue
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        p = subprocess.run([sys.executable, os.path.join(HERE, script), root],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


def judge(cases, run):
    """cases: (name, ..., wanted exit code, a line the output must hold), run(case) the checker's
    exit code and output on one; says which pass, 1 if any fails."""
    failed = 0
    for case in cases:
        name, want_rc, want_line = case[0], case[-2], case[-1]
        rc, out = run(case)
        ok = rc == want_rc and want_line in out
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
        if not ok:
            failed += 1
            print(f"     exit {rc} (want {want_rc}); output:\n" + out.rstrip())
    print(f"{len(cases) - failed} of {len(cases)} cases pass")
    return 1 if failed else 0


def run_selftest(script, clean, cases):
    """cases: (name, changes, wanted exit code, a line the output must hold); 1 if any fails."""
    return judge(cases, lambda case: run_case(script, clean, case[1]))
