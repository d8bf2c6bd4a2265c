/* SPDX-License-Identifier: MIT */
#include "th_schema.h"
#include "result/res.h"
#include "tests/harness.h"
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vctx {
	json_t *root;
	struct errbuf *err;
	int depth;
};

static int validate(struct vctx *c, json_t *s, json_t *v, const char *path);

static int fail(struct vctx *c, const char *path, const char *fmt, const char *detail)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, detail ? detail : "");
	return errbuf_set(c->err, "%s: %s", path, msg);
}

static int type_is(json_t *v, const char *t)
{
	if (strcmp(t, "object") == 0)
		return json_is_object(v);
	if (strcmp(t, "array") == 0)
		return json_is_array(v);
	if (strcmp(t, "string") == 0)
		return json_is_string(v);
	if (strcmp(t, "integer") == 0)
		return json_is_integer(v) ||
		       (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)));
	if (strcmp(t, "number") == 0)
		return json_is_number(v);
	if (strcmp(t, "boolean") == 0)
		return json_is_boolean(v);
	if (strcmp(t, "null") == 0)
		return json_is_null(v);
	return 0;
}

static int check_type(struct vctx *c, json_t *t, json_t *v, const char *path)
{
	if (json_is_string(t)) {
		if (!type_is(v, json_string_value(t)))
			return fail(c, path, "not of type %s", json_string_value(t));
		return 0;
	}
	size_t i;
	json_t *e;
	json_array_foreach(t, i,
			   e) if (json_is_string(e) && type_is(v, json_string_value(e))) return 0;
	char *types = json_dumps(t, JSON_COMPACT);
	fail(c, path, "not of type %s", types);
	free(types);
	return -1;
}

/* "#/$defs/name" inside the root schema. */
static json_t *resolve(struct vctx *c, const char *ref)
{
	if (strncmp(ref, "#", 1) != 0)
		return NULL;
	json_t *cur = c->root;
	const char *p = ref + 1;
	while (*p == '/' && cur) {
		p++;
		const char *end = strchr(p, '/');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char key[256];
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		cur = json_object_get(cur, key);
		p += n;
	}
	return *p ? NULL : cur;
}

static int quiet_valid(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	struct errbuf scratch;
	struct vctx sub = {c->root, &scratch, c->depth};
	return validate(&sub, s, v, path) == 0;
}

static int check_number(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	if (!json_is_number(v))
		return 0;
	double x = json_number_value(v);
	json_t *k;
	char buf[64];
	if ((k = json_object_get(s, "minimum")) && x < json_number_value(k)) {
		snprintf(buf, sizeof(buf), "%g", json_number_value(k));
		return fail(c, path, "less than the minimum %s", buf);
	}
	if ((k = json_object_get(s, "maximum")) && x > json_number_value(k)) {
		snprintf(buf, sizeof(buf), "%g", json_number_value(k));
		return fail(c, path, "more than the maximum %s", buf);
	}
	if ((k = json_object_get(s, "exclusiveMinimum")) && x <= json_number_value(k)) {
		snprintf(buf, sizeof(buf), "%g", json_number_value(k));
		return fail(c, path, "not more than %s", buf);
	}
	if ((k = json_object_get(s, "exclusiveMaximum")) && x >= json_number_value(k)) {
		snprintf(buf, sizeof(buf), "%g", json_number_value(k));
		return fail(c, path, "not less than %s", buf);
	}
	return 0;
}

/* Length in code points of a UTF-8 string. */
static size_t utf8_len(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static int check_string(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	if (!json_is_string(v))
		return 0;
	const char *str = json_string_value(v);
	json_t *k;
	if ((k = json_object_get(s, "minLength")) && utf8_len(str) < (size_t)json_integer_value(k))
		return fail(c, path, "shorter than minLength%s", "");
	if ((k = json_object_get(s, "maxLength")) && utf8_len(str) > (size_t)json_integer_value(k))
		return fail(c, path, "longer than maxLength%s", "");
	if ((k = json_object_get(s, "pattern")) && json_is_string(k)) {
		regex_t re;
		if (regcomp(&re, json_string_value(k), REG_EXTENDED | REG_NOSUB) != 0)
			return fail(c, path, "schema pattern '%s' is not a POSIX regex",
				    json_string_value(k));
		int m = regexec(&re, str, 0, NULL, 0);
		regfree(&re);
		if (m != 0)
			return fail(c, path, "does not match the pattern %s", json_string_value(k));
	}
	return 0;
}

static int check_object(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	if (!json_is_object(v))
		return 0;
	char sub[1024];
	json_t *req = json_object_get(s, "required");
	size_t i;
	json_t *e;
	json_array_foreach(req, i, e)
	{
		if (json_is_string(e) && !json_object_get(v, json_string_value(e)))
			return fail(c, path, "required member '%s' missing", json_string_value(e));
	}
	json_t *props = json_object_get(s, "properties");
	json_t *addl = json_object_get(s, "additionalProperties");
	const char *key;
	json_t *val;
	json_object_foreach(v, key, val)
	{
		json_t *ps = json_object_get(props, key);
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (ps) {
			if (validate(c, ps, val, sub) < 0)
				return -1;
		} else if (json_is_false(addl)) {
			return fail(c, sub, "member not allowed%s", "");
		} else if (json_is_object(addl) && validate(c, addl, val, sub) < 0) {
			return -1;
		}
	}
	return 0;
}

static int check_array(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	if (!json_is_array(v))
		return 0;
	json_t *k;
	if ((k = json_object_get(s, "minItems")) &&
	    json_array_size(v) < (size_t)json_integer_value(k))
		return fail(c, path, "fewer items than minItems%s", "");
	if ((k = json_object_get(s, "maxItems")) &&
	    json_array_size(v) > (size_t)json_integer_value(k))
		return fail(c, path, "more items than maxItems%s", "");
	json_t *items = json_object_get(s, "items");
	if (json_is_object(items)) {
		char sub[1024];
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
		{
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			if (validate(c, items, e, sub) < 0)
				return -1;
		}
	}
	return 0;
}

static int check_combinators(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	json_t *k;
	size_t i;
	json_t *e;
	if ((k = json_object_get(s, "allOf")))
		json_array_foreach(k, i, e) if (validate(c, e, v, path) < 0) return -1;
	if ((k = json_object_get(s, "anyOf"))) {
		int ok = 0;
		json_array_foreach(k, i, e) ok |= quiet_valid(c, e, v, path);
		if (!ok)
			return fail(c, path, "matches none of anyOf%s", "");
	}
	if ((k = json_object_get(s, "oneOf"))) {
		int n = 0;
		json_array_foreach(k, i, e) n += quiet_valid(c, e, v, path);
		if (n != 1)
			return fail(
			    c, path,
			    n ? "matches more than one of oneOf%s" : "matches none of oneOf%s", "");
	}
	if ((k = json_object_get(s, "not")) && quiet_valid(c, k, v, path))
		return fail(c, path, "matches a 'not' schema%s", "");
	if ((k = json_object_get(s, "if"))) {
		json_t *branch = json_object_get(s, quiet_valid(c, k, v, path) ? "then" : "else");
		if (branch && validate(c, branch, v, path) < 0)
			return -1;
	}
	return 0;
}

static int validate(struct vctx *c, json_t *s, json_t *v, const char *path)
{
	if (json_is_true(s))
		return 0;
	if (json_is_false(s))
		return fail(c, path, "no value is allowed here%s", "");
	if (!json_is_object(s))
		return fail(c, path, "schema is not an object%s", "");
	if (++c->depth > 64) {
		c->depth--;
		return fail(c, path, "schema nesting too deep%s", "");
	}
	int rc = -1;
	json_t *k;
	if ((k = json_object_get(s, "$ref"))) {
		json_t *target = resolve(c, json_string_value(k));
		if (!target) {
			fail(c, path, "cannot resolve $ref '%s'", json_string_value(k));
			goto out;
		}
		if (validate(c, target, v, path) < 0)
			goto out;
	}
	if ((k = json_object_get(s, "type")) && check_type(c, k, v, path) < 0)
		goto out;
	if ((k = json_object_get(s, "const")) && !json_equal(k, v)) {
		fail(c, path, "not the constant value%s", "");
		goto out;
	}
	if ((k = json_object_get(s, "enum"))) {
		int found = 0;
		size_t i;
		json_t *e;
		json_array_foreach(k, i, e) found |= json_equal(e, v);
		if (!found) {
			fail(c, path, "not one of the enum values%s", "");
			goto out;
		}
	}
	if (check_number(c, s, v, path) < 0 || check_string(c, s, v, path) < 0 ||
	    check_object(c, s, v, path) < 0 || check_array(c, s, v, path) < 0 ||
	    check_combinators(c, s, v, path) < 0)
		goto out;
	rc = 0;
out:
	c->depth--;
	return rc;
}

int th_schema_validate(json_t *schema, json_t *doc, struct errbuf *err)
{
	struct vctx c = {schema, err, 0};
	return validate(&c, schema, doc, "$");
}

int th_schema_validate_files(const char *schema_path, const char *doc_path, struct errbuf *err)
{
	json_error_t je;
	json_t *schema = json_load_file(schema_path, 0, &je);
	if (!schema)
		return errbuf_set(err, "cannot read '%s': %s (line %d)", schema_path, je.text,
				  je.line);
	json_t *doc = json_load_file(doc_path, 0, &je);
	if (!doc) {
		json_decref(schema);
		return errbuf_set(err, "cannot read '%s': %s (line %d)", doc_path, je.text,
				  je.line);
	}
	int rc = th_schema_validate(schema, doc, err);
	json_decref(doc);
	json_decref(schema);
	return rc;
}

void th_result_assert_valid(const char *path)
{
	struct errbuf err = {""};
	int rc = th_schema_validate_files(DBT3_SOURCE_DIR "/docs/result.schema.json", path, &err);
	if (rc != 0)
		fprintf(stderr, "%s: %s\n", path, err.msg);
	CU_ASSERT_EQUAL(rc, 0);
}

struct res_file *th_result_read(const char *path)
{
	struct res_file *res = NULL;
	struct errbuf err = {""};
	if (res_file_read(&res, path, &err) < 0)
		fprintf(stderr, "%s\n", err.msg);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	return res;
}

struct res_file *th_result_read_valid(const char *path)
{
	th_result_assert_valid(path);
	return th_result_read(path);
}
