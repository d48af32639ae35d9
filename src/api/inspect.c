/* inspect.c - read-only views of a public table (include/hudi/hudi_table.h): hoodie.properties,
 * the timeline's instants and the file slices of the file-system view, handed out as borrowed
 * strings of the table layer's structs. */
#include "api/api.h"

void hudi_table_info_get(const hudi_table *t, hudi_table_info *out) {
    if (!out) return;
    memset(out, 0, sizeof(*out));
    if (!t) return;
    const hudi_table_config *c = &t->cfg;
    out->name = c->name;
    out->type = c->type == HUDI_MERGE_ON_READ ? "MERGE_ON_READ" : "COPY_ON_WRITE";
    out->version = c->version;
    out->timeline_layout = c->timeline_layout;
}

int32_t hudi_table_property_count(const hudi_table *t) { return t ? (int32_t)t->props.count : 0; }

int hudi_table_property_get(const hudi_table *t, int32_t i, const char **key, const char **value) {
    if (!t || i < 0 || (size_t)i >= t->props.count) return HUDI_EINVAL;
    if (key) *key = t->props.items[i].key;
    if (value) *value = t->props.items[i].value;
    return 0;
}

int32_t hudi_table_instant_count(const hudi_table *t) {
    return t && t->timeline ? (int32_t)t->timeline->count : 0;
}

int hudi_table_instant_get(const hudi_table *t, int32_t i, hudi_instant_info *out) {
    if (!t || !out || i < 0 || i >= hudi_table_instant_count(t)) return HUDI_EINVAL;
    const hudi_instant *in = &t->timeline->instants[i];
    out->time = in->time;
    out->action = hudi_action_name(in->action);
    out->state = hudi_state_name(in->state);
    out->completion_time = in->completion;
    return 0;
}

struct hudi_file_slices {
    hudi_fs_view *v;
    const hudi_file_slice *slices; /* owned by v */
    size_t n;
};

int hudi_table_file_slices(hudi_file_slices **out, hudi_table *t, const char *as_of_instant,
                           hudi_error *err) {
    hudi_fs_view_options vo = HUDI_FS_VIEW_OPTIONS_INIT;
    if (!out) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_file_slices: out is NULL");
    *out = NULL;
    if (!t) return hudi_error_set(err, HUDI_EINVAL, "hudi_table_file_slices: no table");
    hudi_file_slices *s = hudi_calloc(1, sizeof(*s));
    if (!s) return hudi_error_oom(err);
    vo.as_of_instant = as_of_instant;
    int rc = hudi_fs_view_build(&s->v, t->timeline, &vo, err);
    if (rc < 0) {
        hudi_free(s);
        return rc;
    }
    s->slices = hudi_fs_view_latest_slices(s->v, &s->n);
    *out = s;
    return 0;
}

const char *hudi_file_slices_as_of(const hudi_file_slices *v) {
    return v ? hudi_fs_view_as_of(v->v) : "";
}

int32_t hudi_file_slices_count(const hudi_file_slices *v) { return v ? (int32_t)v->n : 0; }

int hudi_file_slices_get(const hudi_file_slices *v, int32_t i, hudi_file_slice_info *out) {
    if (!v || !out || i < 0 || (size_t)i >= v->n) return HUDI_EINVAL;
    const hudi_file_slice *s = &v->slices[i];
    out->partition_path = s->partition_path;
    out->file_id = s->file_id;
    out->base_instant = s->base_instant ? s->base_instant : "";
    out->base_file = s->base ? s->base->name : NULL;
    out->base_file_bytes = s->base ? s->base->size_bytes : -1;
    out->n_log_files = (int32_t)s->logs_count;
    return 0;
}

int hudi_file_slice_log(const hudi_file_slices *v, int32_t i, int32_t k, const char **name,
                        int64_t *size_bytes) {
    if (!v || i < 0 || (size_t)i >= v->n || k < 0 || (size_t)k >= v->slices[i].logs_count)
        return HUDI_EINVAL;
    if (name) *name = v->slices[i].logs[k].name;
    if (size_bytes) *size_bytes = v->slices[i].logs[k].size_bytes;
    return 0;
}

void hudi_file_slices_free(hudi_file_slices *v) {
    if (!v) return;
    hudi_fs_view_free(v->v);
    hudi_free(v);
}
