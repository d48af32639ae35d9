/* batch.c - hudi_batch: the columns of a top-level struct schema, all num_rows long.
 *
 * Invariant: columns[i] is built from schema->children[i]; the batch owns its arrays and
 * borrows the schema. */
#include "columnar/columnar.h"

int hudi_batch_new(hudi_batch **out, const hudi_field *schema, hudi_error *err) {
    *out = NULL;
    if (schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "batch schema %s is a %s, not a struct",
                              schema->name ? schema->name : "", hudi_type_name(schema->type));
    int rc = 0;
    hudi_batch *b = hudi_calloc(1, sizeof(*b));
    if (!b) return hudi_error_oom(err);
    b->schema = schema;
    if (schema->n_children > 0 &&
        !(b->columns = hudi_calloc((size_t)schema->n_children, sizeof(*b->columns)))) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (int32_t i = 0; i < schema->n_children; i++) {
        if ((rc = hudi_array_new(&b->columns[i], &schema->children[i], err)) < 0) goto done;
        b->n_columns = i + 1;
    }
done:
    if (rc < 0)
        hudi_batch_free(b);
    else
        *out = b;
    return rc;
}

void hudi_batch_free(hudi_batch *b) {
    if (!b) return;
    for (int32_t i = 0; i < b->n_columns; i++) hudi_array_free(b->columns[i]);
    hudi_free(b->columns);
    hudi_free(b);
}

void hudi_batch_clear(hudi_batch *b) {
    for (int32_t i = 0; i < b->n_columns; i++) hudi_array_clear(b->columns[i]);
    b->num_rows = 0;
}

int hudi_batch_validate(const hudi_batch *b, hudi_error *err) {
    int rc;
    if (b->n_columns != b->schema->n_children)
        return hudi_error_set(err, HUDI_EINVAL, "batch has %d columns, schema %d", b->n_columns,
                              b->schema->n_children);
    for (int32_t i = 0; i < b->n_columns; i++) {
        const hudi_array *a = b->columns[i];
        if (a->length != b->num_rows)
            return hudi_error_set(err, HUDI_EINVAL, "column %s: %lld rows in a batch of %lld",
                                  a->field->name ? a->field->name : "", (long long)a->length,
                                  (long long)b->num_rows);
        if ((rc = hudi_array_validate(a, err)) < 0) return rc;
    }
    return 0;
}

bool hudi_batch_equal(const hudi_batch *a, const hudi_batch *b, hudi_buf *why) {
    if (a->num_rows != b->num_rows || a->n_columns != b->n_columns) {
        if (why)
            hudi_buf_printf(why, "batch shape %lld x %d != %lld x %d", (long long)a->num_rows,
                            a->n_columns, (long long)b->num_rows, b->n_columns);
        return false;
    }
    for (int32_t i = 0; i < a->n_columns; i++) {
        if (!hudi_array_equal(a->columns[i], b->columns[i], why)) return false;
    }
    return true;
}
