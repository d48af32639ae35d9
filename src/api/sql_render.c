/* sql_render.c - hudi_session_render: the values of a result batch as spark-sql prints them
 * (docs/SQL.md "Output"), for the shell and for any program that wants spark-sql's text.
 *
 * The Arrow batch is imported once per call and every value is rendered by the engine's CAST
 * to STRING (hudi_sql_render_value), so the text is the same as `CAST(x AS STRING)` except
 * that a top-level NULL prints as "NULL". The session contributes its time zone
 * (hudi_sql_session_zone). */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "columnar/arrow_c.h"
#include "hudi/hudi_sql.h"
#include "sql/engine.h"
#include "sql/session.h"

int hudi_session_render(const hudi_session *s, const struct ArrowSchema *schema,
                        const struct ArrowArray *batch, int64_t offset, int64_t length,
                        hudi_render_fn cell, void *payload, hudi_error *err) {
    if (!s || !schema || !batch || !cell || offset < 0 || length < 0 || offset > batch->length ||
        length > batch->length - offset)
        return hudi_error_set(err, HUDI_EINVAL, "render: bad arguments");
    hudi_sql_ctx ctx;
    memset(&ctx, 0, sizeof(ctx));
    int rc =
        hudi_sql_session_zone(hudi_api_sql_session(s), &ctx.tz_offset_minutes, &ctx.tz_name, err);
    if (rc < 0) return rc;

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
