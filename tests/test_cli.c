/* SPDX-License-Identifier: MIT */
#include "base/cli.h"
#include "commands/cmd.h"
#include "tests/harness.h"
#include <stdlib.h>
#include <string.h>

TH_TEST(cli, parse_long_rejects_trailing_garbage)
{
	long v = 0;
	CU_ASSERT_EQUAL(cli_parse_long("42", 0, 100, &v), 0);
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_EQUAL(cli_parse_long("42x", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("101", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("-1", 0, 100, &v), -1);
}

TH_TEST(cli, parse_double_rejects_non_finite)
{
	double v = 0;
	CU_ASSERT_EQUAL(cli_parse_double("0.01", 0, 1e6, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.01, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_double("nan", 0, 1e6, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_double("inf", 0, 1e300, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_double("1e", 0, 1e6, &v), -1);
}

TH_TEST(cli, fraction_accepts_percent)
{
	double v = 0;
	CU_ASSERT_EQUAL(cli_parse_fraction("3%", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.03, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_fraction("0.02", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.02, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_fraction("%", &v), -1);
	CU_ASSERT_EQUAL(cli_parse_fraction("x%", &v), -1);
}

TH_TEST(cli, table_has_every_command_once)
{
	int n = 0;
	for (const struct cmd *c = cmd_table; c->name; c++, n++) {
		CU_ASSERT_PTR_EQUAL(cmd_find(c->name), c);
		CU_ASSERT_PTR_NOT_NULL(c->summary);
	}
	CU_ASSERT_EQUAL(n, 13);
	CU_ASSERT_PTR_NULL(cmd_find("nosuch"));
}

TH_MAIN(cli)
