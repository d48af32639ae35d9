/* bad_export.c - a library with a global symbol outside the hudi_ namespace: the ctest test
 * check_exports_rejects expects scripts/check_exports.sh to name it. */
int hudi_layers_fixture_ok(void);
int not_prefixed_fixture(void);

int hudi_layers_fixture_ok(void) { return 1; }
int not_prefixed_fixture(void) { return 2; }
