/* fuzz_instant.c - timeline file names. The first byte picks the layout; the rest is a file
 * name. A name that parses must format back to a name that parses to the same instant, and
 * instant time generation must accept any valid "last" time. */
#include <stdlib.h>
#include <string.h>

#include "table/table.h"

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        if (!(x)) abort();                                                                         \
    } while (0)

static int64_t fixed_now(void *payload) { return *(const int64_t *)payload; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > 256) return 0;
    int layout = (data[0] & 1) + 1;
    char name[257];
    memcpy(name, data + 1, size - 1);
    name[size - 1] = 0;
    hudi_instant in, again;
    if (hudi_instant_parse(&in, name, layout, NULL) == 0) {
        CHECK(strcmp(in.file, name) == 0);
        hudi_instant f = in;
        CHECK(hudi_instant_format(&f, layout, NULL) == 0);
        CHECK(hudi_instant_parse(&again, f.file, layout, NULL) == 0);
        CHECK(strcmp(again.time, in.time) == 0 && again.action == in.action &&
              again.state == in.state && strcmp(again.completion, in.completion) == 0);
        CHECK(hudi_instant_cmp(&in, &again) == 0);
    }
    if (hudi_instant_time_valid(name, strlen(name))) {
        int64_t now = 1713479258493LL;
        hudi_clock clock = {fixed_now, &now};
        char t[HUDI_INSTANT_TIME_MAX];
        if (hudi_instant_time_new(t, &clock, true, name, NULL) == 0) {
            CHECK(strlen(t) == 17);
            CHECK(strcmp(t, name) > 0);
        }
    }
    return 0;
}
