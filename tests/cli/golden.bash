#!/usr/bin/env bash
# Runs a command-line test script and compares its output with the .output file beside it.
# usage: golden.bash DBT3STAB SCRIPT.sh   (the script gets $DBT3STAB; stdout+stderr+exit codes are compared)
set -u
bin=$1 script=$2
expected=${script%.sh}.output
actual=$(DBT3STAB=$bin bash "$script" 2>&1)
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
  echo "golden mismatch: $script" >&2
  exit 1
fi
