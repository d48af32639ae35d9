/* where.c - `--where 'COL OP VALUE'` for `hudic parquet cat` and `hudic table cat`: the
 * predicate grammar and constant conversion live in the library (read/predicate.h, shared with
 * the public scan filter); this adapts them to the CLI's message buffer. */
#include "cli/cli.h"
#include "read/predicate.h"

int cli_where_parse(cli_where *out, const char *text, const hudi_field *schema, hudi_buf *why) {
    hudi_predicate p = HUDI_PREDICATE_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    int rc = hudi_predicate_parse(&p, text, schema, &err);
    if (rc < 0) {
        hudi_buf_puts(why, err.message);
        hudi_predicate_dispose(&p);
        return rc;
    }
    /* Move the constant's storage: the buffer's data pointer (which value.bytes borrows) stays. */
    hudi_buf_dispose(&out->bytes);
    out->bytes = p.bytes;
    out->pred.column = p.column;
    out->pred.op = p.op;
    out->pred.value = p.value;
    return 0;
}

void cli_where_dispose(cli_where *w) {
    if (w) hudi_buf_dispose(&w->bytes);
}
