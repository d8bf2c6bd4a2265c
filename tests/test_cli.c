/* SPDX-License-Identifier: MIT */
#include "base/cli.h"
#include "commands/cmd.h"
#include "tests/harness.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void test_cli__parse_long_rejects_trailing_garbage(void)
{
	long v = 0;
	CU_ASSERT_EQUAL(cli_parse_long("42", 0, 100, &v), 0);
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_EQUAL(cli_parse_long("42x", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("101", 0, 100, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_long("-1", 0, 100, &v), -1);
}

static void test_cli__parse_double_rejects_non_finite(void)
{
	double v = 0;
	CU_ASSERT_EQUAL(cli_parse_double("0.01", 0, 1e6, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.01, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_double("nan", 0, 1e6, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_double("inf", 0, 1e300, &v), -1);
	CU_ASSERT_EQUAL(cli_parse_double("1e", 0, 1e6, &v), -1);
}

static void test_cli__fraction_accepts_percent(void)
{
	double v = 0;
	CU_ASSERT_EQUAL(cli_parse_fraction("3%", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.03, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_fraction("0.02", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.02, 1e-15);
	CU_ASSERT_EQUAL(cli_parse_fraction("%", &v), -1);
	CU_ASSERT_EQUAL(cli_parse_fraction("x%", &v), -1);
}

static void test_cli__table_has_every_command_once(void)
{
	int n = 0;
	for (const struct cmd *c = cmd_table; c->name; c++, n++) {
		CU_ASSERT_PTR_EQUAL(cmd_find(c->name), c);
		CU_ASSERT_PTR_NOT_NULL(c->summary);
	}
	CU_ASSERT_EQUAL(n, 13);
	CU_ASSERT_PTR_NULL(cmd_find("nosuch"));
}

static void test_cli__options_merge_keeps_order_and_ends_with_zero(void)
{
	static const struct option a[] = {{"alpha", no_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
	static const struct option b[] = {{"beta", required_argument, NULL, 1000},
					  {"gamma", no_argument, NULL, 1001},
					  {NULL, 0, NULL, 0}};
	const struct option *const tables[] = {a, b, NULL};
	struct option *all = cli_options_merge(tables);
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT_STRING_EQUAL(all[0].name, "alpha");
	CU_ASSERT_STRING_EQUAL(all[1].name, "beta");
	CU_ASSERT_EQUAL(all[1].val, 1000);
	CU_ASSERT_EQUAL(all[1].has_arg, required_argument);
	CU_ASSERT_STRING_EQUAL(all[2].name, "gamma");
	CU_ASSERT_PTR_NULL(all[3].name);
	free(all);
}

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
		{"parse_long_rejects_trailing_garbage", test_cli__parse_long_rejects_trailing_garbage},
		{"parse_double_rejects_non_finite", test_cli__parse_double_rejects_non_finite},
		{"fraction_accepts_percent", test_cli__fraction_accepts_percent},
		{"table_has_every_command_once", test_cli__table_has_every_command_once},
		{"options_merge_keeps_order_and_ends_with_zero",
		 test_cli__options_merge_keeps_order_and_ends_with_zero},
		{NULL, NULL},
	};
	return th_run("cli", cases, argc, argv);
}
