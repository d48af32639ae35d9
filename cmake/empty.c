/* empty.c - keeps a layer with no sources yet a valid object library. */
typedef int hudi_empty_translation_unit;
