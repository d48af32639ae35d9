/* create.c - creating a copy-on-write table (docs/formats/file-names.md §1,
 * properties.md §2 and §6, keys.md §7): the
 * folder set Spark SQL's CREATE TABLE leaves, and hoodie.properties with the keys a 0.14/0.15
 * writer stores for table version 6, timeline layout 1, no metadata table, in the order they
 * appear in Spark-written tables. No instant is written. */
#include <stdio.h>

#include "write/write_int.h"

static const char *const dirs[] = {".hoodie/.aux/.bootstrap/.partitions",
                                   ".hoodie/.aux/.bootstrap/.fileids", ".hoodie/.schema",
                                   ".hoodie/.temp", ".hoodie/archived"};

/* keys.md §7: the key generator Spark SQL infers; without key fields (generated keys,
 * keys.md §9) from the partition fields alone. */
static const char *infer_keygen(const char *keys, const char *parts) {
    if (!parts || !*parts) return "org.apache.hudi.keygen.NonpartitionedKeyGenerator";
    if (strchr(parts, ':')) return "org.apache.hudi.keygen.CustomKeyGenerator";
    if (!strchr(parts, ',') && (!keys || !strchr(keys, ',')))
        return "org.apache.hudi.keygen.SimpleKeyGenerator";
    return "org.apache.hudi.keygen.ComplexKeyGenerator";
}

static int build_props(hudi_props *p, const hudi_create_options *o, const char *schema_json,
                       hudi_error *err) {
    const char *parts = o->partition_fields && *o->partition_fields ? o->partition_fields : NULL;
    const char *keys = o->record_key_fields && *o->record_key_fields ? o->record_key_fields : NULL;
    const char *kg = o->keygen_class ? o->keygen_class : infer_keygen(keys, parts);
    struct {
        const char *k, *v;
    } kv[] = {
        {"hoodie.table.precombine.field", o->precombine_field},
        {"hoodie.datasource.write.drop.partition.columns", "false"},
        {"hoodie.table.partition.fields", parts},
        {"hoodie.table.type", o->type == HUDI_MERGE_ON_READ ? "MERGE_ON_READ" : "COPY_ON_WRITE"},
        {"hoodie.archivelog.folder", "archived"},
        {"hoodie.populate.meta.fields", o->populate_meta_fields ? NULL : "false"},
        {"hoodie.timeline.layout.version", "1"},
        {"hoodie.table.version", "6"},
        {"hoodie.table.recordkey.fields", keys}, /* absent: generated keys (keys.md §9) */
        {"hoodie.datasource.write.partitionpath.urlencode",
         o->url_encode_partitions ? "true" : "false"},
        {"hoodie.table.name", o->table_name},
        {"hoodie.table.keygenerator.class", kg},
        {"hoodie.datasource.write.hive_style_partitioning",
         o->hive_style_partitioning ? "true" : "false"},
        {"hoodie.table.create.schema", schema_json},
        /* merge-on-read readers (Spark's log scanner) need the payload class: Spark's
         * datasource default, as its MOR tables carry it (properties.md) */
        {"hoodie.compaction.payload.class",
         o->type == HUDI_MERGE_ON_READ
             ? "org.apache.hudi.common.model.OverwriteWithLatestAvroPayload"
             : NULL},
    };
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < HUDI_ARRAY_LEN(kv); i++)
        if (kv[i].v) rc = hudi_props_set(p, kv[i].k, kv[i].v, err);
    for (size_t i = 0; rc == 0 && o->extra_props && o->extra_props[i]; i += 2) {
        if (!o->extra_props[i + 1])
            return hudi_error_set(err, HUDI_EINVAL, "extra property %s has no value",
                                  o->extra_props[i]);
        rc = hudi_props_set(p, o->extra_props[i], o->extra_props[i + 1], err);
    }
    return rc;
}

static int check_options(const hudi_create_options *o, const char *base_path, hudi_error *err) {
    if (!o || !o->table_name || !*o->table_name)
        return hudi_error_set(err, HUDI_EINVAL, "%s: a table name is required", base_path);
    if ((!o->record_key_fields || !*o->record_key_fields) && !o->populate_meta_fields)
        return hudi_error_set(err, HUDI_EINVAL,
                              "%s: a table without record key fields needs its meta fields "
                              "(populate_meta_fields)",
                              base_path);
    if (!o->schema || o->schema->type != HUDI_TYPE_STRUCT)
        return hudi_error_set(err, HUDI_EINVAL, "%s: a STRUCT schema is required", base_path);
    for (const char *s = o->table_name; *s; s++)
        if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return hudi_error_set(err, HUDI_EINVAL, "%s: table name '%s' is not a valid Avro name",
                                  base_path, o->table_name);
    return 0;
}

int hudi_tbl_create(hudi_table **out, hudi_fs *fs, const char *base_path,
                    const hudi_create_options *opts, hudi_error *err) {
    hudi_props props = HUDI_PROPS_INIT;
    hudi_field schema = {0};
    hudi_buf json = HUDI_BUF_INIT, path = HUDI_BUF_INIT, full = HUDI_BUF_INIT;
    hudi_fs *own = NULL;
    *out = NULL;
    int rc = check_options(opts, base_path, err);
    if (rc < 0) return rc;
    if (!fs) {
        if ((rc = hudi_fs_local_new(&own, err)) < 0) return rc;
        fs = own;
    }
    hudi_buf_printf(&path, "%s/.hoodie/hoodie.properties", base_path);
    if (hudi_buf_failed(&path)) goto oom;
    if (hudi_fs_exists(fs, path.data)) {
        rc = hudi_error_set(err, HUDI_EEXISTS, "%s: a Hudi table exists there already", base_path);
        goto done;
    }
    /* hoodie.table.create.schema: the data columns, Spark style [T,"null"] (avro-schema.md §5). */
    if ((rc = hudi_schema_remove_meta_fields(&schema, opts->schema, err)) < 0) goto done;
    hudi_schema_record_fullname(&full, opts->table_name);
    if (hudi_buf_failed(&full)) goto oom;
    hudi_free(schema.name);
    if (!(schema.name = hudi_strdup(full.data))) goto oom;
    if ((rc = hudi_schema_write_avro(&json, &schema, HUDI_AVRO_STYLE_SPARK, err)) < 0) goto done;
    if ((rc = build_props(&props, opts, json.data, err)) < 0) goto done;
    for (size_t i = 0; i < HUDI_ARRAY_LEN(dirs); i++) {
        hudi_buf_clear(&path);
        hudi_buf_printf(&path, "%s/%s", base_path, dirs[i]);
        if (hudi_buf_failed(&path)) goto oom;
        if ((rc = hudi_fs_mkdirs(fs, path.data, err)) < 0) goto done;
    }
    if ((rc = hudi_props_store(&props, fs, base_path, NULL, err)) < 0) goto done;
    rc = hudi_tbl_open(out, own ? NULL : fs, base_path, err);
    goto done;
oom:
    rc = hudi_error_oom(err);
done:
    hudi_fs_free(own);
    hudi_props_dispose(&props);
    hudi_field_dispose(&schema);
    hudi_buf_dispose(&json);
    hudi_buf_dispose(&path);
    hudi_buf_dispose(&full);
    return rc;
}
