#!/bin/sh
# SPDX-License-Identifier: MIT
# The row counts run --refresh must find, derived from dbgen's files and not from dbt3stab's
# database code: in DIR, the tables (orders.tbl, lineitem.tbl) and refresh set 1 (orders.tbl.u1,
# lineitem.tbl.u1, delete.1) as dbgen writes them (tests/test_run_rf_db.c makes them with
# `dbt3stab gen` and checks them against dbgen's md5s in tests/data/dbgen first).
# Prints: orders lineitems rf1_orders rf1_lineitems rf2_orders rf2_lineitems
#   orders, lineitems: rows of the loaded tables (wc -l);
#   rf1_*: rows RF1 inserts (the lines of orders.tbl.u1, lineitem.tbl.u1);
#   rf2_orders: keys in delete.1; rf2_lineitems: lineitem.tbl rows whose l_orderkey is one of them.
set -eu
cd "$1"
o=$(wc -l <orders.tbl)
l=$(wc -l <lineitem.tbl)
i1=$(wc -l <orders.tbl.u1)
il=$(wc -l <lineitem.tbl.u1)
d=$(wc -l <delete.1)
dl=$(awk -F'|' 'NR == FNR { k[$1] = 1; next } ($1 in k) { n++ } END { print n + 0 }' delete.1 lineitem.tbl)
echo "$o $l $i1 $il $d $dl"
