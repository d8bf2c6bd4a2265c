/* SPDX-License-Identifier: MIT */
/* The report file of -o. */
#include "runner/cmd_output.h"
#include "base/cli.h"
#include "reports/rpt.h"

int cmd_output_check(const char *output, const char *const *inputs, size_t n)
{
	struct errbuf err = {""};
	if (!output)
		return CLI_OK;
	if (cli_output_check(output, inputs, n) != CLI_OK)
		return CLI_USAGE;
	if (rpt_output_check(output, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	return CLI_OK;
}
