/* SPDX-License-Identifier: MIT */
/* One hardware performance counter (base/util_perf.h). */
#include "base/util_perf.h"
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int util_perf_open(uint64_t config, pid_t tid, int group, uint64_t read_format, int disabled)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = config;
	a.disabled = disabled ? 1 : 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = read_format;
	return (int)syscall(SYS_perf_event_open, &a, tid, -1, group, PERF_FLAG_FD_CLOEXEC);
}
