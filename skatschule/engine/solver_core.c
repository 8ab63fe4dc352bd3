/* The native core of the open-hand solver: _Search.trick of solver.py in C.
 *
 * The Python method stays the reference; this is the same search, card for card and node
 * for node (the same move orders, remembered orders, killer leads, bounds and table
 * entries), so both give the same answers and the same node counts. What differs is only
 * the machinery: the transposition table is a preallocated open-addressing array keyed
 * by two machine words instead of a dict keyed by a 97-bit integer, the remembered orders
 * of the second and last hand likewise, and nothing is allocated per node (the follower
 * lists of each lead group live on the C stack).
 *
 * Built by `python -m skatschule.engine.mypyc_build` (make setup) beside the mypyc modules;
 * used by the compiled build only (see solver.py, _native_core).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXG 8

typedef struct {
    int trumps;
    uint32_t trump_mask;
    uint8_t pts[32];
    uint8_t klass[32];
    uint8_t beats[1024];
    uint32_t follow[32];
    uint8_t group_of[32];
    uint32_t band_low[32];
    uint32_t band_mask;
    uint32_t over[32];
    int nplain;
    uint32_t plain[MAXG];
    /* the groups of _least: mask, shift, width mask, width; rows[m * (width + 1) + k], augen[m] */
    int ngroups;
    uint32_t g_mask[MAXG];
    int g_shift[MAXG];
    uint32_t g_wmask[MAXG];
    int g_width[MAXG];
    uint8_t *g_rows[MAXG];
    uint8_t *g_augen[MAXG];
    int first_plain; /* least_plain = groups from here on */
    int npc;
    int pc_p[32];
    uint32_t pc_mask[32];
    uint8_t mpts[4][256]; /* Augen of a mask, by bytes */
    int nbands;
    uint32_t band_masks[16];
    int band_first[16];
} Tables;

static const int NEXT[3] = {1, 2, 0};

static inline int popc(uint32_t x) { return __builtin_popcount(x); }
static inline int bitlen(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int ctz32(uint32_t x) { return __builtin_ctz(x); }

static inline int mask_points(const Tables *t, uint32_t m)
{
    return t->mpts[0][m & 0xFF] + t->mpts[1][m >> 8 & 0xFF] + t->mpts[2][m >> 16 & 0xFF] + t->mpts[3][m >> 24];
}

/* ------------------------------------------------------------------ hash tables */

static inline uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 29;
    return h;
}

#define USED (1ULL << 63)

typedef struct {
    uint64_t k1, k2; /* k2 has USED set in a used slot */
    int32_t v;
} TTEntry;

typedef struct {
    TTEntry *e;
    size_t cap, n;
} TT;

static int tt_init(TT *tt, size_t cap)
{
    tt->e = (TTEntry *)calloc(cap, sizeof(TTEntry));
    tt->cap = cap;
    tt->n = 0;
    return tt->e != NULL;
}

static inline int32_t tt_get(const TT *tt, uint64_t k1, uint64_t k2)
{
    k2 |= USED;
    size_t mask = tt->cap - 1;
    size_t i = mix(k1, k2) & mask;
    for (;;) {
        const TTEntry *e = &tt->e[i];
        if (e->k2 == k2 && e->k1 == k1)
            return e->v;
        if (!e->k2)
            return -1;
        i = (i + 1) & mask;
    }
}

static int tt_grow(TT *tt)
{
    TT bigger;
    if (!tt_init(&bigger, tt->cap * 2))
        return 0;
    size_t mask = bigger.cap - 1;
    for (size_t j = 0; j < tt->cap; j++) {
        TTEntry *e = &tt->e[j];
        if (!e->k2)
            continue;
        size_t i = mix(e->k1, e->k2) & mask;
        while (bigger.e[i].k2)
            i = (i + 1) & mask;
        bigger.e[i] = *e;
    }
    bigger.n = tt->n;
    free(tt->e);
    *tt = bigger;
    return 1;
}

/* returns 0 when out of memory */
static inline int tt_put(TT *tt, uint64_t k1, uint64_t k2, int32_t v)
{
    k2 |= USED;
    size_t mask = tt->cap - 1;
    size_t i = mix(k1, k2) & mask;
    for (;;) {
        TTEntry *e = &tt->e[i];
        if (!e->k2) {
            e->k1 = k1;
            e->k2 = k2;
            e->v = v;
            tt->n++;
            if (tt->n * 2 > tt->cap)
                return tt_grow(tt);
            return 1;
        }
        if (e->k2 == k2 && e->k1 == k1) {
            e->v = v;
            return 1;
        }
        i = (i + 1) & mask;
    }
}

/* remembered orders (up to ten cards) by a two-word key */
typedef struct {
    uint64_t k1, k2;
    uint8_t n;
    int8_t order[16];
} MemoEntry;

typedef struct {
    MemoEntry *e;
    size_t cap, n;
} Memo;

static int memo_init(Memo *m, size_t cap)
{
    m->e = (MemoEntry *)calloc(cap, sizeof(MemoEntry));
    m->cap = cap;
    m->n = 0;
    return m->e != NULL;
}

/* the remembered order copied to out; its length, or -1 */
static inline int memo_get(const Memo *m, uint64_t k1, uint64_t k2, int8_t *out)
{
    k2 |= USED;
    size_t mask = m->cap - 1;
    size_t i = mix(k1, k2) & mask;
    for (;;) {
        const MemoEntry *e = &m->e[i];
        if (e->k2 == k2 && e->k1 == k1) {
            memcpy(out, e->order, 16);
            return e->n;
        }
        if (!e->k2)
            return -1;
        i = (i + 1) & mask;
    }
}

static int memo_grow(Memo *m)
{
    Memo bigger;
    if (!memo_init(&bigger, m->cap * 2))
        return 0;
    size_t mask = bigger.cap - 1;
    for (size_t j = 0; j < m->cap; j++) {
        MemoEntry *e = &m->e[j];
        if (!e->k2)
            continue;
        size_t i = mix(e->k1, e->k2) & mask;
        while (bigger.e[i].k2)
            i = (i + 1) & mask;
        bigger.e[i] = *e;
    }
    bigger.n = m->n;
    free(m->e);
    *m = bigger;
    return 1;
}

static int memo_put(Memo *m, uint64_t k1, uint64_t k2, const int8_t *order, int n)
{
    k2 |= USED;
    size_t mask = m->cap - 1;
    size_t i = mix(k1, k2) & mask;
    for (;;) {
        MemoEntry *e = &m->e[i];
        if (!e->k2 || (e->k2 == k2 && e->k1 == k1)) {
            int fresh = !e->k2;
            e->k1 = k1;
            e->k2 = k2;
            e->n = (uint8_t)n;
            memcpy(e->order, order, n);
            if (fresh) {
                m->n++;
                if (m->n * 2 > m->cap)
                    return memo_grow(m);
            }
            return 1;
        }
        i = (i + 1) & mask;
    }
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    PyObject_HEAD
    PyObject *capsule; /* keeps the Tables alive */
    const Tables *t;
    int declarer;
    int aborted; /* 1: node budget, 2: out of memory */
    long long nodes, limit;
    int killer[12];
    TT tt;
    Memo memo_b, memo_c;
    TT null_tt; /* the yes/no search's table: 1 yes, 0 no */
    uint32_t hands[3]; /* the yes/no search plays on these */
    int all_tricks;
} Core;

/* reps(): the cards of legal with each run of equivalent cards reduced to its first */
static inline int reps(const Tables *t, uint32_t legal, uint32_t sep, int8_t *out)
{
    int n = 0, prev = -1, prev_class = -1;
    uint32_t x = legal;
    while (x) {
        uint32_t low = x & (0u - x);
        int i = ctz32(x);
        x ^= low;
        int k = t->klass[i];
        if (k == prev_class && !(sep & (uint32_t)((uint64_t)low - (2ULL << prev)))) {
            prev = i;
            continue;
        }
        out[n++] = (int8_t)i;
        prev = i;
        prev_class = k;
    }
    return n;
}

static inline int sure(const Tables *t, uint32_t mine, uint32_t live, uint32_t opp1, uint32_t opp2, uint32_t f1,
                       uint32_t f2)
{
    uint32_t tm = t->trump_mask;
    uint32_t x = live & tm;
    int k = 0, total = 0;
    if (mine & x & (0u - x)) {
        uint32_t other = x & ~mine;
        if (other)
            x &= (other & (0u - other)) - 1;
        k = popc(x);
        int w1 = t->g_width[0] + 1;
        total = t->g_augen[0][x] + t->g_rows[0][(f1 & tm) * w1 + k] + t->g_rows[0][(f2 & tm) * w1 + k];
    }
    uint32_t ruff1 = opp1 & tm;
    if (ruff1 && popc(ruff1) <= k)
        ruff1 = 0;
    uint32_t ruff2 = opp2 & tm;
    if (ruff2 && popc(ruff2) <= k)
        ruff2 = 0;
    for (int g = t->first_plain; g < t->ngroups; g++) {
        uint32_t suit = t->g_mask[g];
        x = live & suit;
        if (!(mine & x & (0u - x)))
            continue;
        uint32_t other = x & ~mine;
        if (other)
            x &= (other & (0u - other)) - 1;
        k = popc(x);
        if (ruff1 || ruff2) {
            int cap = 8;
            if (ruff1)
                cap = popc(opp1 & suit);
            if (ruff2) {
                int c2 = popc(opp2 & suit);
                if (c2 < cap)
                    cap = c2;
            }
            while (k > cap) {
                x ^= 1u << (bitlen(x) - 1);
                k--;
            }
        }
        int shift = t->g_shift[g];
        uint32_t wm = t->g_wmask[g];
        int w1 = t->g_width[g] + 1;
        total += t->g_augen[g][x >> shift] + t->g_rows[g][((f1 >> shift) & wm) * w1 + k] +
                 t->g_rows[g][((f2 >> shift) & wm) * w1 + k];
    }
    return total;
}

static inline int cheapest(const Tables *t, uint32_t hand, int k)
{
    int total = 0;
    for (int j = 0; j < t->npc; j++) {
        int n = popc(hand & t->pc_mask[j]);
        if (n >= k)
            return total + k * t->pc_p[j];
        total += n * t->pc_p[j];
        k -= n;
    }
    return total;
}

/* sort keys (score * 32 + card) from the highest down and write the cards */
static inline void sort_desc(int64_t *keys, int n, int8_t *out)
{
    for (int i = 1; i < n; i++) {
        int64_t k = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < k) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = k;
    }
    for (int i = 0; i < n; i++)
        out[i] = (int8_t)(keys[i] & 31);
}

static int lead_order(const Core *s, const int8_t *moves, int nmoves, int skip, int tt_move, int killer, uint32_t live,
                      uint32_t ha, uint32_t hb, uint32_t hc, int d, uint32_t dh, int8_t *out)
{
    const Tables *t = s->t;
    int64_t keys[16];
    int n = 0;
    int trumps = t->trumps;
    uint32_t pa = d == 2 ? hb : hc;
    for (int j = 0; j < nmoves; j++) {
        int i = moves[j];
        if (i == skip)
            continue;
        int64_t score;
        uint32_t fi = t->follow[i];
        if (i == tt_move) {
            score = 1LL << 30;
        } else if (i == killer) {
            score = 1LL << 29;
        } else {
            int sc;
            if (!(live & fi & ((1u << i) - 1))) {
                sc = 30 + t->pts[i];
                if (i < trumps)
                    sc += d == 0 ? 20 : -10;
            } else {
                sc = 20 - t->pts[i];
                if (!d && i < trumps)
                    sc += 10;
                if (d) {
                    uint32_t g = live & fi;
                    if (!((ha | dh) & g & (0u - g)))
                        sc += 8;
                }
            }
            if (d && !(dh & fi))
                sc -= 15;
            else if (d && i >= trumps && !(pa & fi) && (pa & t->trump_mask))
                sc += 8;
            else if (!d && i >= trumps && !((hb & fi) && (hc & fi)))
                sc -= 40;
            score = (int64_t)sc * 65536;
        }
        keys[n++] = score * 32 + i;
    }
    sort_desc(keys, n, out);
    return n;
}

typedef struct {
    int known;
    int nb, nc;
    int8_t reps_b[16], reps_c[16];
    uint64_t kb, blo, kc;
} Followers;

static int trick(Core *s, int lead, uint32_t ha, uint32_t hb, uint32_t hc, int left, int alpha, int beta, uint64_t key1,
                 uint64_t key2, int32_t entry)
{
    s->nodes++;
    if (s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    if (left <= alpha)
        return left;
    if (beta <= 0)
        return 0;
    const Tables *t = s->t;
    const uint8_t *beats = t->beats;
    const uint8_t *pts = t->pts;
    int declarer = s->declarer;
    if (!(ha & (ha - 1))) {
        if (!ha)
            return 0;
        int a = bitlen(ha) - 1, b = bitlen(hb) - 1, c = bitlen(hc) - 1;
        int w, best;
        if (beats[b * 32 + a]) {
            w = 1;
            best = b;
        } else {
            w = 0;
            best = a;
        }
        if (beats[c * 32 + best])
            w = 2;
        return (lead + w) % 3 == declarer ? left : 0;
    }
    int lo = 0, hi = left, tt_move = -1;
    if (entry >= 0) {
        lo = entry & 0xFF;
        hi = entry >> 8 & 0xFF;
        tt_move = (entry >> 16) - 1;
        if (lo >= beta)
            return lo;
        if (hi <= alpha)
            return hi;
    }
    uint32_t live = ha | hb | hc;
    int d = ((declarer - lead) % 3 + 3) % 3;
    uint32_t dh = d == 0 ? ha : d == 1 ? hb : hc;
    if (entry < 0) {
        uint32_t x = live & t->trump_mask;
        int run = 0;
        uint32_t other = 0;
        if (x) {
            int mine = (dh & x & (0u - x)) != 0;
            other = mine ? x & ~dh : x & dh;
            if (other)
                x &= (other & (0u - other)) - 1;
            run = mine ? mask_points(t, x) : -mask_points(t, x);
            if (!mine) {
                uint32_t e1 = d == 0 ? hb : ha;
                uint32_t e2 = d == 2 ? hb : hc;
                int k1 = popc(x & e1), k2 = popc(x & e2);
                run -= cheapest(t, dh, k1 > k2 ? k1 : k2);
                if (!k1)
                    run -= cheapest(t, e1, k2);
                else if (!k2)
                    run -= cheapest(t, e2, k1);
            }
        }
        if (d == 0) {
            int sv = sure(t, ha, live, hb, hc, hb, hc);
            if (sv > lo)
                lo = sv;
            if (run < 0 && left + run < hi)
                hi = left + run;
        } else {
            int sv = sure(t, ha, live, dh, 0, hb, hc);
            if (run < 0 && -run > sv)
                sv = -run;
            sv = left - sv;
            if (sv < hi)
                hi = sv;
            if (run > 0) {
                int k = popc(x);
                if (!other) {
                    for (int j = 0; j < t->nplain; j++) {
                        uint32_t y = live & t->plain[j];
                        if (dh & y & (0u - y)) {
                            uint32_t o = y & ~dh;
                            if (o)
                                y &= (o & (0u - o)) - 1;
                            k += popc(y);
                            run += mask_points(t, y);
                        }
                    }
                }
                run += cheapest(t, ha, k) + cheapest(t, d == 1 ? hc : hb, k);
                if (run > lo)
                    lo = run;
            }
        }
        if (lo >= beta || hi <= alpha) {
            if (!tt_put(&s->tt, key1, key2, lo | hi << 8)) {
                s->aborted = 2;
                return 0;
            }
            return lo >= beta ? lo : hi;
        }
    }
    int alpha0 = alpha, beta0 = beta;
    if (lo > alpha)
        alpha = lo;
    if (hi < beta)
        beta = hi;
    const uint32_t *follow = t->follow;
    const uint32_t *band_low = t->band_low;
    int depth = popc(ha);
    int killer = s->killer[depth];
    uint32_t band_mask = t->band_mask;
    uint32_t sep_a = live & ~ha & band_mask;
    int8_t moves_a[16], order_a[16];
    int nma = reps(t, ha, sep_a, moves_a);
    int nord;
    int sorted_a = 1;
    if (nma > 1) {
        int has_tt = 0, has_killer = 0;
        for (int j = 0; j < nma; j++) {
            if (moves_a[j] == tt_move)
                has_tt = 1;
            if (moves_a[j] == killer)
                has_killer = 1;
        }
        int first = has_tt ? tt_move : has_killer ? killer : -1;
        if (first >= 0) {
            sorted_a = 0;
            order_a[0] = (int8_t)first;
            nord = 1;
        } else {
            nord = lead_order(s, moves_a, nma, -1, tt_move, killer, live, ha, hb, hc, d, dh, order_a);
        }
    } else {
        memcpy(order_a, moves_a, sizeof(order_a));
        nord = nma;
    }
    int max_a = d == 0, max_b = d == 1, max_c = d == 2;
    int lead_b = NEXT[lead];
    int lead_c = NEXT[lead_b];
    uint32_t sep_b = live & ~hb & band_mask;
    uint32_t sep_c = live & ~hc & band_mask;
    uint32_t trump_mask = t->trump_mask;
    int n_trumps = t->trumps;
    int va = max_a ? -1 : 1000;
    int best_a = order_a[0];
    int last = depth == 2;
    uint32_t t3 = hc & trump_mask;
    int partner_last = d == 0;
    Followers fol[MAXG];
    for (int g = 0; g < t->ngroups; g++)
        fol[g].known = 0;
    const uint32_t *overs = t->over;
    long long count = 0;
    int i_a = 0;
    for (;;) {
        if (i_a == nord) {
            if (sorted_a)
                break;
            nord = lead_order(s, moves_a, nma, order_a[0], tt_move, killer, live, ha, hb, hc, d, dh, order_a);
            sorted_a = 1;
            i_a = 0;
            continue;
        }
        int a = order_a[i_a++];
        uint32_t na0 = ha ^ (1u << a);
        uint32_t ma = (band_low[a] & live) ? band_low[a] : 0;
        int pa = pts[a];
        uint32_t fa = follow[a];
        Followers *f = &fol[t->group_of[a]];
        if (!f->known) {
            uint32_t legal_b = (hb & fa) ? hb & fa : hb;
            uint32_t legal_c = (hc & fa) ? hc & fa : hc;
            uint32_t span_b = (uint32_t)(((1ULL << bitlen(legal_b)) - 1) & ~(uint64_t)((legal_b & (0u - legal_b)) - 1));
            uint32_t span_c = (uint32_t)(((1ULL << bitlen(legal_c)) - 1) & ~(uint64_t)((legal_c & (0u - legal_c)) - 1));
            uint64_t over_c = (hc & fa) ? ((uint64_t)(hc & fa) << 1 | 1) : ((uint64_t)t3 << 1);
            f->kb = legal_b | (uint64_t)(sep_b & span_b) << 32;
            f->kc = legal_c | (uint64_t)(sep_c & span_c) << 32;
            f->blo = over_c << 7 | (uint64_t)d;
            f->nb = reps(t, legal_b, sep_b, f->reps_b);
            f->nc = reps(t, legal_c, sep_c, f->reps_c);
            f->known = 1;
        }
        int8_t moves_b[16];
        int nmb = f->nb;
        const int8_t *moves_c = f->reps_c;
        int nmc = f->nc;
        uint32_t f3 = hc & fa;
        int okey_valid = 0;
        uint64_t okey2 = 0;
        int have_b = 0;
        if (nmb > 1) {
            okey_valid = 1;
            okey2 = f->blo | (uint64_t)a << 2;
            int n = memo_get(&s->memo_b, f->kb, okey2, moves_b);
            if (n >= 0) {
                have_b = 1;
                nmb = n;
            }
        } else {
            memcpy(moves_b, f->reps_b, 16);
            have_b = 1;
        }
        if (!have_b) {
            int64_t keys[16];
            for (int j = 0; j < nmb; j++) {
                int i = f->reps_b[j];
                int top, top_mine;
                if (beats[i * 32 + a]) {
                    top = i;
                    top_mine = 1;
                } else {
                    top = a;
                    top_mine = d == 2;
                }
                uint32_t over;
                if (f3)
                    over = f3 & follow[top] & ((1u << top) - 1);
                else
                    over = top < n_trumps ? t3 & ((1u << top) - 1) : t3;
                int score;
                if (top_mine && (partner_last || !over))
                    score = 100 + pts[i] - ((i < n_trumps && a >= n_trumps) ? 30 : 0);
                else if (partner_last && over)
                    score = 70 + pts[i];
                else
                    score = 40 - pts[i];
                keys[j] = (int64_t)score * 32 + i;
            }
            sort_desc(keys, nmb, moves_b);
            if (!memo_put(&s->memo_b, f->kb, okey2, moves_b, nmb)) {
                s->aborted = 2;
                return 0;
            }
        }
        int vb = max_b ? -1 : 1000;
        int8_t under_a[16];
        int n_under = 0;
        uint64_t under_key2 = 0;
        int alpha_b = alpha, beta_b = beta;
        for (int jb = 0; jb < nmb; jb++) {
            int b = moves_b[jb];
            uint32_t nb0 = hb ^ (1u << b);
            int pab = pa + pts[b];
            int top, wpos;
            if (beats[b * 32 + a]) {
                top = b;
                wpos = 1;
            } else {
                top = a;
                wpos = 0;
            }
            int8_t order_c[16];
            int noc;
            int ckey_valid = 0;
            uint64_t ckey2 = 0;
            if (nmc < 2) {
                memcpy(order_c, moves_c, 16);
                noc = nmc;
            } else if (wpos == 0 && n_under) {
                memcpy(order_c, under_a, 16);
                noc = n_under;
                ckey_valid = 1;
                ckey2 = under_key2;
            } else {
                int side_top = (wpos == d) == max_c;
                ckey_valid = 1;
                ckey2 = (uint64_t)top << 1 | (uint64_t)side_top;
                noc = memo_get(&s->memo_c, f->kc, ckey2, order_c);
                if (noc < 0) {
                    int64_t keys[16];
                    for (int j = 0; j < nmc; j++) {
                        int i = moves_c[j];
                        if (beats[i * 32 + top] || side_top)
                            keys[j] = (int64_t)(100 + pts[i] - (i < n_trumps ? 12 : 0)) * 32 + i;
                        else
                            keys[j] = (int64_t)(40 - pts[i]) * 32 + i;
                    }
                    sort_desc(keys, nmc, order_c);
                    noc = nmc;
                    if (!memo_put(&s->memo_c, f->kc, ckey2, order_c, noc)) {
                        s->aborted = 2;
                        return 0;
                    }
                }
                if (wpos == 0) {
                    memcpy(under_a, order_c, 16);
                    n_under = noc;
                    under_key2 = ckey2;
                }
            }
            int vc = max_c ? -1 : 1000;
            uint32_t mb = (band_low[b] & live) ? band_low[b] : 0;
            uint32_t band_ab = ma | mb;
            int alpha_c = alpha_b, beta_c = beta_b;
            count += noc;
            uint32_t over_top = overs[top];
            for (int jc = 0; jc < noc; jc++) {
                int c = order_c[jc];
                int tp = pab + pts[c];
                int w = (over_top >> c & 1) ? 2 : wpos;
                int rest = left - tp;
                int gain = w == d ? tp : 0;
                int r;
                if (last) {
                    uint32_t ncc = hc ^ (1u << c);
                    uint32_t x0, x1, x2;
                    int lp;
                    if (w == 0) {
                        x0 = na0; x1 = nb0; x2 = ncc; lp = lead;
                    } else if (w == 1) {
                        x0 = nb0; x1 = ncc; x2 = na0; lp = lead_b;
                    } else {
                        x0 = ncc; x1 = na0; x2 = nb0; lp = lead_c;
                    }
                    int y0 = bitlen(x0) - 1, y1 = bitlen(x1) - 1, y2 = bitlen(x2) - 1;
                    int k, y;
                    if (beats[y1 * 32 + y0]) {
                        k = 1;
                        y = y1;
                    } else {
                        k = 0;
                        y = y0;
                    }
                    if (beats[y2 * 32 + y])
                        k = 2;
                    r = (lp + k) % 3 == declarer ? gain + rest : gain;
                } else if (rest <= alpha_c - gain) {
                    r = gain + rest;
                } else if (beta_c <= gain) {
                    r = gain;
                } else {
                    uint32_t na = na0, nb = nb0, nc = hc ^ (1u << c);
                    uint32_t mc = (band_low[c] & live) ? band_low[c] : 0;
                    if (!band_ab) {
                        if (mc) {
                            na = (na & ~mc) | (na & mc) >> 1;
                            nb = (nb & ~mc) | (nb & mc) >> 1;
                            nc = (nc & ~mc) | (nc & mc) >> 1;
                        }
                    } else if (!mc && !(ma && mb)) {
                        na = (na & ~band_ab) | (na & band_ab) >> 1;
                        nb = (nb & ~band_ab) | (nb & band_ab) >> 1;
                        nc = (nc & ~band_ab) | (nc & band_ab) >> 1;
                    } else {
                        int z0 = a, z1 = b, z2 = c, tmp;
                        if (z0 < z1) {
                            tmp = z0; z0 = z1; z1 = tmp;
                        }
                        if (z1 < z2) {
                            tmp = z1; z1 = z2; z2 = tmp;
                            if (z0 < z1) {
                                tmp = z0; z0 = z1; z1 = tmp;
                            }
                        }
                        uint32_t ms[3] = {band_low[z0], band_low[z1], band_low[z2]};
                        for (int j = 0; j < 3; j++) {
                            uint32_t m = ms[j];
                            if (m) {
                                na = (na & ~m) | (na & m) >> 1;
                                nb = (nb & ~m) | (nb & m) >> 1;
                                nc = (nc & ~m) | (nc & m) >> 1;
                            }
                        }
                    }
                    uint32_t x0, x1, x2;
                    int lp;
                    if (w == 0) {
                        x0 = na; x1 = nb; x2 = nc; lp = lead;
                    } else if (w == 1) {
                        x0 = nb; x1 = nc; x2 = na; lp = lead_b;
                    } else {
                        x0 = nc; x1 = na; x2 = nb; lp = lead_c;
                    }
                    uint64_t t1 = x0 | (uint64_t)x1 << 32;
                    uint64_t t2 = x2 | (uint64_t)lp << 32;
                    int32_t entry_c = tt_get(&s->tt, t1, t2);
                    int a_c = alpha_c - gain, b_c = beta_c - gain;
                    if (entry_c < 0) {
                        r = gain + trick(s, lp, x0, x1, x2, rest, a_c, b_c, t1, t2, entry_c);
                    } else if ((entry_c & 0xFF) >= b_c) {
                        count++;
                        r = gain + (entry_c & 0xFF);
                    } else if ((entry_c >> 8 & 0xFF) <= a_c) {
                        count++;
                        r = gain + (entry_c >> 8 & 0xFF);
                    } else {
                        r = gain + trick(s, lp, x0, x1, x2, rest, a_c, b_c, t1, t2, entry_c);
                    }
                    if (s->aborted)
                        return 0;
                }
                int cut = 0;
                if (max_c) {
                    if (r > vc) {
                        vc = r;
                        if (r > alpha_c) {
                            alpha_c = r;
                            if (r >= beta_c)
                                cut = 1;
                        }
                    }
                } else if (r < vc) {
                    vc = r;
                    if (r < beta_c) {
                        beta_c = r;
                        if (r <= alpha_c)
                            cut = 1;
                    }
                }
                if (cut) {
                    if (c != order_c[0] && ckey_valid) {
                        /* the card that cut off goes first next time */
                        int8_t moved[16];
                        int n = 0;
                        moved[n++] = (int8_t)c;
                        for (int j = 0; j < noc; j++)
                            if (order_c[j] != c)
                                moved[n++] = order_c[j];
                        if (!memo_put(&s->memo_c, f->kc, ckey2, moved, noc)) {
                            s->aborted = 2;
                            return 0;
                        }
                        if (wpos == 0) {
                            memcpy(under_a, moved, 16);
                            n_under = noc;
                        }
                    }
                    break;
                }
            }
            int cut = 0;
            if (max_b) {
                if (vc > vb) {
                    vb = vc;
                    if (vc > alpha_b) {
                        alpha_b = vc;
                        if (vc >= beta_b)
                            cut = 1;
                    }
                }
            } else if (vc < vb) {
                vb = vc;
                if (vc < beta_b) {
                    beta_b = vc;
                    if (vc <= alpha_b)
                        cut = 1;
                }
            }
            if (cut) {
                if (b != moves_b[0] && okey_valid) {
                    int8_t moved[16];
                    int n = 0;
                    moved[n++] = (int8_t)b;
                    for (int j = 0; j < nmb; j++)
                        if (moves_b[j] != b)
                            moved[n++] = moves_b[j];
                    if (!memo_put(&s->memo_b, f->kb, okey2, moved, nmb)) {
                        s->aborted = 2;
                        return 0;
                    }
                }
                break;
            }
        }
        if (max_a) {
            if (vb > va) {
                va = vb;
                best_a = a;
                if (vb > alpha) {
                    alpha = vb;
                    if (vb >= beta)
                        break;
                }
            }
        } else if (vb < va) {
            va = vb;
            best_a = a;
            if (vb < beta) {
                beta = vb;
                if (vb <= alpha)
                    break;
            }
        }
    }
    if (max_a ? va >= beta : va <= alpha)
        s->killer[depth] = best_a;
    else if (tt_move >= 0)
        best_a = tt_move;
    if (va <= alpha0) {
        if (va < hi)
            hi = va;
    } else if (va >= beta0) {
        if (va > lo)
            lo = va;
    } else {
        lo = hi = va;
    }
    if (!tt_put(&s->tt, key1, key2, lo | hi << 8 | (best_a + 1) << 16)) {
        s->aborted = 2;
        return 0;
    }
    s->nodes += count;
    return va;
}

/* _squeeze of solver.py: the live cards of every band moved to the band's top */
static void squeeze(const Tables *t, uint32_t *h)
{
    for (int j = 0; j < t->nbands; j++) {
        uint32_t mask = t->band_masks[j];
        int first = t->band_first[j];
        uint32_t live = (h[0] | h[1] | h[2]) & mask;
        int count = popc(live);
        if (live == (uint32_t)(((1ULL << count) - 1) << first))
            continue;
        uint32_t out[3] = {0, 0, 0};
        int place = first;
        uint32_t x = live;
        while (x) {
            uint32_t low = x & (0u - x);
            x ^= low;
            for (int k = 0; k < 3; k++)
                if (h[k] & low)
                    out[k] |= 1u << place;
            place++;
        }
        for (int k = 0; k < 3; k++)
            h[k] = (h[k] & ~mask) | out[k];
    }
}

/* _Root.after_trick: the position at a trick start, squeezed, looked up, searched */
static int after_trick(Core *s, int lead, const uint32_t *hands, int left, int alpha, int beta)
{
    uint32_t h[3] = {hands[0], hands[1], hands[2]};
    squeeze(s->t, h);
    uint32_t ha = h[lead], hb = h[NEXT[lead]], hc = h[NEXT[NEXT[lead]]];
    uint64_t k1 = ha | (uint64_t)hb << 32;
    uint64_t k2 = hc | (uint64_t)lead << 32;
    return trick(s, lead, ha, hb, hc, left, alpha, beta, k1, k2, tt_get(&s->tt, k1, k2));
}

/* _Root.points: from inside a trick (its n cards in trick[], led by leader) on; tpts, left: the
 * Augen on the table and in the hands */
static int root_points(Core *s, int leader, int8_t *trick, int n, uint32_t *h, int tpts, int left, int alpha,
                       int beta)
{
    const Tables *t = s->t;
    int declarer = s->declarer;
    if (n == 3) {
        int best = trick[0], k = 0;
        for (int j = 1; j < 3; j++)
            if (t->beats[trick[j] * 32 + best]) {
                best = trick[j];
                k = j;
            }
        int winner = (leader + k) % 3;
        int gain = winner == declarer ? tpts : 0;
        return gain + after_trick(s, winner, h, left, alpha - gain, beta - gain);
    }
    if (n == 0)
        return after_trick(s, leader, h, left, alpha, beta);
    s->nodes++;
    int seat = (leader + n) % 3;
    int maximize = seat == declarer;
    int v = maximize ? -1 : 1000;
    uint32_t hand = h[seat];
    uint32_t legal = hand & t->follow[trick[0]];
    if (!legal)
        legal = hand;
    uint32_t tmask = 0;
    for (int j = 0; j < n; j++)
        tmask |= 1u << trick[j];
    int8_t moves[16];
    int nm = reps(t, legal, (h[0] | h[1] | h[2] | tmask) & ~hand, moves);
    for (int j = 0; j < nm; j++) {
        int card = moves[j];
        h[seat] = hand ^ (1u << card);
        trick[n] = (int8_t)card;
        int r = root_points(s, leader, trick, n + 1, h, tpts + t->pts[card], left - t->pts[card], alpha, beta);
        h[seat] = hand;
        if (s->aborted)
            return 0;
        if (maximize) {
            if (r > v)
                v = r;
            if (v > alpha)
                alpha = v;
        } else {
            if (r < v)
                v = r;
            if (v < beta)
                beta = v;
        }
        if (alpha >= beta)
            break;
    }
    return v;
}

/* ------------------------------------------------------------------ the yes/no search */

/* _Search.every_trick */
static int every_trick(const Tables *t, uint32_t mine, uint32_t opp1, uint32_t opp2)
{
    uint32_t tm = t->trump_mask;
    int mine_t = popc(mine & tm);
    if (popc(opp1 & tm) > mine_t || popc(opp2 & tm) > mine_t)
        return 0;
    int out = 1;
    for (int g = 0; g < t->ngroups; g++) {
        uint32_t m = t->g_mask[g];
        uint32_t d = mine & m, o = (opp1 | opp2) & m;
        if (!d || !o)
            continue;
        uint32_t best = o & (0u - o);
        if (best < (d & (0u - d)))
            return 0;
        int top = popc(d & (best - 1));
        if (top < popc(d) && (popc(opp1 & m) > top || popc(opp2 & m) > top))
            out = -1;
    }
    return out;
}

/* _Search.no_trick */
static int no_trick(const Tables *t, uint32_t mine, uint32_t leader, uint32_t others)
{
    int out = 1;
    uint32_t opp = leader | others;
    for (int g = 0; g < t->ngroups; g++) {
        uint32_t m = t->g_mask[g];
        uint32_t d = mine & m, o = opp & m;
        if (!d || !o)
            continue;
        if (o < (d & (0u - d)))
            continue;
        uint32_t under = m & ~(uint32_t)((1ULL << bitlen(d)) - 1);
        if ((leader & under) && ((others & under) || !(others & m)))
            return 0;
        int n = 0;
        uint32_t x = d;
        while (x && out == 1) {
            uint32_t low = 1u << (bitlen(x) - 1);
            x ^= low;
            if (popc(o & ~(uint32_t)(((uint64_t)low << 1) - 1)) > n)
                out = -1;
            n++;
        }
    }
    return out;
}

/* ascending by key; keys are distinct */
static inline void sort_asc(int *keys, int8_t *moves, int n)
{
    for (int i = 1; i < n; i++) {
        int k = keys[i];
        int8_t mv = moves[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > k) {
            keys[j + 1] = keys[j];
            moves[j + 1] = moves[j];
            j--;
        }
        keys[j + 1] = k;
        moves[j + 1] = mv;
    }
}

/* _Search.null: can the declarer make sure of taking no trick (all_tricks: every trick)? */
static int null_search(Core *s, int seat, int n, int best, int bseat, uint32_t follow, uint32_t tmask)
{
    s->nodes++;
    if (s->nodes > s->limit) {
        s->aborted = 1;
        return 0;
    }
    const Tables *t = s->t;
    uint32_t *hands = s->hands;
    int declarer = s->declarer;
    uint64_t k1 = 0, k2 = 0;
    if (n == 0) {
        uint32_t h0 = hands[0], h1 = hands[1], h2 = hands[2];
        uint32_t live = h0 | h1 | h2;
        if (!live)
            return 1;
        if (s->all_tricks) {
            if (seat == declarer) {
                int sure = every_trick(t, hands[seat], hands[NEXT[seat]], hands[NEXT[NEXT[seat]]]);
                if (sure >= 0)
                    return sure == 1;
            }
        } else if (seat != declarer) {
            int sure = no_trick(t, hands[declarer], hands[seat], hands[3 - seat - declarer]);
            if (sure >= 0)
                return sure == 1;
        }
        /* the key: the seat, then each group's live cards in order as who holds them (the cards
         * played squeezed out), with the count of each group */
        unsigned __int128 key = (unsigned)seat;
        for (int g = 0; g < t->ngroups; g++) {
            uint32_t x = live & t->g_mask[g];
            key = key << 4 | (unsigned)popc(x);
            while (x) {
                uint32_t low = x & (0u - x);
                x ^= low;
                key = key << 2 | (h0 & low ? 0u : h1 & low ? 1u : 2u);
            }
        }
        k1 = (uint64_t)key;
        k2 = (uint64_t)(key >> 64);
        int32_t known = tt_get(&s->null_tt, k1, k2);
        if (known >= 0)
            return known;
    }
    uint32_t hand = hands[seat];
    uint32_t legal = n ? hand & follow : hand;
    if (!legal)
        legal = hand;
    const uint8_t *beats = t->beats;
    int8_t moves[16];
    int nm = reps(t, legal, (hands[0] | hands[1] | hands[2] | tmask) & ~hand, moves);
    int is_declarer = seat == declarer;
    int keys[16];
    if (s->all_tricks) {
        if (is_declarer && n == 0) {
            /* safe_leads */
            uint32_t opp1 = hands[NEXT[seat]], opp2 = hands[NEXT[NEXT[seat]]];
            uint32_t tm = t->trump_mask, opp = opp1 | opp2;
            int k = 0;
            for (int j = 0; j < nm; j++) {
                int i = moves[j];
                uint32_t f = t->follow[i];
                if (opp & f & ((1u << i) - 1))
                    continue;
                if (i >= t->trumps && (((opp1 & tm) && !(opp1 & f)) || ((opp2 & tm) && !(opp2 & f))))
                    continue;
                moves[k++] = (int8_t)i;
            }
            nm = k;
        } else if (!is_declarer && nm > 1) {
            uint32_t mine = hands[declarer];
            for (int j = 0; j < nm; j++) {
                int i = moves[j];
                int flag = i < t->trumps || (mine & t->follow[i]) != 0;
                keys[j] = flag << 6 | (31 - i);
            }
            sort_asc(keys, moves, nm);
        }
    } else if (is_declarer && n == 0) {
        /* forced_over */
        uint32_t opp1 = hands[NEXT[seat]], opp2 = hands[NEXT[NEXT[seat]]];
        int k = 0;
        for (int j = 0; j < nm; j++) {
            int i = moves[j];
            uint32_t f = t->follow[i];
            uint32_t under = f & ~(uint32_t)((2ULL << i) - 1);
            if (((opp1 & f) && !(opp1 & under)) || ((opp2 & f) && !(opp2 & under)))
                moves[k++] = (int8_t)i;
        }
        nm = k;
    } else if (nm > 1 && n) {
        if (is_declarer || bseat == declarer) {
            for (int j = 0; j < nm; j++)
                keys[j] = beats[moves[j] * 32 + best] << 6 | (31 - moves[j]);
        } else {
            for (int j = 0; j < nm; j++)
                keys[j] = (!beats[moves[j] * 32 + best]) << 6 | moves[j];
        }
        sort_asc(keys, moves, nm);
    } else if (nm > 1 && !is_declarer) {
        for (int j = 0; j < nm / 2; j++) {
            int8_t tmp = moves[j];
            moves[j] = moves[nm - 1 - j];
            moves[nm - 1 - j] = tmp;
        }
    }
    int nxt = NEXT[seat];
    int result = !is_declarer;
    for (int j = 0; j < nm; j++) {
        int i = moves[j];
        uint32_t bit = 1u << i;
        hands[seat] = hand ^ bit;
        int r;
        if (n == 0) {
            r = null_search(s, nxt, 1, i, seat, t->follow[i], bit);
        } else if (n == 1) {
            if (beats[i * 32 + best])
                r = null_search(s, nxt, 2, i, seat, follow, tmask | bit);
            else
                r = null_search(s, nxt, 2, best, bseat, follow, tmask | bit);
        } else {
            int winner = beats[i * 32 + best] ? seat : bseat;
            r = ((winner != declarer) == s->all_tricks) ? 0 : null_search(s, winner, 0, 0, 0, 0, 0);
        }
        if (s->aborted) {
            hands[seat] = hand;
            return 0;
        }
        if (r == is_declarer) {
            result = r;
            break;
        }
    }
    hands[seat] = hand;
    if (n == 0 && !tt_put(&s->null_tt, k1, k2, result)) {
        s->aborted = 2;
        return 0;
    }
    return result;
}

/* ------------------------------------------------------------------ Python glue */

static void tables_free(PyObject *capsule)
{
    Tables *t = (Tables *)PyCapsule_GetPointer(capsule, "solver_core.Tables");
    if (!t)
        return;
    for (int g = 0; g < t->ngroups; g++) {
        free(t->g_rows[g]);
        free(t->g_augen[g]);
    }
    free(t);
}

static int read_u32_seq(PyObject *seq, uint32_t *out, Py_ssize_t n, const char *what)
{
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd ints is needed", what, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(seq, i));
        if (v == (unsigned long)-1 && PyErr_Occurred())
            return 0;
        out[i] = (uint32_t)v;
    }
    return 1;
}

/* tables(trumps, points, klass, beats, follow, band_low, band_mask, plain, groups, bands) -> capsule
 * points, klass: 32 bytes; beats: 1024 bytes; follow, band_low: tuples of 32 ints; plain: a tuple
 * of masks; groups: the group masks from the trumps (if any) on, in numbering order; bands: the
 * bands of two or more cards as mask, first index, mask, first index, ... */
static PyObject *make_tables(PyObject *self, PyObject *args)
{
    int trumps;
    Py_buffer points, klass, beats;
    PyObject *follow, *band_low, *plain, *groups, *bands;
    unsigned long band_mask;
    if (!PyArg_ParseTuple(args, "iy*y*y*OOkOOO", &trumps, &points, &klass, &beats, &follow, &band_low, &band_mask,
                          &plain, &groups, &bands))
        return NULL;
    Tables *t = NULL;
    PyObject *out = NULL;
    if (points.len != 32 || klass.len != 32 || beats.len != 1024) {
        PyErr_SetString(PyExc_ValueError, "points and klass need 32 bytes, beats 1024");
        goto done;
    }
    t = (Tables *)calloc(1, sizeof(Tables));
    if (!t) {
        PyErr_NoMemory();
        goto done;
    }
    t->trumps = trumps;
    t->trump_mask = trumps ? (uint32_t)((1ULL << trumps) - 1) : 0;
    memcpy(t->pts, points.buf, 32);
    memcpy(t->klass, klass.buf, 32);
    memcpy(t->beats, beats.buf, 1024);
    if (!read_u32_seq(follow, t->follow, 32, "follow") || !read_u32_seq(band_low, t->band_low, 32, "band_low"))
        goto fail;
    t->band_mask = (uint32_t)band_mask;
    if (!PyTuple_Check(plain) || PyTuple_GET_SIZE(plain) > MAXG || !PyTuple_Check(groups) ||
        PyTuple_GET_SIZE(groups) > MAXG) {
        PyErr_SetString(PyExc_ValueError, "plain and groups: tuples of at most 8 masks");
        goto fail;
    }
    t->nplain = (int)PyTuple_GET_SIZE(plain);
    if (!read_u32_seq(plain, t->plain, t->nplain, "plain"))
        goto fail;
    t->ngroups = (int)PyTuple_GET_SIZE(groups);
    if (!read_u32_seq(groups, t->g_mask, t->ngroups, "groups"))
        goto fail;
    if (!PyTuple_Check(bands) || PyTuple_GET_SIZE(bands) % 2 || PyTuple_GET_SIZE(bands) > 32) {
        PyErr_SetString(PyExc_ValueError, "bands: a tuple of at most 16 (mask, first) pairs");
        goto fail;
    }
    t->nbands = (int)PyTuple_GET_SIZE(bands) / 2;
    {
        uint32_t flat[32];
        if (!read_u32_seq(bands, flat, 2 * t->nbands, "bands"))
            goto fail;
        for (int j = 0; j < t->nbands; j++) {
            if (flat[2 * j + 1] > 31) {
                PyErr_SetString(PyExc_ValueError, "bands: a first index is 0 to 31");
                goto fail;
            }
            t->band_masks[j] = flat[2 * j];
            t->band_first[j] = (int)flat[2 * j + 1];
        }
    }
    t->first_plain = trumps ? 1 : 0;
    for (int x = 0; x < 32; x++) {
        uint32_t over = 0;
        for (int y = 0; y < 32; y++)
            if (t->beats[y * 32 + x])
                over |= 1u << y;
        t->over[x] = over;
        t->group_of[x] = 0;
        for (int g = 0; g < t->ngroups; g++)
            if (t->g_mask[g] >> x & 1)
                t->group_of[x] = (uint8_t)g;
    }
    for (int g = 0; g < t->ngroups; g++) {
        uint32_t m = t->g_mask[g];
        if (!m) {
            PyErr_SetString(PyExc_ValueError, "an empty group");
            goto fail;
        }
        int shift = ctz32(m), width = popc(m);
        t->g_shift[g] = shift;
        t->g_width[g] = width;
        t->g_wmask[g] = (uint32_t)((1ULL << width) - 1);
        size_t rows = (size_t)1 << width;
        t->g_rows[g] = (uint8_t *)calloc(rows * (width + 1), 1);
        t->g_augen[g] = (uint8_t *)calloc(rows, 1);
        if (!t->g_rows[g] || !t->g_augen[g]) {
            PyErr_NoMemory();
            goto fail;
        }
        for (size_t r = 0; r < rows; r++) {
            int own[32], n = 0;
            for (int i = 0; i < width; i++)
                if (r >> i & 1)
                    own[n++] = t->pts[shift + i];
            for (int i = 1; i < n; i++) {
                int v = own[i], j = i - 1;
                while (j >= 0 && own[j] > v) {
                    own[j + 1] = own[j];
                    j--;
                }
                own[j + 1] = v;
            }
            int sum = 0;
            uint8_t *row = t->g_rows[g] + r * (width + 1);
            row[0] = 0;
            for (int k = 1; k <= width; k++) {
                if (k <= n)
                    sum += own[k - 1];
                row[k] = (uint8_t)sum;
            }
            t->g_augen[g][r] = (uint8_t)sum;
        }
    }
    /* (Augen, mask) from the cheapest up */
    t->npc = 0;
    for (int p = 0; p < 256; p++) {
        uint32_t m = 0;
        for (int i = 0; i < 32; i++)
            if (t->pts[i] == p)
                m |= 1u << i;
        if (m) {
            t->pc_p[t->npc] = p;
            t->pc_mask[t->npc] = m;
            t->npc++;
        }
    }
    for (int byte = 0; byte < 4; byte++)
        for (int v = 0; v < 256; v++) {
            int sum = 0;
            for (int i = 0; i < 8; i++)
                if (v >> i & 1)
                    sum += t->pts[byte * 8 + i];
            t->mpts[byte][v] = (uint8_t)sum;
        }
    out = PyCapsule_New(t, "solver_core.Tables", tables_free);
    if (!out)
        goto fail;
    goto done;
fail:
    if (t) {
        for (int g = 0; g < t->ngroups; g++) {
            free(t->g_rows[g]);
            free(t->g_augen[g]);
        }
        free(t);
    }
done:
    PyBuffer_Release(&points);
    PyBuffer_Release(&klass);
    PyBuffer_Release(&beats);
    return out;
}

static void core_dealloc(Core *self)
{
    free(self->tt.e);
    free(self->memo_b.e);
    free(self->memo_c.e);
    free(self->null_tt.e);
    Py_XDECREF(self->capsule);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int core_init(Core *self, PyObject *args, PyObject *kwds)
{
    PyObject *capsule;
    int declarer;
    if (!PyArg_ParseTuple(args, "Oi", &capsule, &declarer))
        return -1;
    const Tables *t = (const Tables *)PyCapsule_GetPointer(capsule, "solver_core.Tables");
    if (!t)
        return -1;
    if (declarer < 0 || declarer > 2) {
        PyErr_SetString(PyExc_ValueError, "declarer: 0, 1 or 2");
        return -1;
    }
    if (self->tt.e || self->capsule) {
        PyErr_SetString(PyExc_RuntimeError, "Core is set up once");
        return -1;
    }
    Py_INCREF(capsule);
    self->capsule = capsule;
    self->t = t;
    self->declarer = declarer;
    self->nodes = 0;
    self->limit = 1LL << 62;
    for (int i = 0; i < 12; i++)
        self->killer[i] = -1;
    if (!tt_init(&self->tt, 1 << 10) || !memo_init(&self->memo_b, 1 << 8) || !memo_init(&self->memo_c, 1 << 8) ||
        !tt_init(&self->null_tt, 1 << 8)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* search(lead, ha, hb, hc, left, alpha, beta, nodes, limit) -> value, or None past the node
 * budget; the nodes so far are in .nodes either way */
static PyObject *core_search(Core *self, PyObject *args)
{
    int lead, left, alpha, beta;
    unsigned long ha, hb, hc;
    long long nodes, limit;
    if (!self->t) {
        PyErr_SetString(PyExc_RuntimeError, "Core is not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "ikkkiiiLL", &lead, &ha, &hb, &hc, &left, &alpha, &beta, &nodes, &limit))
        return NULL;
    if (lead < 0 || lead > 2 || ha >> 32 || hb >> 32 || hc >> 32 || popc((uint32_t)ha) != popc((uint32_t)hb) ||
        popc((uint32_t)ha) != popc((uint32_t)hc) || popc((uint32_t)ha) > 10 ||
        ((ha & hb) | (ha & hc) | (hb & hc))) {
        PyErr_SetString(PyExc_ValueError, "search: a trick start with up to ten cards a hand is needed");
        return NULL;
    }
    self->nodes = nodes;
    self->limit = limit;
    self->aborted = 0;
    uint64_t k1 = (uint32_t)ha | (uint64_t)hb << 32;
    uint64_t k2 = (uint32_t)hc | (uint64_t)lead << 32;
    int v;
    /* the search touches no Python object: other threads run meanwhile */
    Py_BEGIN_ALLOW_THREADS
    int32_t entry = tt_get(&self->tt, k1, k2);
    v = trick(self, lead, (uint32_t)ha, (uint32_t)hb, (uint32_t)hc, left, alpha, beta, k1, k2, entry);
    Py_END_ALLOW_THREADS
    if (self->aborted == 2)
        return PyErr_NoMemory();
    if (self->aborted)
        Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* points(leader, trick, h0, h1, h2, tpts, left, alpha, beta, nodes, limit) -> value, or None past
 * the node budget: _Root.points, from inside a trick (trick: a tuple of 0 to 3 cards) */
static PyObject *core_points(Core *self, PyObject *args)
{
    int leader, tpts, left, alpha, beta;
    PyObject *trick_obj;
    unsigned long h0, h1, h2;
    long long nodes, limit;
    if (!self->t) {
        PyErr_SetString(PyExc_RuntimeError, "Core is not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iOkkkiiiiLL", &leader, &trick_obj, &h0, &h1, &h2, &tpts, &left, &alpha, &beta, &nodes,
                          &limit))
        return NULL;
    int8_t trick[4];
    uint32_t seen = 0;
    Py_ssize_t n = PyTuple_Check(trick_obj) ? PyTuple_GET_SIZE(trick_obj) : -1;
    if (n < 0 || n > 3 || leader < 0 || leader > 2 || h0 >> 32 || h1 >> 32 || h2 >> 32 ||
        ((h0 & h1) | (h0 & h2) | (h1 & h2))) {
        PyErr_SetString(PyExc_ValueError, "points: leader 0-2, a tuple of up to 3 cards, three disjoint hands");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(trick_obj, j));
        if (c == -1 && PyErr_Occurred())
            return NULL;
        if (c < 0 || c > 31 || (seen >> c & 1) || ((h0 | h1 | h2) >> c & 1)) {
            PyErr_SetString(PyExc_ValueError, "points: a trick card is 0 to 31, once, not in a hand");
            return NULL;
        }
        seen |= 1u << c;
        trick[j] = (int8_t)c;
    }
    uint32_t h[3] = {(uint32_t)h0, (uint32_t)h1, (uint32_t)h2};
    /* the hands before the trick: equal, at most ten cards (one more for who played to it) */
    int before[3];
    for (int k = 0; k < 3; k++)
        before[k] = popc(h[k]) + ((k - leader + 3) % 3 < n ? 1 : 0);
    if (before[0] != before[1] || before[0] != before[2] || before[0] > 10) {
        PyErr_SetString(PyExc_ValueError, "points: the hands do not fit the trick");
        return NULL;
    }
    self->nodes = nodes;
    self->limit = limit;
    self->aborted = 0;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = root_points(self, leader, trick, (int)n, h, tpts, left, alpha, beta);
    Py_END_ALLOW_THREADS
    if (self->aborted == 2)
        return PyErr_NoMemory();
    if (self->aborted)
        Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* null(seat, n, best, bseat, follow, tmask, h0, h1, h2, all_tricks, nodes, limit) -> bool, or None
 * past the node budget: _Search.null from the seat to move with n cards of the trick played */
static PyObject *core_null(Core *self, PyObject *args)
{
    int seat, n, best, bseat, all_tricks;
    unsigned long follow, tmask, h0, h1, h2;
    long long nodes, limit;
    if (!self->t) {
        PyErr_SetString(PyExc_RuntimeError, "Core is not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iiiikkkkkpLL", &seat, &n, &best, &bseat, &follow, &tmask, &h0, &h1, &h2, &all_tricks,
                          &nodes, &limit))
        return NULL;
    if (seat < 0 || seat > 2 || bseat < 0 || bseat > 2 || n < 0 || n > 2 || best < 0 || best > 31 || follow >> 32 ||
        tmask >> 32 || h0 >> 32 || h1 >> 32 || h2 >> 32 || ((h0 & h1) | (h0 & h2) | (h1 & h2)) ||
        popc((uint32_t)h0) > 10 || popc((uint32_t)h1) > 10 || popc((uint32_t)h2) > 10) {
        PyErr_SetString(PyExc_ValueError, "null: not a position of the yes/no search");
        return NULL;
    }
    self->hands[0] = (uint32_t)h0;
    self->hands[1] = (uint32_t)h1;
    self->hands[2] = (uint32_t)h2;
    self->all_tricks = all_tricks;
    self->nodes = nodes;
    self->limit = limit;
    self->aborted = 0;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = null_search(self, seat, n, best, bseat, (uint32_t)follow, (uint32_t)tmask);
    Py_END_ALLOW_THREADS
    if (self->aborted == 2)
        return PyErr_NoMemory();
    if (self->aborted)
        Py_RETURN_NONE;
    return PyBool_FromLong(v);
}

static PyObject *core_get_nodes(Core *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

static PyObject *core_get_entries(Core *self, void *closure) { return PyLong_FromSize_t(self->tt.n); }

static PyMethodDef core_methods[] = {
    {"search", (PyCFunction)core_search, METH_VARARGS,
     "search(lead, ha, hb, hc, left, alpha, beta, nodes, limit): _Search.trick from a trick start"},
    {"points", (PyCFunction)core_points, METH_VARARGS,
     "points(leader, trick, h0, h1, h2, tpts, left, alpha, beta, nodes, limit): _Root.points"},
    {"null", (PyCFunction)core_null, METH_VARARGS,
     "null(seat, n, best, bseat, follow, tmask, h0, h1, h2, all_tricks, nodes, limit): _Search.null"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef core_getset[] = {
    {"nodes", (getter)core_get_nodes, NULL, "the node count after the last search", NULL},
    {"entries", (getter)core_get_entries, NULL, "positions in the transposition table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "skatschule.engine._solver_core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Augen search of the open-hand solver (its transposition table and remembered orders).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};

static PyMethodDef module_methods[] = {
    {"tables", make_tables, METH_VARARGS, "The static tables of one game for Core."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_solver_core", "The native core of the open-hand solver (see solver.py).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__solver_core(void)
{
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
