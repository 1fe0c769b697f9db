/* A recording's configurations by gen and by values (rec_index.h): two
 * open-addressing hash tables, each at most half full. */
#include "rec_index.h"

#include <stdlib.h>
#include <string.h>

#include "gputui/measure/param.h"

typedef struct {
    uint32_t gen, at;       /* at: index + 1; 0 an empty slot */
} gen_slot;

typedef struct {
    uint64_t hash;
    uint32_t first, last;   /* index + 1; first 0: an empty slot */
} key_slot;

struct gt_rec_index {
    gen_slot *gens;
    key_slot *keys;
    size_t cap, n;          /* both tables: cap slots (a power of two), n used */
};

/* Two configurations are the same when their values that apply are
 * (record.h); the index hashes those. */
bool gt_rec_config_is(const gt_rec_config *c, const gt_experiment *exp, const int64_t *vals)
{
    if (c->exp != exp)
        return false;
    for (int k = 0; k < exp->nparams; k++)
        /* Values that do not apply are not part of the configuration. */
        if (gt_param_applies(&exp->params[k], vals, NULL) && c->vals[k] != vals[k])
            return false;
    return true;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x100000001b3ull;  /* FNV-1a's prime, a 64-bit word at a time */
    return h ^ (h >> 29);
}

static uint64_t gen_hash(uint32_t gen)
{
    return mix(0xcbf29ce484222325ull, gen);
}

/* A configuration's key: its experiment and the values that apply. */
static uint64_t key_hash(const gt_experiment *exp, const int64_t *vals)
{
    uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)(uintptr_t)exp);

    for (int k = 0; k < exp->nparams; k++)
        h = mix(h, gt_param_applies(&exp->params[k], vals, NULL) ? (uint64_t)vals[k]
                                                                 : 0x9e3779b97f4a7c15ull);
    return h;
}

static gen_slot *gen_place(gen_slot *t, size_t cap, uint32_t gen)
{
    size_t i = (size_t)gen_hash(gen) & (cap - 1);

    while (t[i].at && t[i].gen != gen)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* The slot of the key of (exp, vals): its own, or the empty one it would
 * take. */
static key_slot *key_place(const gt_recording *r, key_slot *t, size_t cap, uint64_t h,
                           const gt_experiment *exp, const int64_t *vals)
{
    size_t i = (size_t)h & (cap - 1);

    while (t[i].first && !(t[i].hash == h && gt_rec_config_is(&r->cfg[t[i].first - 1], exp, vals)))
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Both tables at twice the size, everything moved over. */
static int grow(gt_recording *r, struct gt_rec_index *x)
{
    size_t cap = x->cap ? x->cap * 2 : 64;
    gen_slot *g = calloc(cap, sizeof *g);
    key_slot *k = calloc(cap, sizeof *k);

    if (!g || !k) {
        free(g);
        free(k);
        return -1;
    }
    for (size_t i = 0; i < x->cap; i++) {
        if (x->gens[i].at)
            *gen_place(g, cap, x->gens[i].gen) = x->gens[i];
        if (x->keys[i].first) {
            const gt_rec_config *c = &r->cfg[x->keys[i].first - 1];
            *key_place(r, k, cap, x->keys[i].hash, c->exp, c->vals) = x->keys[i];
        }
    }
    free(x->gens);
    free(x->keys);
    x->gens = g;
    x->keys = k;
    x->cap = cap;
    return 0;
}

int rec_index_add(gt_recording *r, size_t i)
{
    struct gt_rec_index *x = r->index;
    const gt_rec_config *c = &r->cfg[i];
    uint64_t h;
    key_slot *k;
    gen_slot *g;

    if (!x && !(x = r->index = calloc(1, sizeof *x)))
        return -1;
    if ((x->n + 1) * 2 > x->cap && grow(r, x))
        return -1;
    g = gen_place(x->gens, x->cap, c->gen);
    if (!g->at)
        x->n++;
    *g = (gen_slot){.gen = c->gen, .at = (uint32_t)i + 1};
    h = key_hash(c->exp, c->vals);
    k = key_place(r, x->keys, x->cap, h, c->exp, c->vals);
    if (!k->first)
        *k = (key_slot){.hash = h, .first = (uint32_t)i + 1};
    k->last = (uint32_t)i + 1;
    return 0;
}

gt_rec_config *rec_index_gen(const gt_recording *r, uint32_t gen)
{
    const struct gt_rec_index *x = r->index;
    const gen_slot *g;

    if (!x || !x->cap)
        return NULL;
    g = gen_place(x->gens, x->cap, gen);
    return g->at ? &r->cfg[g->at - 1] : NULL;
}

int rec_index_find(const gt_recording *r, const gt_experiment *exp, const int64_t *vals,
                   bool last)
{
    const struct gt_rec_index *x = r->index;
    const key_slot *k;

    if (!x || !x->cap)
        return -1;
    k = key_place(r, x->keys, x->cap, key_hash(exp, vals), exp, vals);
    return k->first ? (int)(last ? k->last : k->first) - 1 : -1;
}

size_t rec_index_bytes(const gt_recording *r)
{
    const struct gt_rec_index *x = r->index;

    return x ? sizeof *x + x->cap * (sizeof *x->gens + sizeof *x->keys) : 0;
}

void rec_index_free(gt_recording *r)
{
    struct gt_rec_index *x = r->index;

    if (x) {
        free(x->gens);
        free(x->keys);
        free(x);
    }
    r->index = NULL;
}
