/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the result-file reader (docs/result-format.md): any input is either
 * refused with one line naming the input, or read into a model that the writer turns into a file
 * the reader takes back unchanged. Built with -DENABLE_FUZZ=ON; run by scripts/fuzz. */
#include "result/res.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_message(const struct errbuf *err)
{
	if (strncmp(err->msg, "'fuzz.json': ", 13) != 0 || strchr(err->msg, '\n')) {
		fprintf(stderr, "bad error message: %s\n", err->msg);
		abort();
	}
}

/* What the reader accepts, the writer writes and the reader reads back to the same text (a
 * resumed run rewrites the file it read). */
static void check_round_trip(const struct res_file *res)
{
	struct res_file *back = NULL;
	struct errbuf err = {""};
	char *text = res_file_dumps(res);
	if (!text)
		abort();
	if (res_file_parse(&back, text, strlen(text), "fuzz.json", &err) < 0) {
		fprintf(stderr, "the writer's output is refused: %s\n", err.msg);
		abort();
	}
	char *again = res_file_dumps(back);
	if (!again || strcmp(text, again) != 0) {
		fprintf(stderr, "the round trip changed the file\n");
		abort();
	}
	free(again);
	free(text);
	res_file_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	if (res_file_parse(&res, (const char *)data, size, "fuzz.json", &err) < 0) {
		if (res)
			abort();
		check_message(&err);
		return 0;
	}
	check_round_trip(res);
	res_file_free(res);
	return 0;
}
