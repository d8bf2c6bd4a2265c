/* SPDX-License-Identifier: MIT */
/* dbt3stab report: one self-contained HTML page for one or more results, no comparison. */
#include "base/cli.h"
#include "reports/rpt.h"
#include "reports/rpt_html.h"
#include "result/res.h"
#include "runner/cmd.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: dbt3stab report RESULT.json [MORE.json ...] [-o FILE] [--quiet]\n"
    "\n"
    "Writes one self-contained HTML page (opens offline, fetches nothing) showing each result's\n"
    "restart-to-restart spread, per query the restart means and the warm-up curves (every\n"
    "execution of every restart), and a sortable table: restarts, geometric mean of the restart\n"
    "means, within- and between-restart CoV. Plans are shown side by side where the files'\n"
    "plans differ. To compare two results, use 'dbt3stab compare OLD NEW --format html'.\n"
    "\n"
    "  -o, --output FILE   write the page to FILE (atomically) instead of standard output\n"
    "  -q, --quiet         no informational message\n"
    "  -h, --help          this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"quiet", no_argument, NULL, 'q'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	const char *output = NULL;
	int quiet = 0, c, rc = CLI_OK;
	cli_getopt_reset();
	while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_OK;
		default:
			return cli_bad_option("report", c, argv);
		}
	}
	size_t n = (size_t)(argc - optind);
	if (n == 0)
		return cli_usage_error("report", "no result file given");
	if (n > 16)
		return cli_usage_error("report", "at most 16 result files, got %zu", n);
	if (output) {
		struct errbuf oerr = {""};
		if (cli_output_check(output, (const char *const *)&argv[optind], n) != CLI_OK)
			return CLI_USAGE;
		if (rpt_output_check(output, &oerr) < 0) {
			cli_error("%s", oerr.msg);
			return CLI_USAGE;
		}
	}

	struct res_file **files = calloc(n, sizeof(*files));
	char *page = NULL;
	size_t page_len = 0;
	FILE *mem = NULL;
	struct errbuf err;
	if (!files) {
		cli_error("out of memory");
		return CLI_FOUND;
	}
	for (size_t i = 0; i < n; i++) {
		if (res_file_read(&files[i], argv[optind + (int)i], &err) < 0) {
			cli_error("%s", err.msg);
			rc = CLI_USAGE;
			goto done;
		}
	}
	mem = open_memstream(&page, &page_len);
	if (!mem) {
		cli_error("cannot write the report: out of memory");
		rc = CLI_FOUND;
		goto done;
	}
	if (rpt_html_write_report(mem, (const struct res_file *const *)files,
				  (const char *const *)&argv[optind], n, &err) < 0) {
		cli_error("%s", err.msg);
		rc = CLI_FOUND;
		goto done;
	}
	if (fclose(mem) != 0) {
		mem = NULL;
		cli_error("cannot write the report: out of memory");
		rc = CLI_FOUND;
		goto done;
	}
	mem = NULL;
	if (output) {
		if (util_write_atomic(output, page, page_len, &err) < 0) {
			cli_error("%s", err.msg);
			rc = CLI_FOUND;
			goto done;
		}
		cli_info(quiet, "wrote '%s' (%zu result%s, %zu bytes)", output, n,
			 n == 1 ? "" : "s", page_len);
	} else if (fwrite(page, 1, page_len, stdout) != page_len) {
		cli_error("cannot write the report to standard output");
		rc = CLI_FOUND;
	}
done:
	if (mem)
		fclose(mem);
	free(page);
	for (size_t i = 0; i < n; i++)
		res_file_free(files[i]);
	free(files);
	return rc;
}
