/* sql_render.c - hudi_session_render: the values of a result batch as spark-sql prints them
 * (docs/SQL.md "Output"), for the shell and for any program that wants spark-sql's text.
 *
 * The Arrow batch is imported once per call and every value is rendered by the engine's CAST
 * to STRING (hudi_sql_render_value), so the text is the same as `CAST(x AS STRING)` except
 * that a top-level NULL prints as "NULL". The session contributes its time zone. */
#include <stdlib.h>
#include <string.h>

#include "columnar/arrow_c.h"
#include "hudi/hudi_sql.h"
#include "sql/engine.h"

/* Reads "HH[:MM]" after a sign; false when malformed or out of range. */
static bool parse_hhmm(const char *p, int32_t *minutes) {
    int h = 0, m = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 2) h = h * 10 + (*p++ - '0'), digits++;
    if (digits == 0) return false;
    if (*p == ':') {
        p++;
        digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 2) m = m * 10 + (*p++ - '0'), digits++;
        if (digits != 2) return false;
    }
    if (*p != '\0' || h > 18 || m > 59) return false;
    *minutes = h * 60 + m;
    return true;
}

/* The session time zone as a fixed offset: "UTC", "Z", "GMT", "+08:00", "-05", "UTC+8",
 * "GMT-03:30". A zone that is no fixed offset is an error naming the key. */
static int zone_offset(const char *zone, int32_t *minutes, hudi_error *err) {
    *minutes = 0;
    if (!zone || !*zone) return 0;
    const char *p = zone;
    if (strncmp(p, "UTC", 3) == 0 || strncmp(p, "GMT", 3) == 0)
        p += 3;
    else if (strcmp(p, "Z") == 0)
        p += 1;
    if (*p == '\0') return 0;
    int sign = *p == '-' ? -1 : *p == '+' ? 1 : 0;
    int32_t m;
    if (sign == 0 || !parse_hhmm(p + 1, &m))
        return hudi_error_set(err, HUDI_EUNSUPPORTED,
                              "spark.sql.session.timeZone '%s': only UTC and fixed offsets "
                              "(+HH:MM) are supported",
                              zone);
    *minutes = sign * m;
    return 0;
}

int hudi_session_render(const hudi_session *s, const struct ArrowSchema *schema,
                        const struct ArrowArray *batch, int64_t offset, int64_t length,
                        hudi_render_fn cell, void *payload, hudi_error *err) {
    if (!s || !schema || !batch || !cell || offset < 0 || length < 0 || offset > batch->length ||
        length > batch->length - offset)
        return hudi_error_set(err, HUDI_EINVAL, "render: bad arguments");
    const char *zone = hudi_session_get(s, "spark.sql.session.timeZone");
    hudi_sql_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    int rc = zone_offset(zone, &ctx.tz_offset_minutes, err);
    if (rc < 0) return rc;
    ctx.tz_name = zone && *zone ? zone : "UTC";

    hudi_field field;
    rc = hudi_arrow_import_schema(&field, schema, err);
    if (rc < 0) return rc;
    hudi_batch *b = NULL;
    rc = hudi_arrow_import_batch(&b, batch, schema, &field, err);
    if (rc < 0) {
        hudi_field_dispose(&field);
        return rc;
    }
    hudi_arena arena = HUDI_ARENA_INIT;
    ctx.arena = &arena;
    hudi_buf text = HUDI_BUF_INIT;
    for (int64_t row = offset; row < offset + length && rc == 0; row++) {
        for (int32_t c = 0; c < b->n_columns && rc == 0; c++) {
            const hudi_array *a = b->columns[c];
            hudi_buf_clear(&text);
            hudi_sql_render_value(&text, &ctx, a, row);
            if (hudi_buf_failed(&text)) {
                rc = hudi_error_set(err, HUDI_ENOMEM, "render: out of memory");
                break;
            }
            bool is_null = !hudi_array_is_valid(a, row);
            rc = cell(payload, row, c, text.data ? text.data : "", text.len, is_null);
            if (rc < 0 && err && err->code == 0)
                hudi_error_set(err, rc, "render: stopped by the caller");
        }
    }
    hudi_buf_dispose(&text);
    hudi_arena_dispose(&arena);
    hudi_batch_free(b);
    hudi_field_dispose(&field);
    return rc < 0 ? rc : 0;
}
