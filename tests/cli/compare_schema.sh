# The hand-made result files validate against docs/result.schema.json; the malformed ones do not.
# Needs python3 with jsonschema (Debian: python3-jsonschema, installed by scripts/install-deps).
cd "$(dirname "$0")/../data" || exit 1
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "no python3 with jsonschema: apt-get install python3-jsonschema"; exit 1; }
"$py" validate_result.py ../../docs/result.schema.json cmp_*.json; echo "exit=$?"
"$py" validate_result.py ../../docs/result.schema.json bad_format.json bad_version.json \
  bad_missing.json bad_type.json bad_negative.json bad_empty.json bad_zero.json 2>/dev/null; echo "exit=$?"
