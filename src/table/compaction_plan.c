/* compaction_plan.c - reading a compaction plan, `<I>.compaction.requested` (docs/formats/
 * timeline.md): an Avro container with one HoodieCompactionPlan record whose operations name,
 * per file group, the slice to compact - base instant, base file, log files, file id and
 * partition. Version 1 plans hold full paths, version 2 plans file names; both are reduced to
 * file names here (the partition comes from partitionPath). Any writer's plan reads the same:
 * fields are found by name, so extra or missing trailing fields (0.x versus 1.x) do not matter.
 * An empty file reads as a plan without operations. */
#include <string.h>

#include "format/avro/avro.h"
#include "table/table.h"

static const hudi_avro_value *field(const hudi_avro_value *rec, const char *name) {
    if (!rec || rec->type != HUDI_AVRO_RECORD) return NULL;
    for (size_t i = 0; i < rec->count; i++)
        if (rec->keys[i].len == strlen(name) &&
            memcmp(rec->keys[i].data, name, rec->keys[i].len) == 0)
            return rec->items[i].type == HUDI_AVRO_NULL ? NULL : &rec->items[i];
    return NULL;
}

static const char *str_field(const hudi_avro_value *rec, const char *name) {
    const hudi_avro_value *v = field(rec, name);
    return v && v->type == HUDI_AVRO_STRING ? (const char *)v->bytes.data : NULL;
}

int hudi_compaction_plan_parse(hudi_compaction_plan *out, hudi_slice bytes, const char *what,
                               hudi_error *err) {
    memset(out, 0, sizeof(*out));
    if (bytes.len == 0) { /* an empty requested file: a plan without operations */
        out->version = 2;
        return 0;
    }
    hudi_avro_container *c = hudi_calloc(1, sizeof(*c));
    if (!c) return hudi_error_oom(err);
    *c = (hudi_avro_container)HUDI_AVRO_CONTAINER_INIT;
    out->container = c;
    int rc = hudi_avro_container_read(c, bytes, err);
    if (rc < 0) {
        hudi_error_wrap(err, "%s", what);
        goto fail;
    }
    if (c->count != 1 || c->records[0].type != HUDI_AVRO_RECORD) {
        rc = hudi_error_set(err, HUDI_ECORRUPT, "%s: not a compaction plan", what);
        goto fail;
    }
    const hudi_avro_value *plan = &c->records[0];
    const hudi_avro_value *ver = field(plan, "version");
    out->version = ver && ver->type == HUDI_AVRO_INT ? (int32_t)ver->v.i : 1;
    const hudi_avro_value *ops = field(plan, "operations");
    size_t n = ops && ops->type == HUDI_AVRO_ARRAY ? ops->count : 0;
    out->ops = hudi_arena_alloc(&c->arena, (n ? n : 1) * sizeof(hudi_compaction_op));
    if (!out->ops) {
        rc = hudi_error_oom(err);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        const hudi_avro_value *op = &ops->items[i];
        hudi_compaction_op *o = &out->ops[i];
        memset(o, 0, sizeof(*o));
        o->base_instant = str_field(op, "baseInstantTime");
        o->file_id = str_field(op, "fileId");
        o->partition_path = str_field(op, "partitionPath");
        o->data_file = str_field(op, "dataFilePath");
        if (o->data_file) o->data_file = hudi_path_basename(o->data_file);
        if (!o->partition_path) o->partition_path = "";
        if (!o->base_instant || !o->file_id ||
            !hudi_instant_time_valid(o->base_instant, strlen(o->base_instant))) {
            rc = hudi_error_set(err, HUDI_ECORRUPT,
                                "%s: compaction operation %zu has no file id or base instant", what,
                                i);
            goto fail;
        }
        const hudi_avro_value *logs = field(op, "deltaFilePaths");
        size_t nl = logs && logs->type == HUDI_AVRO_ARRAY ? logs->count : 0;
        o->log_files = hudi_arena_alloc(&c->arena, (nl ? nl : 1) * sizeof(char *));
        if (!o->log_files) {
            rc = hudi_error_oom(err);
            goto fail;
        }
        for (size_t k = 0; k < nl; k++) {
            if (logs->items[k].type != HUDI_AVRO_STRING) {
                rc = hudi_error_set(err, HUDI_ECORRUPT,
                                    "%s: compaction operation %zu: bad log path", what, i);
                goto fail;
            }
            o->log_files[k] = hudi_path_basename((const char *)logs->items[k].bytes.data);
        }
        o->log_count = nl;
    }
    out->count = n;
    return 0;
fail:
    hudi_compaction_plan_dispose(out);
    return rc;
}

int hudi_compaction_plan_read(hudi_compaction_plan *out, const hudi_timeline *tl,
                              const char *instant, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    hudi_instant in;
    hudi_buf raw = HUDI_BUF_INIT, what = HUDI_BUF_INIT;
    int rc = hudi_instant_make(&in, instant, HUDI_ACTION_COMPACTION, HUDI_STATE_REQUESTED, NULL,
                               tl->layout, err);
    if (rc == 0) rc = hudi_timeline_read_instant(&raw, tl, &in, err);
    if (rc == 0) {
        hudi_buf_printf(&what, "%s/%s", tl->dir, in.file);
        rc = hudi_buf_failed(&what)
                 ? hudi_error_oom(err)
                 : hudi_compaction_plan_parse(out, HUDI_SLICE(raw.data, raw.len), what.data, err);
    }
    hudi_buf_dispose(&raw);
    hudi_buf_dispose(&what);
    return rc;
}

void hudi_compaction_plan_dispose(hudi_compaction_plan *p) {
    if (!p) return;
    if (p->container) hudi_avro_container_dispose(p->container);
    hudi_free(p->container);
    memset(p, 0, sizeof(*p));
}

bool hudi_compaction_is_pending(const hudi_timeline *tl, const char *time) {
    bool pending = false;
    for (size_t i = 0; i < tl->count; i++) {
        const hudi_instant *in = &tl->instants[i];
        if (strcmp(in->time, time) != 0) continue;
        if (in->state == HUDI_STATE_COMPLETED) return false;
        pending |= in->action == HUDI_ACTION_COMPACTION;
    }
    return pending;
}
