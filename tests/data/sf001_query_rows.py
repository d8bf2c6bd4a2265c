#!/usr/bin/env python3
# Row counts of the 22 TPC-H queries at scale factor 0.01 with the validation parameters
# (TPC-H spec 2.4.x.3; Q11's FRACTION is 0.0001 / SF), computed outside dbt3stab: SQLite (python3's
# sqlite3) on dbgen's SF 0.01 tables, with the queries written here from the specification.
# tests/test_load_db.c compares dbt3stab's results on MariaDB with tests/data/sf001_query_rows.txt.
# usage: dbt3stab gen -s 0.01 -o DIR && python3 tests/data/sf001_query_rows.py DIR
# (DIR's files are checked against tests/data/dbgen/sf0.01.md5 first: dbgen's own output.)
import hashlib
import os
import sqlite3
import sys

here = os.path.dirname(os.path.abspath(__file__))
SF = 0.01

TABLES = {
    "region": "r_regionkey INTEGER, r_name TEXT, r_comment TEXT",
    "nation": "n_nationkey INTEGER, n_name TEXT, n_regionkey INTEGER, n_comment TEXT",
    "supplier": "s_suppkey INTEGER, s_name TEXT, s_address TEXT, s_nationkey INTEGER, "
                "s_phone TEXT, s_acctbal REAL, s_comment TEXT",
    "customer": "c_custkey INTEGER, c_name TEXT, c_address TEXT, c_nationkey INTEGER, "
                "c_phone TEXT, c_acctbal REAL, c_mktsegment TEXT, c_comment TEXT",
    "part": "p_partkey INTEGER, p_name TEXT, p_mfgr TEXT, p_brand TEXT, p_type TEXT, "
            "p_size INTEGER, p_container TEXT, p_retailprice REAL, p_comment TEXT",
    "partsupp": "ps_partkey INTEGER, ps_suppkey INTEGER, ps_availqty INTEGER, "
                "ps_supplycost REAL, ps_comment TEXT",
    "orders": "o_orderkey INTEGER, o_custkey INTEGER, o_orderstatus TEXT, o_totalprice REAL, "
              "o_orderdate TEXT, o_orderpriority TEXT, o_clerk TEXT, o_shippriority INTEGER, "
              "o_comment TEXT",
    "lineitem": "l_orderkey INTEGER, l_partkey INTEGER, l_suppkey INTEGER, "
                "l_linenumber INTEGER, l_quantity REAL, l_extendedprice REAL, l_discount REAL, "
                "l_tax REAL, l_returnflag TEXT, l_linestatus TEXT, l_shipdate TEXT, "
                "l_commitdate TEXT, l_receiptdate TEXT, l_shipinstruct TEXT, l_shipmode TEXT, "
                "l_comment TEXT",
}

# The 22 queries in SQLite's dialect: dates are 'YYYY-MM-DD' text, interval arithmetic by
# date(), EXTRACT(YEAR) by strftime, SUBSTRING by substr; LIMIT where the spec has one.
Q = {}
Q[1] = """select l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
  sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
  avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
from lineitem where l_shipdate <= date('1998-12-01', '-90 day')
group by l_returnflag, l_linestatus order by l_returnflag, l_linestatus"""
Q[2] = """select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment
from part, supplier, partsupp, nation, region
where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = 15
  and p_type like '%BRASS' and s_nationkey = n_nationkey and n_regionkey = r_regionkey
  and r_name = 'EUROPE'
  and ps_supplycost = (select min(ps_supplycost) from partsupp, supplier, nation, region
    where p_partkey = ps_partkey and s_suppkey = ps_suppkey and s_nationkey = n_nationkey
      and n_regionkey = r_regionkey and r_name = 'EUROPE')
order by s_acctbal desc, n_name, s_name, p_partkey limit 100"""
Q[3] = """select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate,
  o_shippriority
from customer, orders, lineitem
where c_mktsegment = 'BUILDING' and c_custkey = o_custkey and l_orderkey = o_orderkey
  and o_orderdate < '1995-03-15' and l_shipdate > '1995-03-15'
group by l_orderkey, o_orderdate, o_shippriority order by revenue desc, o_orderdate limit 10"""
Q[4] = """select o_orderpriority, count(*) from orders
where o_orderdate >= '1993-07-01' and o_orderdate < date('1993-07-01', '+3 month')
  and exists (select * from lineitem where l_orderkey = o_orderkey
    and l_commitdate < l_receiptdate)
group by o_orderpriority order by o_orderpriority"""
Q[5] = """select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue
from customer, orders, lineitem, supplier, nation, region
where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey
  and c_nationkey = s_nationkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey
  and r_name = 'ASIA' and o_orderdate >= '1994-01-01'
  and o_orderdate < date('1994-01-01', '+1 year')
group by n_name order by revenue desc"""
Q[6] = """select sum(l_extendedprice * l_discount) from lineitem
where l_shipdate >= '1994-01-01' and l_shipdate < date('1994-01-01', '+1 year')
  and l_discount between 0.06 - 0.01 and 0.06 + 0.01 and l_quantity < 24"""
Q[7] = """select supp_nation, cust_nation, l_year, sum(volume) from (
  select n1.n_name as supp_nation, n2.n_name as cust_nation,
    strftime('%Y', l_shipdate) as l_year, l_extendedprice * (1 - l_discount) as volume
  from supplier, lineitem, orders, customer, nation n1, nation n2
  where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey
    and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey
    and ((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY')
      or (n1.n_name = 'GERMANY' and n2.n_name = 'FRANCE'))
    and l_shipdate between '1995-01-01' and '1996-12-31') as shipping
group by supp_nation, cust_nation, l_year order by supp_nation, cust_nation, l_year"""
Q[8] = """select o_year, sum(case when nation = 'BRAZIL' then volume else 0 end) / sum(volume)
from (select strftime('%Y', o_orderdate) as o_year,
    l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation
  from part, supplier, lineitem, orders, customer, nation n1, nation n2, region
  where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey
    and o_custkey = c_custkey and c_nationkey = n1.n_nationkey
    and n1.n_regionkey = r_regionkey and r_name = 'AMERICA'
    and s_nationkey = n2.n_nationkey and o_orderdate between '1995-01-01' and '1996-12-31'
    and p_type = 'ECONOMY ANODIZED STEEL') as all_nations
group by o_year order by o_year"""
Q[9] = """select nation, o_year, sum(amount) from (
  select n_name as nation, strftime('%Y', o_orderdate) as o_year,
    l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount
  from part, supplier, lineitem, partsupp, orders, nation
  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey
    and p_partkey = l_partkey and o_orderkey = l_orderkey and s_nationkey = n_nationkey
    and p_name like '%green%') as profit
group by nation, o_year order by nation, o_year desc"""
Q[10] = """select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue,
  c_acctbal, n_name, c_address, c_phone, c_comment
from customer, orders, lineitem, nation
where c_custkey = o_custkey and l_orderkey = o_orderkey and o_orderdate >= '1993-10-01'
  and o_orderdate < date('1993-10-01', '+3 month') and l_returnflag = 'R'
  and c_nationkey = n_nationkey
group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment
order by revenue desc limit 20"""
Q[11] = """select ps_partkey, sum(ps_supplycost * ps_availqty) as value
from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
group by ps_partkey having sum(ps_supplycost * ps_availqty) > (
  select sum(ps_supplycost * ps_availqty) * %.17g from partsupp, supplier, nation
  where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY')
order by value desc""" % (0.0001 / SF)
Q[12] = """select l_shipmode,
  sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH' then 1 else 0 end),
  sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH' then 1 else 0 end)
from orders, lineitem
where o_orderkey = l_orderkey and l_shipmode in ('MAIL', 'SHIP')
  and l_commitdate < l_receiptdate and l_shipdate < l_commitdate
  and l_receiptdate >= '1994-01-01' and l_receiptdate < date('1994-01-01', '+1 year')
group by l_shipmode order by l_shipmode"""
Q[13] = """select c_count, count(*) as custdist from (
  select c_custkey, count(o_orderkey) as c_count
  from customer left outer join orders on c_custkey = o_custkey
    and o_comment not like '%special%requests%'
  group by c_custkey) as c_orders
group by c_count order by custdist desc, c_count desc"""
Q[14] = """select 100.00 * sum(case when p_type like 'PROMO%'
    then l_extendedprice * (1 - l_discount) else 0 end) / sum(l_extendedprice * (1 - l_discount))
from lineitem, part
where l_partkey = p_partkey and l_shipdate >= '1995-09-01'
  and l_shipdate < date('1995-09-01', '+1 month')"""
Q[15] = """with revenue0 as (select l_suppkey as supplier_no,
    sum(l_extendedprice * (1 - l_discount)) as total_revenue
  from lineitem where l_shipdate >= '1996-01-01' and l_shipdate < date('1996-01-01', '+3 month')
  group by l_suppkey)
select s_suppkey, s_name, s_address, s_phone, total_revenue from supplier, revenue0
where s_suppkey = supplier_no
  and total_revenue = (select max(total_revenue) from revenue0)
order by s_suppkey"""
Q[16] = """select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt
from partsupp, part
where p_partkey = ps_partkey and p_brand <> 'Brand#45' and p_type not like 'MEDIUM POLISHED%'
  and p_size in (49, 14, 23, 45, 19, 3, 36, 9)
  and ps_suppkey not in (select s_suppkey from supplier
    where s_comment like '%Customer%Complaints%')
group by p_brand, p_type, p_size order by supplier_cnt desc, p_brand, p_type, p_size"""
Q[17] = """select sum(l_extendedprice) / 7.0 from lineitem, part
where p_partkey = l_partkey and p_brand = 'Brand#23' and p_container = 'MED BOX'
  and l_quantity < (select 0.2 * avg(l_quantity) from lineitem where l_partkey = p_partkey)"""
Q[18] = """select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)
from customer, orders, lineitem
where o_orderkey in (select l_orderkey from lineitem group by l_orderkey
    having sum(l_quantity) > 300)
  and c_custkey = o_custkey and o_orderkey = l_orderkey
group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
order by o_totalprice desc, o_orderdate limit 100"""
Q[19] = """select sum(l_extendedprice * (1 - l_discount)) from lineitem, part
where (p_partkey = l_partkey and p_brand = 'Brand#12'
    and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')
    and l_quantity >= 1 and l_quantity <= 1 + 10 and p_size between 1 and 5
    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
  or (p_partkey = l_partkey and p_brand = 'Brand#23'
    and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')
    and l_quantity >= 10 and l_quantity <= 10 + 10 and p_size between 1 and 10
    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')
  or (p_partkey = l_partkey and p_brand = 'Brand#34'
    and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')
    and l_quantity >= 20 and l_quantity <= 20 + 10 and p_size between 1 and 15
    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')"""
Q[20] = """select s_name, s_address from supplier, nation
where s_suppkey in (select ps_suppkey from partsupp
    where ps_partkey in (select p_partkey from part where p_name like 'forest%')
      and ps_availqty > (select 0.5 * sum(l_quantity) from lineitem
        where l_partkey = ps_partkey and l_suppkey = ps_suppkey
          and l_shipdate >= '1994-01-01' and l_shipdate < date('1994-01-01', '+1 year')))
  and s_nationkey = n_nationkey and n_name = 'CANADA'
order by s_name"""
Q[21] = """select s_name, count(*) as numwait
from supplier, lineitem l1, orders, nation
where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey and o_orderstatus = 'F'
  and l1.l_receiptdate > l1.l_commitdate
  and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey
    and l2.l_suppkey <> l1.l_suppkey)
  and not exists (select * from lineitem l3 where l3.l_orderkey = l1.l_orderkey
    and l3.l_suppkey <> l1.l_suppkey and l3.l_receiptdate > l3.l_commitdate)
  and s_nationkey = n_nationkey and n_name = 'SAUDI ARABIA'
group by s_name order by numwait desc, s_name limit 100"""
Q[22] = """select cntrycode, count(*), sum(c_acctbal) from (
  select substr(c_phone, 1, 2) as cntrycode, c_acctbal from customer
  where substr(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17')
    and c_acctbal > (select avg(c_acctbal) from customer where c_acctbal > 0.00
      and substr(c_phone, 1, 2) in ('13', '31', '23', '29', '30', '18', '17'))
    and not exists (select * from orders where o_custkey = c_custkey)) as custsale
group by cntrycode order by cntrycode"""


def check_md5(src):
    want = {}
    with open(os.path.join(here, "dbgen", "sf0.01.md5")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                md5, name = line.split()
                want[name] = md5
    for name, md5 in want.items():
        with open(os.path.join(src, name), "rb") as f:
            got = hashlib.md5(f.read()).hexdigest()
        if got != md5:
            sys.exit(f"{name}: md5 {got}, dbgen's is {md5}")


def load(db, src):
    for name, cols in TABLES.items():
        db.execute(f"create table {name} ({cols})")
        n = len(cols.split(","))
        with open(os.path.join(src, name + ".tbl")) as f:
            rows = [line.rstrip("\n").split("|")[:n] for line in f]
        db.executemany(f"insert into {name} values ({', '.join('?' * n)})", rows)
    db.execute("create index l_ok on lineitem (l_orderkey)")
    db.execute("create index l_pk_sk on lineitem (l_partkey, l_suppkey)")
    db.execute("create index o_ck on orders (o_custkey)")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 tests/data/sf001_query_rows.py DIR_WITH_DBGEN_SF0.01_TBL_FILES")
    check_md5(sys.argv[1])
    db = sqlite3.connect(":memory:")
    load(db, sys.argv[1])
    out = ["# TPC-H query, rows at SF 0.01 with the validation parameters "
           f"(tests/data/sf001_query_rows.py, SQLite {sqlite3.sqlite_version})"]
    for q in range(1, 23):
        out.append(f"Q{q} {len(db.execute(Q[q]).fetchall())}")
    with open(os.path.join(here, "sf001_query_rows.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
