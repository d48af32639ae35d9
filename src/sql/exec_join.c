/* exec_join.c - joins: a hash join on equality keys with an optional residual condition, and a
 * nested loop over the built side for CROSS and non-equi joins (docs/ARCHITECTURE.md, "SQL
 * engine: operators").
 *
 * The right input is built: read whole into one batch, its keys evaluated once and put in a
 * group table (exec_int.h) whose groups chain their rows in input order. Left batches stream
 * through: each row's key finds its group, every (left, right) candidate pair is checked against
 * the residual condition over a batch of both sides' columns, and the pairs that pass make the
 * output (INNER, LEFT, RIGHT, FULL), or decide whether the left row is kept (SEMI: some pair
 * passes; ANTI: none does, NOT EXISTS semantics). A null key never matches; left rows of LEFT,
 * FULL and ANTI joins and right rows of RIGHT and FULL joins without a match come out with
 * nulls for the other side (unmatched right rows after the last left batch). Output columns:
 * the left's then the right's (SEMI and ANTI: the left's only). */
#include "sql/exec_int.h"

typedef struct join_op {
    hudi_sql_oper base;
    hudi_sql_oper *left, *right;
    hudi_sql_join_kind kind;
    bool built;
    /* the built side */
    hudi_batch *build;
    int64_t build_charged;
    hudi_sql_groups table;
    int64_t *head, *next; /* per group: first row; per build row: next row of its group */
    uint8_t *matched;     /* per build row (RIGHT, FULL) */
    int64_t chain_charged;
    /* the probe side */
    hudi_batch *probe; /* the left batch being joined (the left operator's) */
    int64_t probe_pos; /* next left row to join */
    int64_t *probe_ids;
    int64_t cap_probe;
    bool left_done;
    int64_t unmatched_pos; /* RIGHT, FULL: next build row to check after the left side */
    /* pairs of the current chunk */
    int64_t *pl, *pr; /* candidate pairs */
    int64_t n_pairs, cap_pairs;
    uint8_t *pass;
    int64_t *ol, *or_; /* output pairs (-1 = nulls) */
    int64_t n_out, cap_out;
    hudi_field both;      /* left columns then right columns: what cond sees */
    hudi_batch *cand;     /* candidate pairs' rows over `both` */
    hudi_batch *out;      /* over the plan's schema */
    hudi_batch *view;     /* over the plan's schema: the probe batch's own left columns */
    hudi_batch *result;   /* what the last chunk made: out or view */
    bool unique;          /* every build key has one row (a dimension table's key) */
    hudi_batch *left_out; /* SEMI/ANTI output: left rows */
} join_op;

static int64_t step_rows(const join_op *j) {
    return j->base.ctx->batch_rows > 0 ? j->base.ctx->batch_rows : 8192;
}

static int push_pair(int64_t **a, int64_t **b, int64_t *n, int64_t *cap, int64_t x, int64_t y) {
    if (*n == *cap) {
        int64_t c = *cap ? *cap * 2 : 1024;
        int64_t *na = hudi_realloc(*a, (size_t)c * 8);
        if (!na) return -1;
        *a = na;
        int64_t *nb = hudi_realloc(*b, (size_t)c * 8);
        if (!nb) return -1;
        *b = nb;
        *cap = c;
    }
    (*a)[*n] = x;
    (*b)[*n] = y;
    (*n)++;
    return 0;
}

static bool has_equi(const join_op *j) { return j->base.plan->n_keys > 0; }

/* Reads the right side and indexes it by key. */
static int build(join_op *j, hudi_error *err) {
    const hudi_sql_plan *p = j->base.plan;
    hudi_sql_ctx *ctx = j->base.ctx;
    int rc = hudi_sql_oper_drain(j->right, &p->right->schema, &j->build, &j->build_charged, err);
    if (rc < 0) return rc;
    int64_t n = j->build->num_rows;
    if (j->kind == HUDI_SQL_J_RIGHT || j->kind == HUDI_SQL_J_FULL) {
        if ((rc = hudi_sql_mem_charge(ctx, n, err)) < 0) return rc;
        j->chain_charged += n;
        if (!(j->matched = hudi_calloc((size_t)n + 1, 1))) return hudi_error_oom(err);
    }
    if (!has_equi(j)) return 0;
    int32_t nk = p->n_keys;
    hudi_sql_datum *keys = hudi_calloc((size_t)nk, sizeof(*keys));
    uint8_t *skip = hudi_calloc((size_t)n + 1, 1);
    int64_t *ids = hudi_malloc(((size_t)n + 1) * 8);
    int32_t done = 0;
    if (!keys || !skip || !ids) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (; done < nk; done++)
        if ((rc = hudi_sql_eval(ctx, p->right_keys[done], j->build, &keys[done], err)) < 0)
            goto done;
    /* Null keys never match: those rows stay out of the table. */
    for (int32_t k = 0; k < nk; k++)
        for (int64_t i = 0; i < n; i++)
            if (!hudi_array_is_valid(keys[k].array, hudi_sql_datum_row(&keys[k], i))) skip[i] = 1;
    if ((rc = hudi_sql_groups_add(ctx, &j->table, keys, n, skip, ids, NULL, err)) < 0) goto done;
    int64_t ng = j->table.n_groups;
    if ((rc = hudi_sql_mem_charge(ctx, 8 * (ng + 2 * n), err)) < 0) goto done;
    j->chain_charged += 8 * (ng + 2 * n);
    int64_t *tail = hudi_malloc(((size_t)ng + 1) * 8);
    j->head = hudi_malloc(((size_t)ng + 1) * 8);
    j->next = hudi_malloc(((size_t)n + 1) * 8);
    if (!tail || !j->head || !j->next) {
        hudi_free(tail);
        rc = hudi_error_oom(err);
        goto done;
    }
    for (int64_t g = 0; g < ng; g++) j->head[g] = -1;
    for (int64_t i = 0; i < n; i++) {
        j->next[i] = -1;
        int64_t g = ids[i];
        if (g < 0) continue;
        if (j->head[g] < 0)
            j->head[g] = i;
        else
            j->next[tail[g]] = i;
        tail[g] = i;
    }
    hudi_free(tail);
    j->unique = true;
    for (int64_t i = 0; i < n && j->unique; i++) j->unique = ids[i] < 0 || j->next[i] < 0;
done:
    for (int32_t k = 0; k < done; k++) hudi_sql_datum_dispose(&keys[k]);
    hudi_free(keys);
    hudi_free(skip);
    hudi_free(ids);
    return rc;
}

/* Finds the group of every row of the new probe batch (-1: no match or a null key). */
static int probe_batch(join_op *j, hudi_error *err) {
    const hudi_sql_plan *p = j->base.plan;
    int64_t n = j->probe->num_rows;
    if (n > j->cap_probe) {
        int64_t *ids = hudi_realloc(j->probe_ids, (size_t)n * 8);
        if (!ids) return hudi_error_oom(err);
        j->probe_ids = ids;
        j->cap_probe = n;
    }
    if (!has_equi(j)) return 0;
    int32_t nk = p->n_keys, done = 0;
    hudi_sql_datum *keys = hudi_calloc((size_t)nk, sizeof(*keys));
    uint8_t *skip = hudi_calloc((size_t)n, 1);
    int rc = 0;
    if (!keys || !skip) {
        rc = hudi_error_oom(err);
        goto done;
    }
    for (; done < nk; done++)
        if ((rc = hudi_sql_eval(j->base.ctx, p->left_keys[done], j->probe, &keys[done], err)) < 0)
            goto done;
    for (int32_t k = 0; k < nk; k++)
        for (int64_t i = 0; i < n; i++)
            if (!hudi_array_is_valid(keys[k].array, hudi_sql_datum_row(&keys[k], i))) skip[i] = 1;
    rc = hudi_sql_groups_find(&j->table, keys, n, skip, j->probe_ids, err);
done:
    for (int32_t k = 0; k < done; k++) hudi_sql_datum_dispose(&keys[k]);
    hudi_free(keys);
    hudi_free(skip);
    return rc;
}

/* The candidate pairs of left rows [from, to) into pl/pr. */
static int gather_pairs(join_op *j, int64_t from, int64_t to) {
    j->n_pairs = 0;
    for (int64_t i = from; i < to; i++) {
        if (has_equi(j)) {
            int64_t g = j->probe_ids[i];
            for (int64_t r = g >= 0 ? j->head[g] : -1; r >= 0; r = j->next[r])
                if (push_pair(&j->pl, &j->pr, &j->n_pairs, &j->cap_pairs, i, r) < 0) return -1;
        } else {
            for (int64_t r = 0; r < j->build->num_rows; r++)
                if (push_pair(&j->pl, &j->pr, &j->n_pairs, &j->cap_pairs, i, r) < 0) return -1;
        }
    }
    return 0;
}

/* pass[k] for every candidate pair: the residual condition over both sides' columns. */
static int check_pairs(join_op *j, hudi_error *err) {
    int64_t n = j->n_pairs;
    uint8_t *pass = hudi_realloc(j->pass, (size_t)n + 1);
    if (!pass) return hudi_error_oom(err);
    j->pass = pass;
    if (!j->base.plan->cond) {
        memset(pass, 1, (size_t)n);
        return 0;
    }
    hudi_batch_clear(j->cand);
    int32_t nl = j->probe->n_columns, c;
    int rc = 0;
    for (c = 0; c < nl && rc == 0; c++)
        rc = hudi_sql_array_take(j->cand->columns[c], j->probe->columns[c], j->pl, n, err);
    for (int32_t r = 0; r < j->build->n_columns && rc == 0; r++)
        rc = hudi_sql_array_take(j->cand->columns[nl + r], j->build->columns[r], j->pr, n, err);
    if (rc < 0) return rc;
    j->cand->num_rows = n;
    int64_t k = hudi_sql_eval_select(j->base.ctx, j->base.plan->cond, j->cand, pass, err);
    return k < 0 ? (int)k : 0;
}

/* The output pairs ol/or_ into a batch; `ascending`: ol has no repeats (then n_out equal to l's
 * rows means every row of l in order). */
static int emit(join_op *j, const hudi_batch *l, const hudi_batch *r, bool ascending,
                hudi_error *err) {
    int rc = 0;
    hudi_batch_clear(j->out);
    j->result = j->out;
    int32_t nl = l->n_columns;
    /* Every row of l in order (a key join where each left row found its one match): its
     * columns go out as they are, without a copy. */
    bool whole = ascending && j->n_out == l->num_rows && j->n_out > 0;
    for (int32_t c = 0; c < nl && rc == 0; c++)
        if (!whole)
            rc = hudi_sql_array_take(j->out->columns[c], l->columns[c], j->ol, j->n_out, err);
    for (int32_t c = 0; c < r->n_columns && rc == 0; c++)
        rc = hudi_sql_array_take(j->out->columns[nl + c], r->columns[c], j->or_, j->n_out, err);
    j->out->num_rows = j->n_out;
    if (rc == 0 && whole) {
        for (int32_t c = 0; c < nl; c++) j->view->columns[c] = l->columns[c];
        for (int32_t c = 0; c < r->n_columns; c++)
            j->view->columns[nl + c] = j->out->columns[nl + c];
        j->view->num_rows = j->n_out;
        j->result = j->view;
    }
    return rc;
}

/* INNER and LEFT joins without a residual condition on a build side of unique keys: one pair
 * (or none) per left row, listed in one pass over a batch of left rows. */
static int join_unique(join_op *j, hudi_error *err) {
    int64_t from = j->probe_pos, n = j->probe->num_rows;
    int64_t to = HUDI_MIN(n, from + step_rows(j));
    if (to - from > j->cap_out) {
        int64_t *ol = hudi_realloc(j->ol, (size_t)(to - from) * 8);
        if (ol) j->ol = ol;
        int64_t *or_ = hudi_realloc(j->or_, (size_t)(to - from) * 8);
        if (or_) j->or_ = or_;
        if (!ol || !or_) return hudi_error_oom(err);
        j->cap_out = to - from;
    }
    bool left = j->kind == HUDI_SQL_J_LEFT;
    int64_t k = 0;
    const int64_t *ids = j->probe_ids, *head = j->head;
    for (int64_t i = from; i < to; i++) {
        int64_t g = ids[i];
        if (g >= 0) {
            j->ol[k] = i;
            j->or_[k++] = head[g];
        } else if (left) {
            j->ol[k] = i;
            j->or_[k++] = -1;
        }
    }
    j->n_out = k;
    j->probe_pos = to;
    return emit(j, j->probe, j->build, true, err);
}

/* Joins the next rows of the probe batch: whole left rows until about a batch of pairs. */
static int join_chunk(join_op *j, hudi_error *err) {
    int64_t from = j->probe_pos, to = from, pairs = 0, n = j->probe->num_rows;
    int64_t step = step_rows(j);
    if ((j->kind == HUDI_SQL_J_SEMI || j->kind == HUDI_SQL_J_ANTI) && has_equi(j) &&
        !j->base.plan->cond) {
        /* Only whether a key matches counts: no pairs (the right side may repeat keys a lot). */
        bool semi = j->kind == HUDI_SQL_J_SEMI;
        j->n_out = 0;
        for (int64_t i = from; i < n; i++)
            if ((j->probe_ids[i] >= 0) == semi &&
                push_pair(&j->ol, &j->or_, &j->n_out, &j->cap_out, i, -1) < 0)
                return hudi_error_oom(err);
        j->probe_pos = n;
        hudi_batch_clear(j->out);
        j->result = j->out;
        return hudi_sql_batch_take(j->out, j->probe, j->ol, j->n_out, err);
    }
    if ((j->kind == HUDI_SQL_J_INNER || j->kind == HUDI_SQL_J_LEFT) && has_equi(j) && j->unique &&
        !j->base.plan->cond)
        return join_unique(j, err);
    /* Pick left rows until their candidate pairs fill a batch. */
    while (to < n && (to == from || pairs < step)) {
        if (has_equi(j)) {
            int64_t g = j->probe_ids[to];
            for (int64_t r = g >= 0 ? j->head[g] : -1; r >= 0; r = j->next[r]) pairs++;
        } else {
            pairs += j->build->num_rows;
        }
        to++;
    }
    j->probe_pos = to;
    if (gather_pairs(j, from, to) < 0) return hudi_error_oom(err);
    int rc;
    if ((rc = check_pairs(j, err)) < 0) return rc;
    j->n_out = 0;
    int64_t k = 0;
    bool keep_left = j->kind == HUDI_SQL_J_LEFT || j->kind == HUDI_SQL_J_FULL;
    for (int64_t i = from; i < to; i++) {
        bool any = false;
        for (; k < j->n_pairs && j->pl[k] == i; k++) {
            if (!j->pass[k]) continue;
            any = true;
            if (j->matched) j->matched[j->pr[k]] = 1;
            if (j->kind == HUDI_SQL_J_SEMI || j->kind == HUDI_SQL_J_ANTI) continue;
            if (push_pair(&j->ol, &j->or_, &j->n_out, &j->cap_out, i, j->pr[k]) < 0)
                return hudi_error_oom(err);
        }
        bool alone = (keep_left && !any) || (j->kind == HUDI_SQL_J_SEMI && any) ||
                     (j->kind == HUDI_SQL_J_ANTI && !any);
        if (alone && push_pair(&j->ol, &j->or_, &j->n_out, &j->cap_out, i, -1) < 0)
            return hudi_error_oom(err);
    }
    if (j->kind == HUDI_SQL_J_SEMI || j->kind == HUDI_SQL_J_ANTI) {
        hudi_batch_clear(j->out);
        j->result = j->out;
        return hudi_sql_batch_take(j->out, j->probe, j->ol, j->n_out, err);
    }
    return emit(j, j->probe, j->build, false, err);
}

/* RIGHT and FULL: build rows no left row matched, with nulls on the left. */
static int emit_unmatched(join_op *j, hudi_error *err) {
    int64_t n = j->build->num_rows, step = step_rows(j);
    j->n_out = 0;
    for (; j->unmatched_pos < n && j->n_out < step; j->unmatched_pos++)
        if (!j->matched[j->unmatched_pos] &&
            push_pair(&j->ol, &j->or_, &j->n_out, &j->cap_out, -1, j->unmatched_pos) < 0)
            return hudi_error_oom(err);
    /* The left side's columns come from an empty batch of its schema (only nulls taken). */
    return emit(j, j->left_out, j->build, false, err);
}

static int join_next(hudi_sql_oper *op, hudi_batch **out, hudi_error *err) {
    join_op *j = (join_op *)op;
    *out = NULL;
    int rc;
    if (!j->built) {
        j->built = true;
        if ((rc = build(j, err)) < 0) return rc;
    }
    for (;;) {
        if ((rc = hudi_sql_check_cancel(op->ctx, err)) < 0) return rc;
        if (!j->left_done) {
            if (!j->probe || j->probe_pos >= j->probe->num_rows) {
                hudi_batch *in;
                if ((rc = hudi_sql_op_next(j->left, &in, err)) < 0) return rc;
                if (!in) {
                    j->left_done = true;
                    j->probe = NULL;
                    continue;
                }
                j->probe = in;
                j->probe_pos = 0;
                if (in->num_rows == 0) continue;
                if ((rc = probe_batch(j, err)) < 0) return rc;
            }
            if ((rc = join_chunk(j, err)) < 0) return rc;
        } else {
            if (!j->matched || j->unmatched_pos >= j->build->num_rows) return 0;
            if ((rc = emit_unmatched(j, err)) < 0) return rc;
        }
        if (j->result && j->result->num_rows > 0) {
            *out = j->result;
            return 0;
        }
    }
}

static void join_free(hudi_sql_oper *op) {
    join_op *j = (join_op *)op;
    hudi_sql_op_free(j->left);
    hudi_sql_op_free(j->right);
    hudi_batch_free(j->build);
    hudi_sql_mem_charge(op->ctx, -(j->build_charged + j->chain_charged), NULL);
    hudi_sql_groups_dispose(op->ctx, &j->table);
    hudi_free(j->head);
    hudi_free(j->next);
    hudi_free(j->matched);
    hudi_free(j->probe_ids);
    hudi_free(j->pl);
    hudi_free(j->pr);
    hudi_free(j->pass);
    hudi_free(j->ol);
    hudi_free(j->or_);
    hudi_batch_free(j->cand);
    hudi_batch_free(j->out);
    hudi_sql_view_free(j->view);
    hudi_batch_free(j->left_out);
    hudi_free(j);
}

int hudi_sql_open_join(hudi_sql_oper **out, hudi_sql_ctx *ctx, const hudi_sql_plan *p,
                       hudi_sql_oper *left, hudi_sql_oper *right, hudi_error *err) {
    *out = NULL;
    join_op *j = hudi_calloc(1, sizeof(*j));
    if (!j) {
        hudi_sql_op_free(left);
        hudi_sql_op_free(right);
        return hudi_error_oom(err);
    }
    j->base = (hudi_sql_oper){p, ctx, join_next, join_free};
    j->left = left;
    j->right = right;
    j->kind = p->join;
    int rc = 0;
    const hudi_field *ls = &p->left->schema, *rs = &p->right->schema;
    bool left_only = j->kind == HUDI_SQL_J_SEMI || j->kind == HUDI_SQL_J_ANTI;
    int32_t want = ls->n_children + (left_only ? 0 : rs->n_children);
    if (p->schema.n_children != want) {
        rc = hudi_error_set(err, HUDI_EINVAL, "JOIN output of %d columns, expected %d",
                            p->schema.n_children, want);
        goto done;
    }
    if (p->n_keys > 0) {
        const hudi_field **fields = hudi_calloc((size_t)p->n_keys, sizeof(*fields));
        if (!fields) {
            rc = hudi_error_oom(err);
            goto done;
        }
        for (int32_t k = 0; k < p->n_keys && rc == 0; k++) {
            fields[k] = &p->right_keys[k]->type;
            if (p->left_keys[k]->type.type != p->right_keys[k]->type.type)
                rc = hudi_error_set(err, HUDI_EINVAL, "join key %d: %s = %s (types differ)", k + 1,
                                    hudi_type_name(p->left_keys[k]->type.type),
                                    hudi_type_name(p->right_keys[k]->type.type));
        }
        if (rc == 0) rc = hudi_sql_groups_init(&j->table, fields, p->n_keys, err);
        hudi_free(fields);
        if (rc < 0) goto done;
    }
    if ((rc = hudi_sql_concat_schema(ctx->arena, ls, rs, &j->both, err)) < 0) goto done;
    if ((rc = hudi_batch_new(&j->cand, &j->both, err)) < 0) goto done;
    if ((rc = hudi_batch_new(&j->out, &p->schema, err)) < 0) goto done;
    if ((rc = hudi_sql_view_new(&j->view, &p->schema, err)) < 0) goto done;
    rc = hudi_batch_new(&j->left_out, ls, err);
done:
    if (rc < 0) {
        join_free(&j->base);
        return rc;
    }
    *out = &j->base;
    return 0;
}
