#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The generated man pages (scripts/gen-docs): one per command, each listing every option of the
# command's table and every option its --help lists, with the values of an enumerated option;
# every page renders without a warning (groff -ww -z, and mandoc -T lint where installed); and
# every value a table lists is one the option's parser takes.
# usage: check_man.py DBT3STAB GEN_DIR
import json
import re
import shutil
import subprocess
import sys

binary, gen = sys.argv[1:3]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def describe(*args):
    return json.loads(subprocess.run([binary, *args, "--describe-options"], check=True,
                                     stdout=subprocess.PIPE).stdout)


def render(page):
    r = subprocess.run(["groff", "-man", "-Tascii", page], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    return re.sub(r".\x08", "", r.stdout)


def lint(page):
    r = subprocess.run(["groff", "-ww", "-z", "-man", page], stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or r.stderr.strip():
        fail("%s: groff -ww warns: %s" % (page, r.stderr.strip()))
    if shutil.which("mandoc"):
        r = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", page],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            fail("%s: mandoc -T lint: %s" % (page, r.stdout.strip()))


cmds = describe()["commands"]
pages = [gen + "/man/man1/dbt3stab.1", gen + "/man/man5/dbt3stab-result.5"]
main_text = render(pages[0])
for c in cmds:
    name = c["name"]
    page = "%s/man/man1/dbt3stab-%s.1" % (gen, name)
    pages.append(page)
    if "dbt3stab-" + name not in main_text:
        fail("dbt3stab(1) does not list %s" % name)
    text = render(page)
    if not text.strip():
        fail("%s renders empty" % page)
        continue
    rows = [o for o in describe(name)["options"] if "heading" not in o]
    helptext = subprocess.run([binary, name, "--help"], stdout=subprocess.PIPE, text=True).stdout
    listed = set(re.findall(r"^\s+(?:-\w, )?--([a-z0-9-]+)", helptext, re.M))
    if len(listed) < len(rows) // 2:
        fail("%s --help: option lines not recognised" % name)
    for o in rows:
        want = ["--" + o["long"]] if o.get("long") else []
        want += ["-" + o["short"]] if o.get("short") else []
        want += [v for v in o.get("values") or []]
        for w in want:
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(w), text):
                fail("dbt3stab-%s(1) lacks %s" % (name, w))
        for v in o.get("values") or []:
            argv = [binary, name] + (["check"] if name == "history" else []) + \
                   ["--" + o["long"], v, "--help"]
            r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                fail("%s --%s %s: the table lists a value the parser refuses: %s" %
                     (name, o["long"], v, r.stderr.strip()))
    for opt in listed:
        if not re.search(r"(?<![\w-])--%s(?![\w-])" % re.escape(opt), text):
            fail("dbt3stab-%s(1) lacks --%s, which --help lists" % (name, opt))
    for section in ("SYNOPSIS", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO"):
        if not re.search(r"^%s$" % section, text, re.M):
            fail("dbt3stab-%s(1) has no %s" % (name, section))
if "result.schema.json" not in render(pages[1]):
    fail("dbt3stab-result(5) does not point to the schema")
for p in pages:
    lint(p)
print("%d pages checked, %d failures" % (len(pages), len(failures)))
sys.exit(1 if failures else 0)
