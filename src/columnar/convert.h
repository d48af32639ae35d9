/* convert.h - converting column values from the type a file stored to the type the table now
 * has: the conversions of schema evolution (docs/formats/schema-evolution.md §5), with the
 * semantics Hudi's own read paths give them.
 *
 *   int8/16/32 -> int64, float, double; int64 -> float, double; float -> double (through the
 *     float's shortest decimal text, so 1.1f reads 1.1);
 *   int*, float, double, decimal, date, string-like -> string: Java's text (Integer/Long
 *     toString; Float/Double.toString: shortest round-trip digits, ".0" for integral values,
 *     scientific "1.0E10" at or above 1e7 and below 1e-3, NaN, Infinity; BigDecimal.toString
 *     for decimals, "0E-10" included; dates yyyy-MM-dd);
 *   binary -> string (UTF-8; invalid sequences replaced by U+FFFD), string -> binary (bytes);
 *   int*, float, double, string -> decimal(p, s): the value's decimal text rounded HALF_UP to
 *     scale s (strings trimmed); decimal(p1, s1) -> decimal(p2, s2) rescaled HALF_UP;
 *   string -> date: yyyy-[m]m-[d]d only.
 * Nulls stay null. A value that does not fit (decimal precision overflow, an unparsable string
 * for a decimal or date) fails with EINVAL naming the column and the value; with `lenient` it
 * becomes null instead. Only primitives: nested values are converted field by field by the
 * caller (schema/project.h). */
#ifndef HUDI_COLUMNAR_CONVERT_H
#define HUDI_COLUMNAR_CONVERT_H

#include "columnar/columnar.h"

/* Whether two primitive fields have the same type, parameters included (decimal precision and
 * scale, time unit and UTC-ness, fixed width); names and nullability aside. */
bool hudi_type_same(const hudi_field *a, const hudi_field *b);

/* Whether values of `from` convert to `to` by the rules above (same type: true). */
bool hudi_type_can_convert(const hudi_field *from, const hudi_field *to);

/* A new array of type `to` (borrowed field) holding the converted values of `a`. `column` names
 * the column in errors. EINVAL for a pair hudi_type_can_convert refuses. */
int hudi_array_convert(hudi_array **out, const hudi_array *a, const hudi_field *to, bool lenient,
                       const char *column, hudi_error *err);

/* Java's Double.toString / Float.toString of v (appended). */
void hudi_java_double_text(hudi_buf *out, double v);
void hudi_java_float_text(hudi_buf *out, float v);

#endif
