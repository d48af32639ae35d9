/* file_name_test.c - base and log file names (docs/formats/file-names.md §4-6), write tokens, file
 * ids. */
#include <criterion/criterion.h>
#include <string.h>

#include "table/table.h"

static bool slice_is(hudi_slice s, const char *want) {
    return s.len == strlen(want) && memcmp(s.data, want, s.len) == 0;
}

Test(file_name, parses_base_file_names) {
    hudi_base_file_name b;
    cr_assert(hudi_base_file_name_parse(
        &b, "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0_1-98-142_20240418172802262.parquet"));
    cr_assert(slice_is(b.file_id, "97de74b1-2a8e-4bb7-874c-0a74e1f42a77-0"));
    cr_assert(slice_is(b.write_token, "1-98-142"));
    cr_assert(slice_is(b.instant, "20240418172802262"));
    cr_assert(slice_is(b.ext, "parquet"));
    cr_assert_eq(b.format, HUDI_BASE_FORMAT_PARQUET);

    cr_assert(hudi_base_file_name_parse(&b, "files-0000-0_0-6-5_00000000000000010.hfile"));
    cr_assert_eq(b.format, HUDI_BASE_FORMAT_HFILE);
    cr_assert(hudi_base_file_name_parse(&b, "abc-0_0-1-2_20250101000000000.lance"));
    cr_assert_eq(b.format, HUDI_BASE_FORMAT_LANCE);
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_base_format_require_parquet(b.format, "p/abc.lance", &err),
                 HUDI_EUNSUPPORTED);
    cr_assert(strstr(err.message, "unsupported base file format 'lance'"), "%s", err.message);
    cr_assert(hudi_base_file_name_parse(&b, "abc-0_0-1-2_1.orc"));
    cr_assert_eq(b.format, HUDI_BASE_FORMAT_ORC);
    cr_assert(hudi_base_file_name_parse(&b, "abc-0_0-1-2_1.xyz"));
    cr_assert_eq(b.format, HUDI_BASE_FORMAT_OTHER);
}

Test(file_name, rejects_what_hudi_rejects_as_base_files) {
    static const char *const bad[] = {
        ".hoodie_partition_metadata",
        ".hoodie_partition_metadata.parquet",
        ".d0304c53-0_20250331030642808.log.1_0-26-85",
        "a_b_c",             /* no extension */
        "a_b_12x.parquet",   /* instant not digits */
        "a_b_1.parquet.crc", /* two dots */
        "a__1.parquet",      /* empty token */
        "_b_1.parquet",
        "a_b_.parquet",
        "a_b_1.",
        "a_b_c_1.parquet",
        "a.b_c_1.parquet",
        "part-0000.snappy.parquet",
        "",
    };
    hudi_base_file_name b;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        cr_assert(!hudi_base_file_name_parse(&b, bad[i]), "accepted '%s'", bad[i]);
}

Test(file_name, parses_log_file_names) {
    hudi_log_file_name l;
    cr_assert(hudi_log_file_name_parse(
        &l, ".d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_20250331030642808.log.1_0-26-85"));
    cr_assert(slice_is(l.file_id, "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0"));
    cr_assert(slice_is(l.instant, "20250331030642808"));
    cr_assert_eq(l.version, 1);
    cr_assert(slice_is(l.write_token, "0-26-85"));
    cr_assert(!l.is_archive && !l.is_cdc);

    /* archived timeline: file id "commits", empty instant */
    cr_assert(hudi_log_file_name_parse(&l, ".commits_.archive.12_1-0-1"));
    cr_assert(slice_is(l.file_id, "commits"));
    cr_assert_eq(l.instant.len, 0);
    cr_assert(l.is_archive);
    cr_assert_eq(l.version, 12);

    /* no write token (very old writers), cdc suffix, junk after the version */
    cr_assert(hudi_log_file_name_parse(&l, ".f-0_123.log.3"));
    cr_assert_eq(l.write_token.len, 0);
    cr_assert(hudi_log_file_name_parse(&l, ".f-0_123.log.3_1-2-3.cdc"));
    cr_assert(l.is_cdc && slice_is(l.write_token, "1-2-3"));
    cr_assert(hudi_log_file_name_parse(&l, ".f-0_123.log.3_x"));
    cr_assert_eq(l.write_token.len, 0);
    cr_assert_eq(l.version, 3);

    /* Hudi's regex is greedy: the file id ends at the last usable '_' */
    cr_assert(hudi_log_file_name_parse(&l, ".a_b_c.log.1_0-1-2"));
    cr_assert(slice_is(l.file_id, "a_b"));
    cr_assert(slice_is(l.instant, "c"));
    cr_assert(hudi_log_file_name_parse(&l, ".a_b.log.1.log.2_0-1-2"));
    cr_assert(slice_is(l.instant, "b.log.1"));
    cr_assert_eq(l.version, 2);
}

Test(file_name, rejects_non_log_names) {
    static const char *const bad[] = {
        "f-0_123.log.1_0-1-2", /* not hidden */
        ".f-0_123.log._0-1-2", /* no version */
        ".f-0_123.txt.1_0-1-2",
        "._123.log.1_0-1-2", /* empty file id */
        ".hoodie_partition_metadata",
        ".f-0_123.log.99999999999999999999999_0-1-2",
        "",
        ".",
    };
    hudi_log_file_name l;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        cr_assert(!hudi_log_file_name_parse(&l, bad[i]), "accepted '%s'", bad[i]);
}

Test(file_name, orders_log_files_like_hudi) {
    const char *names[] = {".f_2.log.1_0-0-1", ".f_1.log.10_0-0-1", ".f_1.log.2_0-0-1",
                           ".f_1.log.2_1-0-1", ".f_1.log.2_0-0-0"};
    hudi_log_file_name l[5];
    for (int i = 0; i < 5; i++) cr_assert(hudi_log_file_name_parse(&l[i], names[i]));
    cr_assert_gt(hudi_log_file_name_cmp(&l[0], &l[1]), 0); /* instant first */
    cr_assert_gt(hudi_log_file_name_cmp(&l[1], &l[2]), 0); /* then numeric version */
    cr_assert_lt(hudi_log_file_name_cmp(&l[2], &l[3]), 0); /* then token */
    cr_assert_gt(hudi_log_file_name_cmp(&l[2], &l[4]), 0);
    cr_assert_eq(hudi_log_file_name_cmp(&l[2], &l[2]), 0);
}

Test(file_name, formats_and_parses_back) {
    hudi_buf b = HUDI_BUF_INIT;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(
        hudi_base_file_name_format(&b, "abc-0", "0-1-2", "20240101000000000", "parquet", &err), 0);
    cr_assert_str_eq(b.data, "abc-0_0-1-2_20240101000000000.parquet");
    hudi_base_file_name bn;
    cr_assert(hudi_base_file_name_parse(&bn, b.data));
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_log_file_name_format(&b, "abc-0", "20240101000000000", 3, "1-0-1", &err), 0);
    cr_assert_str_eq(b.data, ".abc-0_20240101000000000.log.3_1-0-1");
    hudi_log_file_name ln;
    cr_assert(hudi_log_file_name_parse(&ln, b.data));
    cr_assert(slice_is(ln.file_id, "abc-0") && ln.version == 3 &&
              slice_is(ln.write_token, "1-0-1"));
    hudi_buf_clear(&b);
    cr_assert_eq(hudi_base_file_name_format(&b, "a_b", "0-1-2", "1", "parquet", &err), HUDI_EINVAL);
    cr_assert_eq(hudi_base_file_name_format(&b, "a", "0-1-2", "1x", "parquet", &err), HUDI_EINVAL);
    cr_assert_eq(hudi_log_file_name_format(&b, "a", "1", 1, "0-1", &err), HUDI_EINVAL);
    cr_assert_eq(hudi_log_file_name_format(&b, "a", "1", 0, "0-1-2", &err), HUDI_EINVAL);
    cr_assert_eq(b.len, 0);
    hudi_buf_dispose(&b);

    char tok[HUDI_WRITE_TOKEN_MAX];
    hudi_write_token_format(tok, 0, 98, 141);
    cr_assert_str_eq(tok, "0-98-141");
}

Test(file_name, file_ids_are_uuid4_plus_index) {
    char id[HUDI_FILE_ID_MAX];
    const uint8_t zero[16] = {0}, ff[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    hudi_file_id_from_bytes(id, zero, 0);
    cr_assert_str_eq(id, "00000000-0000-4000-8000-000000000000-0");
    hudi_file_id_from_bytes(id, ff, 12);
    cr_assert_str_eq(id, "ffffffff-ffff-4fff-bfff-ffffffffffff-12");
    char a[HUDI_FILE_ID_MAX], b[HUDI_FILE_ID_MAX];
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_file_id_new(a, 0, &err), 0);
    cr_assert_eq(hudi_file_id_new(b, 0, &err), 0);
    cr_assert_str_neq(a, b);
    cr_assert_eq(strlen(a), 38);
    cr_assert_eq(a[14], '4');
    cr_assert(strchr("89ab", a[19]));
    /* a new file id makes a valid base file name */
    hudi_buf n = HUDI_BUF_INIT;
    cr_assert_eq(hudi_base_file_name_format(&n, a, "0-0-0", "1", "parquet", &err), 0);
    hudi_base_file_name bn;
    cr_assert(hudi_base_file_name_parse(&bn, n.data));
    cr_assert(slice_is(bn.file_id, a));
    hudi_buf_dispose(&n);
}
