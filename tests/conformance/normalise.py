"""normalise.py - turns Arrow data (from pyarrow or DuckDB) into the JSON values hudic's
`parquet cat` prints (docs/formats/rendering.md), so the three readers can be compared
value by value.

Only the *rendering* is normalised: decimals become strings with exactly `scale` fraction
digits, dates/times/timestamps ISO strings built from the integer value (so years past 9999
and the INT96 overflow value work), binary base64, UUID canonical text, maps arrays of
{"key", "value"} objects, non-finite floats the strings "NaN"/"Infinity"/"-Infinity".
Floats stay floats and are compared as floats of the column's width.
"""
import base64
import math
import struct

import pyarrow as pa
import pyarrow.compute as pc

_PER_SECOND = {"s": 1, "ms": 1000, "us": 1000000, "ns": 1000000000}
_NATURAL_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}


def civil_from_days(z):
    """Days since 1970-01-01 -> (year, month, day), proleptic Gregorian (Hinnant)."""
    z += 719468
    era = z // 146097  # Python's // floors already (Hinnant's C form emulates floor with /)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, d


def fmt_date(days):
    y, m, d = civil_from_days(days)
    if 0 <= y <= 9999:
        ys = "%04d" % y
    else:
        ys = ("-" if y < 0 else "+") + "%06d" % abs(y)
    return "%s-%02d-%02d" % (ys, m, d)


def _clock(v, unit, frac_digits=None):
    ps = _PER_SECOND[unit]
    secs, frac = divmod(v, ps)
    natural = _NATURAL_DIGITS[unit]
    digits = max(natural, frac_digits or 0)
    frac *= 10 ** (digits - natural)
    h = secs // 3600
    s = "%02d:%02d:%02d" % (h, (secs // 60) % 60, secs % 60)
    return s + ("." + str(frac).zfill(digits) if digits else "")


def fmt_time(v, unit):
    return ("-" + _clock(-v, unit)) if v < 0 else _clock(v, unit)


def fmt_timestamp(v, unit, utc):
    per_day = 86400 * _PER_SECOND[unit]
    days, rem = divmod(v, per_day)
    s = fmt_date(days) + "T" + _clock(rem, unit, 6 if unit == "ms" else None)
    return s + ("Z" if utc else "")


def fmt_decimal(unscaled, scale):
    neg = unscaled < 0
    digits = str(abs(unscaled))
    if scale <= 0:
        s = digits + ("0" * -scale if unscaled != 0 else "")
    elif len(digits) > scale:
        s = digits[:-scale] + "." + digits[-scale:]
    else:
        s = "0." + digits.zfill(scale)
    return ("-" if neg else "") + s


def fmt_float(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return float(x)


def f32(x):
    """A double rounded to the nearest float32 (as a Python float)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def canon_array(arr, utc_override=False, all_utc=False):
    """pa.Array -> list of JSON-able values in hudic's rendering. `utc_override` renders a
    zone-less timestamp array as UTC; `all_utc` does so at any depth."""
    utc_override = utc_override or all_utc
    if isinstance(arr, pa.ChunkedArray):
        out = []
        for chunk in arr.chunks:
            out.extend(canon_array(chunk, utc_override, all_utc))
        return out
    t = arr.type
    valid = arr.is_valid().to_pylist() if arr.null_count else [True] * len(arr)

    def masked(values):
        return [v if ok else None for v, ok in zip(values, valid)]

    # BaseExtensionType: pyarrow's built-in extensions (arrow.uuid) are not pa.ExtensionType
    if isinstance(t, pa.BaseExtensionType):
        if t.extension_name == "arrow.uuid":
            return masked([_uuid(b) if b is not None else None for b in arr.storage.to_pylist()])
        return canon_array(arr.storage, utc_override, all_utc)
    if pa.types.is_dictionary(t):
        return canon_array(arr.dictionary_decode(), utc_override, all_utc)
    if pa.types.is_null(t):
        return [None] * len(arr)
    if pa.types.is_boolean(t) or pa.types.is_integer(t):
        return arr.to_pylist()
    if pa.types.is_float16(t):
        vals = arr.cast(pa.float32()).to_pylist()
        return [fmt_float(v) if v is not None else None for v in vals]
    if pa.types.is_floating(t):
        return [fmt_float(v) if v is not None else None for v in arr.to_pylist()]
    if pa.types.is_decimal(t):
        return [fmt_decimal(_unscaled(v, t.scale), t.scale) if v is not None else None
                for v in arr.to_pylist()]
    if pa.types.is_date32(t):
        return masked([fmt_date(v) for v in arr.cast(pa.int32()).fill_null(0).to_pylist()])
    if pa.types.is_date64(t):
        return masked([fmt_date(v // 86400000)
                       for v in arr.cast(pa.int64()).fill_null(0).to_pylist()])
    if pa.types.is_time(t):
        ints = arr.cast(pa.int64() if pa.types.is_time64(t) else pa.int32())
        return masked([fmt_time(v, t.unit) for v in ints.fill_null(0).to_pylist()])
    if pa.types.is_timestamp(t):
        ints = arr.cast(pa.int64()).fill_null(0).to_pylist()
        utc = t.tz is not None or utc_override
        return masked([fmt_timestamp(v, t.unit, utc) for v in ints])
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return arr.to_pylist()
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return [base64.b64encode(v).decode() if v is not None else None
                for v in arr.to_pylist()]
    if pa.types.is_struct(t):
        children = [canon_array(arr.field(i), False, all_utc) for i in range(t.num_fields)]
        names = [t.field(i).name for i in range(t.num_fields)]
        rows = []
        for r in range(len(arr)):
            rows.append({n: c[r] for n, c in zip(names, children)} if valid[r] else None)
        return rows
    if pa.types.is_map(t):
        keys = canon_array(arr.keys, False, all_utc)
        items = canon_array(arr.items, False, all_utc)
        offsets = arr.offsets.to_pylist()
        return masked([[{"key": keys[k], "value": items[k]}
                        for k in range(offsets[r], offsets[r + 1])]
                       for r in range(len(arr))])
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        if pa.types.is_fixed_size_list(t):
            flat = canon_array(arr.values, False, all_utc)
            n = t.list_size
            return masked([flat[(arr.offset + r) * n:(arr.offset + r + 1) * n]
                           for r in range(len(arr))])
        flat = canon_array(arr.values, False, all_utc)
        offsets = arr.offsets.to_pylist()
        return masked([flat[offsets[r]:offsets[r + 1]] for r in range(len(arr))])
    raise TypeError("normalise: no rule for Arrow type %s" % t)


def _unscaled(v, scale):
    """decimal.Decimal -> its unscaled integer at `scale`, exactly. (Decimal.scaleb rounds to the
    context's 28 digits, which loses the low digits of DECIMAL(29..38) values.)"""
    sign, digits, exp = v.as_tuple()
    n = int("".join(map(str, digits)) or "0")
    shift = exp + scale
    n = n * 10 ** shift if shift >= 0 else n // 10 ** -shift
    return -n if sign else n


def _uuid(b):
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def canon_table(table, utc_columns=(), all_utc=False):
    """pa.Table -> list of row dicts (keys in schema order)."""
    cols = [canon_array(table.column(i), table.schema.field(i).name in utc_columns, all_utc)
            for i in range(table.num_columns)]
    names = table.schema.names
    return [dict(zip(names, (c[r] for c in cols))) for r in range(table.num_rows)]


def float_shape(t):
    """The Arrow type as a nested description of where float32/float64 values sit, used to
    compare hudic's JSON numbers as floats of the right width."""
    if isinstance(t, pa.BaseExtensionType):
        return float_shape(t.storage_type)
    if pa.types.is_float16(t) or pa.types.is_float32(t):
        return "f32"
    if pa.types.is_float64(t):
        return "f64"
    if pa.types.is_struct(t):
        return {t.field(i).name: float_shape(t.field(i).type) for i in range(t.num_fields)}
    if pa.types.is_map(t):
        return ("map", float_shape(t.key_type), float_shape(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return ("list", float_shape(t.value_type))
    return None


def round_floats(v, shape):
    """Applies float_shape: numbers at float positions become floats of that width."""
    if v is None or shape is None:
        return v
    if shape in ("f32", "f64"):
        if isinstance(v, str):
            return v
        return f32(float(v)) if shape == "f32" else float(v)
    if isinstance(shape, dict):
        return {k: round_floats(x, shape.get(k)) for k, x in v.items()}
    if shape[0] == "list":
        return [round_floats(x, shape[1]) for x in v]
    if shape[0] == "map":
        return [{"key": round_floats(e["key"], shape[1]),
                 "value": round_floats(e["value"], shape[2])} for e in v]
    return v


def round_rows(rows, schema):
    shapes = {f.name: float_shape(f.type) for f in schema}
    return [{k: round_floats(v, shapes.get(k)) for k, v in r.items()} for r in rows]


def first_difference(a, b, path="row"):
    """None when a == b with identical key order everywhere; else a description."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a.keys()) != list(b.keys()):
            return "%s: keys %s != %s" % (path, list(a.keys()), list(b.keys()))
        for k in a:
            d = first_difference(a[k], b[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return "%s: %d items != %d items" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(a, bool) != isinstance(b, bool):
        return "%s: %r != %r" % (path, a, b)
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and float(a) == float(b):
            return None
        return "%s: %r != %r" % (path, a, b)
    if a != b or type(a) is not type(b):
        return "%s: %r != %r" % (path, a, b)
    return None
