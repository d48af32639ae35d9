/* main.c - the hudic command line. */
#include <stdio.h>
#include <string.h>

#include "hudi/hudi.h"

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("hudic %s\n", hudi_version_string());
        return 0;
    }
    fprintf(stderr, "usage: hudic parquet {schema|meta|cat} FILE\n");
    return 2;
}
