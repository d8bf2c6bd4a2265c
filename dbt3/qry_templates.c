/* SPDX-License-Identifier: MIT */
/* The 22 TPC-H query templates in the MySQL/MariaDB dialect; ":N" is substitution parameter N.
 * Unlike the DBT-3 kit: Q15's window is 3 months (TPC-H), and Q18 is the TPC-H statement alone. */
#include "dbt3/qry_templates.h"
#include <stddef.h>

static const char *const templates[QRY_TEMPLATE_COUNT + 1] = {
    NULL,
    /* Q1 pricing summary report */
    "select l_returnflag, l_linestatus, sum(l_quantity) as sum_qty,\n"
    "  sum(l_extendedprice) as sum_base_price,\n"
    "  sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,\n"
    "  sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,\n"
    "  avg(l_quantity) as avg_qty, avg(l_extendedprice) as avg_price,\n"
    "  avg(l_discount) as avg_disc, count(*) as count_order\n"
    "from lineitem\n"
    "where l_shipdate <= date '1998-12-01' - interval ':1' day\n"
    "group by l_returnflag, l_linestatus\n"
    "order by l_returnflag, l_linestatus",
    /* Q2 minimum cost supplier */
    "select s_acctbal, s_name, n_name, p_partkey, p_mfgr, s_address, s_phone, s_comment\n"
    "from part, supplier, partsupp, nation, region\n"
    "where p_partkey = ps_partkey and s_suppkey = ps_suppkey and p_size = :1\n"
    "  and p_type like '%:2' and s_nationkey = n_nationkey and n_regionkey = r_regionkey\n"
    "  and r_name = ':3'\n"
    "  and ps_supplycost = (\n"
    "    select min(ps_supplycost) from partsupp, supplier, nation, region\n"
    "    where p_partkey = ps_partkey and s_suppkey = ps_suppkey\n"
    "      and s_nationkey = n_nationkey and n_regionkey = r_regionkey and r_name = ':3')\n"
    "order by s_acctbal desc, n_name, s_name, p_partkey\n"
    "limit 100",
    /* Q3 shipping priority */
    "select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue, o_orderdate,\n"
    "  o_shippriority\n"
    "from customer, orders, lineitem\n"
    "where c_mktsegment = ':1' and c_custkey = o_custkey and l_orderkey = o_orderkey\n"
    "  and o_orderdate < date ':2' and l_shipdate > date ':2'\n"
    "group by l_orderkey, o_orderdate, o_shippriority\n"
    "order by revenue desc, o_orderdate\n"
    "limit 10",
    /* Q4 order priority checking */
    "select o_orderpriority, count(*) as order_count\n"
    "from orders\n"
    "where o_orderdate >= date ':1' and o_orderdate < date ':1' + interval '3' month\n"
    "  and exists (select * from lineitem\n"
    "              where l_orderkey = o_orderkey and l_commitdate < l_receiptdate)\n"
    "group by o_orderpriority\n"
    "order by o_orderpriority",
    /* Q5 local supplier volume */
    "select n_name, sum(l_extendedprice * (1 - l_discount)) as revenue\n"
    "from customer, orders, lineitem, supplier, nation, region\n"
    "where c_custkey = o_custkey and l_orderkey = o_orderkey and l_suppkey = s_suppkey\n"
    "  and c_nationkey = s_nationkey and s_nationkey = n_nationkey\n"
    "  and n_regionkey = r_regionkey and r_name = ':1'\n"
    "  and o_orderdate >= date ':2' and o_orderdate < date ':2' + interval '1' year\n"
    "group by n_name\n"
    "order by revenue desc",
    /* Q6 forecasting revenue change */
    "select sum(l_extendedprice * l_discount) as revenue\n"
    "from lineitem\n"
    "where l_shipdate >= date ':1' and l_shipdate < date ':1' + interval '1' year\n"
    "  and l_discount between :2 - 0.01 and :2 + 0.01 and l_quantity < :3",
    /* Q7 volume shipping */
    "select supp_nation, cust_nation, l_year, sum(volume) as revenue\n"
    "from (\n"
    "  select n1.n_name as supp_nation, n2.n_name as cust_nation,\n"
    "    extract(year from l_shipdate) as l_year,\n"
    "    l_extendedprice * (1 - l_discount) as volume\n"
    "  from supplier, lineitem, orders, customer, nation n1, nation n2\n"
    "  where s_suppkey = l_suppkey and o_orderkey = l_orderkey and c_custkey = o_custkey\n"
    "    and s_nationkey = n1.n_nationkey and c_nationkey = n2.n_nationkey\n"
    "    and ((n1.n_name = ':1' and n2.n_name = ':2')\n"
    "      or (n1.n_name = ':2' and n2.n_name = ':1'))\n"
    "    and l_shipdate between date '1995-01-01' and date '1996-12-31'\n"
    ") as shipping\n"
    "group by supp_nation, cust_nation, l_year\n"
    "order by supp_nation, cust_nation, l_year",
    /* Q8 national market share */
    "select o_year,\n"
    "  sum(case when nation = ':1' then volume else 0 end) / sum(volume) as mkt_share\n"
    "from (\n"
    "  select extract(year from o_orderdate) as o_year,\n"
    "    l_extendedprice * (1 - l_discount) as volume, n2.n_name as nation\n"
    "  from part, supplier, lineitem, orders, customer, nation n1, nation n2, region\n"
    "  where p_partkey = l_partkey and s_suppkey = l_suppkey and l_orderkey = o_orderkey\n"
    "    and o_custkey = c_custkey and c_nationkey = n1.n_nationkey\n"
    "    and n1.n_regionkey = r_regionkey and r_name = ':2'\n"
    "    and s_nationkey = n2.n_nationkey\n"
    "    and o_orderdate between date '1995-01-01' and date '1996-12-31'\n"
    "    and p_type = ':3'\n"
    ") as all_nations\n"
    "group by o_year\n"
    "order by o_year",
    /* Q9 product type profit measure */
    "select nation, o_year, sum(amount) as sum_profit\n"
    "from (\n"
    "  select n_name as nation, extract(year from o_orderdate) as o_year,\n"
    "    l_extendedprice * (1 - l_discount) - ps_supplycost * l_quantity as amount\n"
    "  from part, supplier, lineitem, partsupp, orders, nation\n"
    "  where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey\n"
    "    and p_partkey = l_partkey and o_orderkey = l_orderkey\n"
    "    and s_nationkey = n_nationkey and p_name like '%:1%'\n"
    ") as profit\n"
    "group by nation, o_year\n"
    "order by nation, o_year desc",
    /* Q10 returned item reporting */
    "select c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) as revenue,\n"
    "  c_acctbal, n_name, c_address, c_phone, c_comment\n"
    "from customer, orders, lineitem, nation\n"
    "where c_custkey = o_custkey and l_orderkey = o_orderkey\n"
    "  and o_orderdate >= date ':1' and o_orderdate < date ':1' + interval '3' month\n"
    "  and l_returnflag = 'R' and c_nationkey = n_nationkey\n"
    "group by c_custkey, c_name, c_acctbal, c_phone, n_name, c_address, c_comment\n"
    "order by revenue desc\n"
    "limit 20",
    /* Q11 important stock identification */
    "select ps_partkey, sum(ps_supplycost * ps_availqty) as value\n"
    "from partsupp, supplier, nation\n"
    "where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = ':1'\n"
    "group by ps_partkey\n"
    "having sum(ps_supplycost * ps_availqty) > (\n"
    "  select sum(ps_supplycost * ps_availqty) * :2\n"
    "  from partsupp, supplier, nation\n"
    "  where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = ':1')\n"
    "order by value desc",
    /* Q12 shipping modes and order priority */
    "select l_shipmode,\n"
    "  sum(case when o_orderpriority = '1-URGENT' or o_orderpriority = '2-HIGH'\n"
    "      then 1 else 0 end) as high_line_count,\n"
    "  sum(case when o_orderpriority <> '1-URGENT' and o_orderpriority <> '2-HIGH'\n"
    "      then 1 else 0 end) as low_line_count\n"
    "from orders, lineitem\n"
    "where o_orderkey = l_orderkey and l_shipmode in (':1', ':2')\n"
    "  and l_commitdate < l_receiptdate and l_shipdate < l_commitdate\n"
    "  and l_receiptdate >= date ':3' and l_receiptdate < date ':3' + interval '1' year\n"
    "group by l_shipmode\n"
    "order by l_shipmode",
    /* Q13 customer distribution */
    "select c_count, count(*) as custdist\n"
    "from (\n"
    "  select c_custkey, count(o_orderkey) as c_count\n"
    "  from customer left outer join orders\n"
    "    on c_custkey = o_custkey and o_comment not like '%:1%:2%'\n"
    "  group by c_custkey\n"
    ") as c_orders\n"
    "group by c_count\n"
    "order by custdist desc, c_count desc",
    /* Q14 promotion effect */
    "select 100.00 * sum(case when p_type like 'PROMO%'\n"
    "    then l_extendedprice * (1 - l_discount) else 0 end)\n"
    "  / sum(l_extendedprice * (1 - l_discount)) as promo_revenue\n"
    "from lineitem, part\n"
    "where l_partkey = p_partkey\n"
    "  and l_shipdate >= date ':1' and l_shipdate < date ':1' + interval '1' month",
    /* Q15 top supplier: the timed statement; the view is in qry_q15_pre */
    "select s_suppkey, s_name, s_address, s_phone, total_revenue\n"
    "from supplier, revenue0\n"
    "where s_suppkey = supplier_no\n"
    "  and total_revenue = (select max(total_revenue) from revenue0)\n"
    "order by s_suppkey",
    /* Q16 parts/supplier relationship */
    "select p_brand, p_type, p_size, count(distinct ps_suppkey) as supplier_cnt\n"
    "from partsupp, part\n"
    "where p_partkey = ps_partkey and p_brand <> ':1' and p_type not like ':2%'\n"
    "  and p_size in (:3, :4, :5, :6, :7, :8, :9, :10)\n"
    "  and ps_suppkey not in (select s_suppkey from supplier\n"
    "                         where s_comment like '%Customer%Complaints%')\n"
    "group by p_brand, p_type, p_size\n"
    "order by supplier_cnt desc, p_brand, p_type, p_size",
    /* Q17 small-quantity-order revenue */
    "select sum(l_extendedprice) / 7.0 as avg_yearly\n"
    "from lineitem, part\n"
    "where p_partkey = l_partkey and p_brand = ':1' and p_container = ':2'\n"
    "  and l_quantity < (select 0.2 * avg(l_quantity) from lineitem\n"
    "                    where l_partkey = p_partkey)",
    /* Q18 large volume customer */
    "select c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity)\n"
    "from customer, orders, lineitem\n"
    "where o_orderkey in (select l_orderkey from lineitem\n"
    "                     group by l_orderkey having sum(l_quantity) > :1)\n"
    "  and c_custkey = o_custkey and o_orderkey = l_orderkey\n"
    "group by c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice\n"
    "order by o_totalprice desc, o_orderdate\n"
    "limit 100",
    /* Q19 discounted revenue */
    "select sum(l_extendedprice * (1 - l_discount)) as revenue\n"
    "from lineitem, part\n"
    "where (p_partkey = l_partkey and p_brand = ':1'\n"
    "    and p_container in ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')\n"
    "    and l_quantity >= :4 and l_quantity <= :4 + 10 and p_size between 1 and 5\n"
    "    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')\n"
    "  or (p_partkey = l_partkey and p_brand = ':2'\n"
    "    and p_container in ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK')\n"
    "    and l_quantity >= :5 and l_quantity <= :5 + 10 and p_size between 1 and 10\n"
    "    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')\n"
    "  or (p_partkey = l_partkey and p_brand = ':3'\n"
    "    and p_container in ('LG CASE', 'LG BOX', 'LG PACK', 'LG PKG')\n"
    "    and l_quantity >= :6 and l_quantity <= :6 + 10 and p_size between 1 and 15\n"
    "    and l_shipmode in ('AIR', 'AIR REG') and l_shipinstruct = 'DELIVER IN PERSON')",
    /* Q20 potential part promotion */
    "select s_name, s_address\n"
    "from supplier, nation\n"
    "where s_suppkey in (\n"
    "    select ps_suppkey from partsupp\n"
    "    where ps_partkey in (select p_partkey from part where p_name like ':1%')\n"
    "      and ps_availqty > (\n"
    "        select 0.5 * sum(l_quantity) from lineitem\n"
    "        where l_partkey = ps_partkey and l_suppkey = ps_suppkey\n"
    "          and l_shipdate >= date ':2' and l_shipdate < date ':2' + interval '1' year))\n"
    "  and s_nationkey = n_nationkey and n_name = ':3'\n"
    "order by s_name",
    /* Q21 suppliers who kept orders waiting */
    "select s_name, count(*) as numwait\n"
    "from supplier, lineitem l1, orders, nation\n"
    "where s_suppkey = l1.l_suppkey and o_orderkey = l1.l_orderkey\n"
    "  and o_orderstatus = 'F' and l1.l_receiptdate > l1.l_commitdate\n"
    "  and exists (select * from lineitem l2\n"
    "              where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)\n"
    "  and not exists (select * from lineitem l3\n"
    "                  where l3.l_orderkey = l1.l_orderkey\n"
    "                    and l3.l_suppkey <> l1.l_suppkey\n"
    "                    and l3.l_receiptdate > l3.l_commitdate)\n"
    "  and s_nationkey = n_nationkey and n_name = ':1'\n"
    "group by s_name\n"
    "order by numwait desc, s_name\n"
    "limit 100",
    /* Q22 global sales opportunity */
    "select cntrycode, count(*) as numcust, sum(c_acctbal) as totacctbal\n"
    "from (\n"
    "  select substring(c_phone from 1 for 2) as cntrycode, c_acctbal\n"
    "  from customer\n"
    "  where substring(c_phone from 1 for 2) in (':1', ':2', ':3', ':4', ':5', ':6', ':7')\n"
    "    and c_acctbal > (\n"
    "      select avg(c_acctbal) from customer\n"
    "      where c_acctbal > 0.00\n"
    "        and substring(c_phone from 1 for 2) in (':1', ':2', ':3', ':4', ':5', ':6', ':7'))\n"
    "    and not exists (select * from orders where o_custkey = c_custkey)\n"
    ") as custsale\n"
    "group by cntrycode\n"
    "order by cntrycode",
};

/* Q15's view, created untimed before the timed statement and dropped after it. */
const char qry_q15_pre[] =
    "create or replace view revenue0 (supplier_no, total_revenue) as\n"
    "select l_suppkey, sum(l_extendedprice * (1 - l_discount))\n"
    "from lineitem\n"
    "where l_shipdate >= date ':1' and l_shipdate < date ':1' + interval '3' month\n"
    "group by l_suppkey";
const char qry_q15_post[] = "drop view if exists revenue0";

const char *qry_template(int id)
{
	return id >= 1 && id <= QRY_TEMPLATE_COUNT ? templates[id] : NULL;
}
