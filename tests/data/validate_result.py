#!/usr/bin/env python3
# Validates result files against docs/result.schema.json (draft 2020-12) with python3-jsonschema.
# usage: validate_result.py SCHEMA FILE...   prints "valid NAME" or "invalid NAME: PATH" (the
# message on stderr: its wording depends on the jsonschema version)
# per file; exits 1 when a file is invalid, 2 when the schema itself is not a valid schema.
import json, os, sys
import jsonschema

schema = json.load(open(sys.argv[1]))
try:
    jsonschema.Draft202012Validator.check_schema(schema)
except jsonschema.SchemaError as e:
    print("bad schema:", e.message)
    sys.exit(2)
validator = jsonschema.Draft202012Validator(schema)
rc = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.absolute_path))
    name = os.path.basename(path)
    if errors:
        e = errors[0]
        where = "$" + "".join("[%d]" % p if isinstance(p, int) else "." + p for p in e.absolute_path)
        print("invalid %s: %s" % (name, where))
        print("  %s" % e.message[:200], file=sys.stderr)
        rc = 1
    else:
        print("valid", name)
sys.exit(rc)
