/* SPDX-License-Identifier: MIT */
#include "base/cli.h"
#include "commands/cmd.h"
#include "tests/harness.h"
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

int main(int argc, char **argv)
{
	static const struct th_case cases[] = {
		{"parse_long_rejects_trailing_garbage", test_cli__parse_long_rejects_trailing_garbage},
		{"parse_double_rejects_non_finite", test_cli__parse_double_rejects_non_finite},
		{"fraction_accepts_percent", test_cli__fraction_accepts_percent},
		{"table_has_every_command_once", test_cli__table_has_every_command_once},
		{NULL, NULL},
	};
	return th_run("cli", cases, argc, argv);
}
