/* SPDX-License-Identifier: MIT */
/* The pin and stabilizer options every server-starting command accepts. */
#include "base/cli.h"
#include "pinning/pin_int.h"
#include <string.h>

static int set_list(const char **dst, const char *arg, const char *flag, struct errbuf *err)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	if (!set)
		return errbuf_set(err, "out of memory");
	int bad = pin_list_parse(set, arg);
	hwloc_bitmap_free(set);
	if (bad)
		return errbuf_set(err, "invalid %s '%s' (expected a list such as '2' or '2-3,6')",
				  flag, arg ? arg : "");
	*dst = arg;
	return 1;
}

int pin_opts_parse(struct pin_opts *o, int c, const char *arg, struct errbuf *err)
{
	long v;
	switch (c) {
	case PIN_OPT_SERVER_CPUS:
		return set_list(&o->server_cpus, arg, "--server-cpus", err);
	case PIN_OPT_CLIENT_CPUS:
		return set_list(&o->client_cpus, arg, "--client-cpus", err);
	case PIN_OPT_MEMBIND:
		return set_list(&o->membind, arg, "--membind", err);
	case PIN_OPT_NO_PIN:
		o->no_pin = 1;
		return 1;
	case PIN_OPT_NO_ASLR:
		o->stab.no_aslr = 1;
		return 1;
	case PIN_OPT_NICE:
		if (!arg || cli_parse_long(arg, -20, 19, &v) < 0)
			return errbuf_set(err, "invalid --nice '%s' (expected -20..19)",
					  arg ? arg : "");
		o->stab.nice_set = 1;
		o->stab.nice = (int)v;
		return 1;
	case PIN_OPT_SCHED_FIFO:
		if (!arg || cli_parse_long(arg, 1, 99, &v) < 0)
			return errbuf_set(err, "invalid --sched-fifo '%s' (expected 1..99)",
					  arg ? arg : "");
		o->stab.sched_fifo = (int)v;
		return 1;
	case PIN_OPT_DROP_CACHES:
		o->stab.drop_caches = 1;
		return 1;
	case PIN_OPT_LARGE_PAGES:
		o->stab.large_pages = 1;
		return 1;
	case PIN_OPT_TOPOLOGY:
		if (!arg || !*arg)
			return errbuf_set(err, "--topology must not be empty");
		o->topology = arg;
		return 1;
	default:
		return 0;
	}
}

int pin_opts_check(const struct pin_opts *o, struct errbuf *err)
{
	if (o->no_pin && (o->server_cpus || o->client_cpus || o->membind))
		return errbuf_set(err,
				  "--no-pin cannot be combined with --server-cpus, --client-cpus "
				  "or --membind");
	return stab_opts_check(&o->stab, err);
}
