/* SPDX-License-Identifier: MIT */
/* The result reader's member checks: a member of the wanted type, an integer or a number in
 * range, and the one-line message naming the file and the JSON path (result/res_read_int.h). */
#include "result/res_read_int.h"
#include <stdarg.h>
#include <stdio.h>

/* out = "path.key", cut short when it does not fit (paths are for messages only). */
void rd_path_join(char *out, size_t n, const char *path, const char *key)
{
	if (snprintf(out, n, "%s.%s", path, key) >= (int)n)
		out[n - 1] = '\0';
}

int rd_fail(struct rd *rd, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return errbuf_set(rd->err, "'%s': %s: %s", rd->name, path, msg);
}

const char *rd_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "unknown";
}

static const char *want_name(unsigned w)
{
	if (w & W_OBJECT)
		return "an object";
	if (w & W_ARRAY)
		return "an array";
	if ((w & W_STRING) && (w & W_NULL))
		return "a string or null";
	if (w & W_STRING)
		return "a string";
	if ((w & W_INTEGER) && (w & W_NULL))
		return "an integer or null";
	if (w & W_INTEGER)
		return "an integer";
	if ((w & W_NUMBER) && (w & W_NULL))
		return "a number or null";
	if (w & W_NUMBER)
		return "a number";
	if (w & W_BOOL)
		return "a boolean";
	return "a value";
}

static int matches(const json_t *v, unsigned w)
{
	return ((w & W_STRING) && json_is_string(v)) || ((w & W_NULL) && json_is_null(v)) ||
	       ((w & W_OBJECT) && json_is_object(v)) || ((w & W_ARRAY) && json_is_array(v)) ||
	       ((w & W_INTEGER) && json_is_integer(v)) || ((w & W_NUMBER) && json_is_number(v)) ||
	       ((w & W_BOOL) && json_is_boolean(v));
}

/* Fetches obj.key of the wanted type into out (NULL when optional and absent). */
int rd_member(struct rd *rd, json_t *obj, const char *path, const char *key, unsigned w,
	      json_t **out)
{
	char p[256];
	json_t *v = json_object_get(obj, key);
	rd_path_join(p, sizeof(p), path, key);
	*out = v;
	if (!v) {
		if (w & W_OPTIONAL)
			return 0;
		return rd_fail(rd, p, "missing");
	}
	if (!matches(v, w))
		return rd_fail(rd, p, "expected %s, found %s", want_name(w), rd_type_name(v));
	return 0;
}

/* obj.key: an integer in [min, max] into *out; -1 when absent (W_OPTIONAL) or null (W_NULL). */
int rd_int_member(struct rd *rd, json_t *obj, const char *path, const char *key, long long min,
		  long long max, unsigned w, long long *out)
{
	char p[256];
	json_t *v;
	*out = -1;
	if (rd_member(rd, obj, path, key, W_INTEGER | w, &v) < 0)
		return -1;
	if (!json_is_integer(v))
		return 0;
	rd_path_join(p, sizeof(p), path, key);
	long long x = (long long)json_integer_value(v);
	if (x < min || x > max)
		return rd_fail(rd, p, "%lld out of range (%lld to %lld)", x, min, max);
	*out = x;
	return 0;
}

/* obj.key: a number above lo (at least lo with W_LO_INCL) and at most hi (absent or null as w
 * allows). */
int rd_num_member(struct rd *rd, json_t *obj, const char *path, const char *key, double lo,
		  double hi, unsigned w)
{
	char p[256];
	json_t *v;
	if (rd_member(rd, obj, path, key, W_NUMBER | (w & ~W_LO_INCL), &v) < 0)
		return -1;
	if (!json_is_number(v))
		return 0;
	rd_path_join(p, sizeof(p), path, key);
	double x = json_number_value(v);
	int low = (w & W_LO_INCL) ? !(x >= lo) : !(x > lo);
	if (low || !(x <= hi))
		return rd_fail(rd, p, "%g out of range (%s %g, at most %g)", x,
			       (w & W_LO_INCL) ? "at least" : "above", lo, hi);
	return 0;
}

