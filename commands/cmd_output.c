/* SPDX-License-Identifier: MIT */
/* The report file of -o. */
#include "commands/cmd_output.h"
#include "base/cli.h"
#include "base/safe_write.h"
#include "result/res.h"
#include <stdlib.h>

/* Nothing measured is replaced by a report: a result file, an analysis or a profile. */
static int not_measured(const char *path, void *ctx, struct errbuf *err)
{
	(void)ctx;
	enum res_kind kind = res_file_kind(path);
	if (kind != RES_KIND_NONE)
		return errbuf_set(err,
				  "cannot write '%s': it is %s and would be replaced (give another "
				  "-o)",
				  path, res_kind_name(kind));
	return 0;
}

int cmd_output_check(const char *output, const char *const *inputs, size_t n)
{
	struct errbuf err = {""};
	if (!output)
		return CLI_OK;
	if (util_out_check(output, inputs, n, not_measured, NULL, &err) < 0) {
		cli_error("%s", err.msg);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int cmd_json_print(json_t *j)
{
	char *s = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	json_decref(j);
	if (!s) {
		cli_error("out of memory");
		return CLI_IO;
	}
	printf("%s\n", s);
	free(s);
	return CLI_OK;
}

int cmd_output_write(const char *output, cmd_write_fn write, void *ctx)
{
	struct errbuf err = {""};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = output ? open_memstream(&buf, &len) : stdout;
	if (!f) {
		cli_error("out of memory");
		return CLI_IO;
	}
	int rc = write(f, ctx, &err);
	if (output) {
		rc |= fclose(f);
		if (rc == 0 && util_write_atomic(output, buf, len, &err) < 0)
			rc = -1;
		free(buf);
	}
	if (rc == 0)
		return CLI_OK;
	if (!output && ferror(stdout))
		return CLI_IO; /* main says it once, when it closes standard output */
	cli_error("%s", err.msg[0] ? err.msg
		  : output	   ? "cannot write the report: out of memory"
				   : "cannot write standard output");
	return CLI_IO;
}
