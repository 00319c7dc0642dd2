/* The FBI expert's flat play-outs and scores, in C: the twins of functions
   of strategies/fbi/model.py, which stays the reference.

   - colour_totals(): model.colour_totals, each colour's total per seat and
     each seat's points from the slammers' card ids (new lists);
   - fictitious_play(): model.fictitious_play, the field-agent pick's model:
     rounds of contest() for every seat, each answer weighed by exp(score /
     temperature) (the libm exp Python's math.exp calls) and folded into the
     seat's mix;
   - held_tables(): model.held_tables, the arrests' sampled tables of the
     agents each seat holds (new tables of the given lists, shared, not
     copied; the draws call the stream's random());
   - contest(): model.contest, the field-agent pick's mean end score of each
     candidate pair over sampled tables of rival pairs (the draws call the
     stream's random(), the scores of a table are kept in the memo dict as
     the bytes of its doubles);
   - first_sums(): model.first_sums, first_scores of each of the arrests'
     sampled tables, summed;
   - first_scores(): model.first_scores, the arrests' look-ahead from my first
     arrest of a turn;
   - held_scores(): model.held_scores, the play-outs of one such table:
     flat_turns_held's end position for each of my pairs, each scored by
     flat_score;
   - best_bid(): model.best_bid, the bid's choice: each place's play-outs
     (flat_turns) and scores (flat_top) once, each option's best score with
     its card taken off (flat_given_up);
   - flat_turns(): model.flat_turns, the bid's play-outs (new lists);
   - flat_top(): model.flat_top, their scores and leaders;
   - flat_given_up(): model.flat_given_up, their best score once my bid card
     is taken off (the states are only read).

   A flat position is model.py's one list of ints (colour totals, points, the
   cards taken per colour, the agent each seat keeps); here it is an array of
   C longs. Each function reads its lists once, plays and scores in C and
   returns new Python objects, or None when an input is outside what it
   handles (sizes above the limits below, a colour or seat out of range, an
   int beyond +-2**40, a position of the wrong length, a weight that is not a
   float): the Python source then answers (and raises where it raises). It
   changes nothing it is given before it knows it can answer.

   Bit for bit: every float is computed in the Python source's order of
   operations (no fused multiply-adds: -ffp-contract=off): a seat's points
   as a double, plus bonus[c] * weight (the int converted, as Python's int *
   float does) for each colour it leads, in colour order; mine less the best
   rival's. The ints stay below 2**53, so every conversion is exact.

   Used only with the compiled build (strategies/fbi/__init__.py sets
   model.core); tests/games/fbi/test_flat_core.py holds each function to its
   Python twin on random tables and on every call of real expert games. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#define MAXN 8      /* seats */
#define MAXK 12     /* colours */
#define MAXCARDS 256 /* cards on the table, all colours */
#define MAXPAIRS 64 /* pairs of mine */
#define MAXST (MAXK * MAXN + 2 * MAXN + MAXK)
/* The largest value taken in: sums and memo keys stay far inside a 64-bit
   long. A 32-bit long (Windows) leaves the core unused (WIDE 0): the
   Python twins answer. */
#define WIDE (sizeof(long) >= 8)
#define BIG ((long)1 << (WIDE ? 40 : 20))

/* 0: done; 1: outside what C handles (answer None); -1: a Python error. */
#define OK 0
#define OUT 1

typedef struct {
    int n, k;
    long off[MAXK + 1]; /* colour c's cards are val[off[c]..off[c + 1]) in take order */
    long val[MAXCARDS];
} Front;

typedef struct {
    int len; /* 0, 1 (plays ag[0]) or 2 (plays the better, keeps the other) */
    int a, b;
} Agents;

static int get_long(PyObject *o, long *out) {
#if PY_VERSION_HEX < 0x030C0000
    /* An exact int of at most one digit (below 2**30, inside BIG): its
       value read from its one digit, without the general conversion (0
       reads no digit). */
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size >= -1 && size <= 1) {
            *out = size ? (long)size * (long)((PyLongObject *)o)->ob_digit[0] : 0;
            return OK;
        }
    }
#endif
    if (!PyLong_Check(o)) return OUT;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v > BIG || v < -BIG) return OUT;
    *out = v;
    return OK;
}

/* A list (or tuple) of ints into ``out`` (at most ``cap``); its length in *len. */
static int get_longs(PyObject *seq, long *out, Py_ssize_t cap, Py_ssize_t *len) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) return OUT;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (m > cap) return OUT;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < m; i++) {
        int r = get_long(items[i], &out[i]);
        if (r) return r;
    }
    *len = m;
    return OK;
}

static int get_front(PyObject *seq, Front *f) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) return OUT;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > MAXK) return OUT;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    long at = 0;
    for (Py_ssize_t c = 0; c < k; c++) {
        Py_ssize_t m;
        f->off[c] = at;
        int r = get_longs(items[c], f->val + at, MAXCARDS - at, &m);
        if (r) return r;
        at += (long)m;
    }
    f->off[k] = at;
    f->k = (int)k;
    return OK;
}

/* What a seat holds: a list of colours (flat_step reads ag[0] and ag[1]). */
static int get_agents(PyObject *seq, int k, Agents *ag) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) return OUT;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    long a = 0, b = 0;
    int r;
    ag->len = m == 0 ? 0 : m == 2 ? 2 : 1;
    if (m >= 1 && (r = get_long(items[0], &a))) return r;
    if (m == 2 && (r = get_long(items[1], &b))) return r;
    if (a < 0 || a >= k || b < 0 || b >= k) return OUT;
    ag->a = (int)a;
    ag->b = (int)b;
    return OK;
}

static int get_agents_list(PyObject *seq, int k, Agents *out, Py_ssize_t cap, Py_ssize_t *len) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) return OUT;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (m > cap) return OUT;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < m; i++) {
        int r = get_agents(items[i], k, &out[i]);
        if (r) return r;
    }
    *len = m;
    return OK;
}

/* The order of arrests: n seats, each in [0, n); *p: my place (OUT if I am not in it). */
static int get_order(PyObject *seq, int me, int *order, int *n, int *p) {
    long tmp[MAXN];
    Py_ssize_t m;
    int r = get_longs(seq, tmp, MAXN, &m);
    if (r) return r;
    *p = -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        if (tmp[i] < 0 || tmp[i] >= m) return OUT;
        order[i] = (int)tmp[i];
        if (*p < 0 && order[i] == me) *p = (int)i;
    }
    if (*p < 0) return OUT;
    *n = (int)m;
    return OK;
}

/* A flat position of n seats and k colours: its length, the cards taken
   (>= 0) and the colours kept (< k) as the play-outs may read them. */
static int get_position(PyObject *seq, int n, int k, long *st) {
    Py_ssize_t m;
    int r = get_longs(seq, st, MAXST, &m);
    if (r) return r;
    if (m != (Py_ssize_t)(k * n + 2 * n + k)) return OUT;
    for (int c = 0; c < k; c++)
        if (st[k * n + n + c] < 0) return OUT;
    for (int s = 0; s < n; s++)
        if (st[k * n + n + k + s] >= k) return OUT;
    return OK;
}

/* The bonus cards: the first k of a tuple (or list) of at least k ints. */
static int get_bonus(PyObject *seq, int k, long *bonus) {
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) return OUT;
    if (PySequence_Fast_GET_SIZE(seq) < k) return OUT;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int c = 0; c < k; c++) {
        int r = get_long(items[c], &bonus[c]);
        if (r) return r;
    }
    return OK;
}

static int get_weight(PyObject *o, double *w) {
    if (!PyFloat_Check(o)) return OUT;
    *w = PyFloat_AS_DOUBLE(o);
    return OK;
}

/* flat_arrest */
static inline void arrest(long *st, int seat, int c, const Front *f, int n, int k) {
    long ti = (long)k * n + n + c;
    long j = st[ti];
    if (j < f->off[c + 1] - f->off[c]) {
        long v = f->val[f->off[c] + j];
        st[ti] = j + 1;
        st[c * n + seat] += v;
        st[k * n + seat] += v;
    }
}

/* The colour my pair ``ag`` arrests in first from st0 (-1: none) and the
   agent it keeps for the second round (``keep0``, st0's, when it keeps
   none): what step_ does, read without playing. */
static inline int first_of(const long *st0, const Agents *ag, const Front *f, int n, int k, long keep0, long *keep) {
    *keep = keep0;
    if (ag->len == 2) {
        long taken = (long)k * n + n;
        int a = ag->a, b = ag->b;
        long ka = st0[taken + a], kb = st0[taken + b];
        long va = ka < f->off[a + 1] - f->off[a] ? f->val[f->off[a] + ka] : 0;
        long vb = kb < f->off[b + 1] - f->off[b] ? f->val[f->off[b] + kb] : 0;
        *keep = vb > va ? a : b;
        return vb > va ? b : a;
    }
    return ag->len == 1 ? ag->a : -1;
}

/* flat_step: my pair's first arrest, the other agent kept for the second round */
static inline void step_(long *st, int seat, const Agents *ag, const Front *f, int n, int k) {
    long kept = (long)k * n + n + k + seat;
    long keep;
    int c = first_of(st, ag, f, n, k, st[kept], &keep);
    if (c < 0) return;
    st[kept] = keep;
    arrest(st, seat, c, f, n, k);
}

/* The second round: each seat, in reverse order, plays the agent it kept. */
static inline void second_round(long *st, const int *order, const Front *f, int n, int k) {
    long kept = (long)k * n + n + k;
    for (int i = n - 1; i >= 0; i--) {
        int seat = order[i];
        long c = st[kept + seat];
        if (c >= 0) arrest(st, seat, (int)c, f, n, k);
    }
}

/* my points less the best rival's, from each seat's points with its bonus
   cards added: pts[s] gets bonus[c] * w for each colour c it leads, in colour
   order (the additions the Python source makes to each seat, in its order). */
static double margin(int me, const double *pts, int n) {
    double best = -INFINITY;
    for (int s = 0; s < n; s++)
        if (s != me && pts[s] > best) best = pts[s];
    return pts[me] - best;
}

/* led_score: my points less the best rival's, bonus cards of ``lead``. */
static double led(int me, const long *st, int n, int k, const long *bonus, double w, const int *lead) {
    double pts[MAXN];
    const long *points = st + (long)k * n;
    for (int s = 0; s < n; s++) pts[s] = (double)points[s];
    for (int c = 0; c < k; c++)
        if (lead[c] >= 0) pts[lead[c]] += (double)bonus[c] * w;
    return margin(me, pts, n);
}

/* flat_score: the leaders of a flat position (column_leader of each colour)
   into lead, and led_score of them. */
static double score(int me, const long *st, int n, int k, const long *bonus, double w, int needs, int *lead) {
    double pts[MAXN];
    const long *points = st + (long)k * n;
    for (int s = 0; s < n; s++) pts[s] = (double)points[s];
    for (int c = 0; c < k; c++) {
        const long *col = st + (long)c * n;
        long top = col[0];
        int who = 0, ties = 1;
        for (int s = 1; s < n; s++) {
            long v = col[s];
            if (v > top) {
                top = v;
                who = s;
                ties = 1;
            } else if (v == top) {
                ties++;
            }
        }
        if (ties == 1 && (top > 0 || !needs)) {
            lead[c] = who;
            pts[who] += (double)bonus[c] * w;
        } else {
            lead[c] = -1;
        }
    }
    return margin(me, pts, n);
}

static PyObject *position_list(const long *st, long len) {
    PyObject *out = PyList_New(len);
    if (!out) return NULL;
    for (long i = 0; i < len; i++) {
        PyObject *v = PyLong_FromLong(st[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *float_list(const double *x, Py_ssize_t m) {
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *f = PyFloat_FromDouble(x[i]);
        if (!f) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, f);
    }
    return out;
}

static PyObject *answer(int r) {
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

/* What flat_turns and held_scores read: the order, my pairs, the position
   and the front. */
typedef struct {
    int me, n, k, p;
    int order[MAXN];
    Agents mine[MAXPAIRS];
    Py_ssize_t m;
    Front f;
    long base[MAXST];
} Turns;

static int get_turns(PyObject *const *args, Turns *t) {
    long me;
    int r;
    if ((r = get_long(args[1], &me))) return r;
    if (me < 0 || me >= MAXN) return OUT;
    t->me = (int)me;
    if ((r = get_order(args[0], t->me, t->order, &t->n, &t->p))) return r;
    if ((r = get_front(args[4], &t->f))) return r;
    t->k = t->f.k;
    if ((r = get_agents_list(args[2], t->k, t->mine, MAXPAIRS, &t->m))) return r;
    return get_position(args[5], t->n, t->k, t->base);
}

/* The end position of my pair ``i`` into st (the seats before me already
   played into st0). */
static void play_pair(const Turns *t, const long *st0, const Agents *held, int i, long *st) {
    int n = t->n, k = t->k;
    memcpy(st, st0, sizeof(long) * (size_t)(k * n + 2 * n + k));
    step_(st, t->me, &t->mine[i], &t->f, n, k);
    for (int j = t->p + 1; j < n; j++) step_(st, t->order[j], &held[t->order[j]], &t->f, n, k);
    second_round(st, t->order, &t->f, n, k);
}

static void play_before(const Turns *t, const Agents *held, long *st0) {
    memcpy(st0, t->base, sizeof(long) * (size_t)(t->k * t->n + 2 * t->n + t->k));
    for (int j = 0; j < t->p; j++) step_(st0, t->order[j], &held[t->order[j]], &t->f, t->n, t->k);
}

#if defined(__GNUC__)
#define ALWAYS static inline __attribute__((always_inline))
#define UNROLL _Pragma("GCC unroll 12")
#else
#define ALWAYS static inline
#define UNROLL
#endif

/* column_leader of the n totals at col: the seat of the single highest
   total, if above 0 or not ``needs`` (-1: nobody). The seat is the sum of
   the seats holding the highest total, which is that seat when it is the
   only one: the answer of score's scan, without its branches. */
ALWAYS int lead_of(const long *col, int n, int needs) {
    long top = col[0];
    UNROLL
    for (int s = 1; s < n; s++) top = col[s] > top ? col[s] : top;
    int ties = 0, who = 0;
    UNROLL
    for (int s = 0; s < n; s++) {
        int eq = col[s] == top;
        ties += eq;
        who += eq * s;
    }
    return ties == 1 && (top > 0 || !needs) ? who : -1;
}

/* A group of my pairs played to mid (the position before my second
   arrest) and the leaders of its colours asked so far (``known``: their
   bits). */
typedef struct {
    long *mid;
    unsigned known;
    int lead[MAXK];
} Mid;

/* The end position my pair keeping ``keep`` leaves from g's mid: its
   totals and points (the first k*n + n ints) played into mid by the second
   round's arrests of my seat and the seats before me, each that takes a
   card kept in ac/as/av (colour, seat, value; *na of them) to be undone
   (untail); the colours whose cards were taken. */
ALWAYS unsigned tail(const Turns *t, Mid *g, long keep, int n, int k, int *ac, int *as, long *av, int *na) {
    long taken = (long)k * n + n, kept = taken + k;
    long *mid = g->mid;
    unsigned used = 0; /* the colours a card was taken from: next[c] holds their next card */
    long next[MAXK];
    *na = 0;
    for (int j = t->p; j >= 0; j--) {
        int seat = t->order[j];
        long c = j == t->p ? keep : mid[kept + seat];
        if (c < 0) continue;
        long i = used >> c & 1 ? next[c] : mid[taken + c];
        if (i >= t->f.off[c + 1] - t->f.off[c]) continue;
        long v = t->f.val[t->f.off[c] + i];
        next[c] = i + 1;
        used |= 1u << c;
        mid[c * n + seat] += v;
        mid[(long)k * n + seat] += v;
        ac[*na] = (int)c;
        as[*na] = seat;
        av[(*na)++] = v;
    }
    return used;
}

/* The arrests tail played into mid, taken back. */
ALWAYS void untail(long *mid, int n, int k, const int *ac, const int *as, const long *av, int na) {
    for (int a = 0; a < na; a++) {
        mid[(long)ac[a] * n + as[a]] -= av[a];
        mid[(long)k * n + as[a]] -= av[a];
    }
}

/* score of st, the end position a pair of g's group leaves (``touched``:
   the colours taken from after mid), its leaders into lead: score's leaders
   and float operations in score's order, a colour not touched leading as in
   mid (found once a group). bw[c]: bonus[c] * w, the product score
   computes each time. */
ALWAYS double tail_score(int me, const long *st, unsigned touched, Mid *g, const double *bw, int needs, int *lead,
                         int n, int k) {
    double pts[MAXN];
    UNROLL
    for (int s = 0; s < n; s++) pts[s] = (double)st[(long)k * n + s];
    UNROLL
    for (int c = 0; c < k; c++) {
        int who;
        if (touched >> c & 1) {
            who = lead_of(st + (long)c * n, n, needs);
        } else {
            if (!(g->known >> c & 1)) {
                g->lead[c] = lead_of(st + (long)c * n, n, needs);
                g->known |= 1u << c;
            }
            who = g->lead[c];
        }
        lead[c] = who;
        if (who >= 0) pts[who] += bw[c];
    }
    return margin(me, pts, n);
}

/* pair_ends for n seats and k colours (constants where pair_ends
   specialises it). */
ALWAYS void pair_ends_nk(const Turns *t, const long *st0, const Agents *held, const double *bw, int needs,
                         double *out, int (*leads)[MAXK], long *ends, long stride, int n, int k) {
    int me = t->me, p = t->p;
    long kept = (long)k * n + n + k;
    size_t len = sizeof(long) * (size_t)(kept + n);
    long mid[MAXST], keep[MAXPAIRS];
    int first[MAXPAIRS], lead[MAXK];
    int after[MAXPAIRS], last[MAXK + 1]; /* after[i]: the next pair whose first arrest is first[i] (-1: none) */
    Mid g = {mid, 0, {0}}; /* lead read only where known says it was written */
    for (int c = 0; c <= k; c++) last[c] = -1;
    for (Py_ssize_t i = t->m - 1; i >= 0; i--) {
        first[i] = first_of(st0, &t->mine[i], &t->f, n, k, st0[kept + me], &keep[i]);
        after[i] = last[first[i] + 1];
        last[first[i] + 1] = (int)i;
    }
    for (int c = 0; c <= k; c++) {
        if (last[c] < 0) continue;
        memcpy(mid, st0, len);
        if (c > 0) arrest(mid, me, c - 1, &t->f, n, k);
        for (int j = p + 1; j < n; j++) step_(mid, t->order[j], &held[t->order[j]], &t->f, n, k);
        for (int j = n - 1; j > p; j--) {
            int seat = t->order[j];
            long kc = mid[kept + seat];
            if (kc >= 0) arrest(mid, seat, (int)kc, &t->f, n, k);
        }
        g.known = 0;
        for (int h = last[c]; h >= 0; h = after[h]) {
            int ac[MAXN], as[MAXN], na;
            long av[MAXN];
            unsigned touched = tail(t, &g, keep[h], n, k, ac, as, av, &na);
            out[h] = tail_score(me, mid, touched, &g, bw, needs, leads ? leads[h] : lead, n, k);
            if (ends) { /* the whole end position, as play_pair leaves it */
                long *end = ends + h * stride;
                memcpy(end, mid, len);
                for (int j = p; j >= 0; j--) {
                    long kc = j == p ? keep[h] : mid[kept + t->order[j]];
                    if (kc >= 0 && end[k * n + n + kc] < t->f.off[kc + 1] - t->f.off[kc]) end[k * n + n + kc]++;
                }
                end[kept + me] = keep[h];
            }
            untail(mid, n, k, ac, as, av, na);
        }
    }
}

/* Each of my pairs' end position, scored into out[i] (its leaders into
   leads[i] when given; each end position kept at ends + i * stride when
   given), the seats before me already played into st0: as play_pair plays,
   scored as score scores. My pairs whose first arrest is in the same colour
   share the turn up to my second arrest (the seats after me take the same
   cards whatever I keep), so that part is played once per colour; each pair
   then plays the rest (tail) and is scored where it changed the leaders
   (tail_score). */
static void pair_ends(const Turns *t, const long *st0, const Agents *held, const long *bonus, double w, int needs,
                      double *out, int (*leads)[MAXK], long *ends, long stride) {
    double bw[MAXK];
    for (int c = 0; c < t->k; c++) bw[c] = (double)bonus[c] * w;
    if (t->k == 5 && t->n == 3)
        pair_ends_nk(t, st0, held, bw, needs, out, leads, ends, stride, 3, 5);
    else if (t->k == 5 && t->n == 4)
        pair_ends_nk(t, st0, held, bw, needs, out, leads, ends, stride, 4, 5);
    else if (t->k == 5 && t->n == 5)
        pair_ends_nk(t, st0, held, bw, needs, out, leads, ends, stride, 5, 5);
    else
        pair_ends_nk(t, st0, held, bw, needs, out, leads, ends, stride, t->n, t->k);
}

/* Held scores of my pairs into out[0..m) (doubles). */
static void held_into(const Turns *t, const Agents *held, const long *bonus, double w, int needs, double *out) {
    long st0[MAXST];
    play_before(t, held, st0);
    pair_ends(t, st0, held, bonus, w, needs, out, NULL, NULL, 0);
}

/* draw_index: the index a uniform draw u picks from cumulative weights. */
static int draw(const double *cum, int len, double u) {
    double x = u * cum[len - 1];
    for (int i = 0; i < len; i++)
        if (x < cum[i]) return i;
    return len - 1;
}

/* flat_turns(order, me, my_pairs, others, front, base) */
static PyObject *py_flat_turns(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "flat_turns takes 6 arguments");
        return NULL;
    }
    Turns t;
    Agents others;
    int r = get_turns(args, &t);
    if (r) return answer(r);
    if ((r = get_agents(args[3], t.k, &others))) return answer(r);
    Agents held[MAXN];
    for (int s = 0; s < t.n; s++) held[s] = others;
    long st0[MAXST], st[MAXST];
    long len = (long)t.k * t.n + 2 * t.n + t.k;
    play_before(&t, held, st0);
    PyObject *out = PyList_New(t.m);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < t.m; i++) {
        play_pair(&t, st0, held, (int)i, st);
        PyObject *one = position_list(st, len);
        if (!one) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, one);
    }
    return out;
}

/* held_scores(order, me, my_pairs, held, front, base, bonus, bonus_weight, needs_positive) */
static PyObject *py_held_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "held_scores takes 9 arguments");
        return NULL;
    }
    Turns t;
    int r = get_turns(args, &t);
    if (r) return answer(r);
    Agents held[MAXN];
    Py_ssize_t nh;
    if ((r = get_agents_list(args[3], t.k, held, MAXN, &nh))) return answer(r);
    if (nh < t.n) return answer(OUT);
    long bonus[MAXK];
    double w;
    if ((r = get_bonus(args[6], t.k, bonus)) || (r = get_weight(args[7], &w))) return answer(r);
    int needs = PyObject_IsTrue(args[8]);
    if (needs < 0) return NULL;
    double got[MAXPAIRS];
    held_into(&t, held, bonus, w, needs, got);
    PyObject *out = PyTuple_New(t.m);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < t.m; i++) {
        PyObject *v = PyFloat_FromDouble(got[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* What flat_top and flat_given_up read: me, the states, n, k, bonus, weight, needs. */
typedef struct {
    int me, n, k, needs;
    Py_ssize_t count;
    PyObject **states;
    long bonus[MAXK];
    double w;
} Scored;

static int get_scored(PyObject *const *args, Scored *s) {
    long me, n, k;
    int r;
    if ((r = get_long(args[0], &me)) || (r = get_long(args[2], &n)) || (r = get_long(args[3], &k))) return r;
    if (n < 1 || n > MAXN || k < 0 || k > MAXK || me < 0 || me >= n) return OUT;
    s->me = (int)me;
    s->n = (int)n;
    s->k = (int)k;
    if ((r = get_bonus(args[4], s->k, s->bonus)) || (r = get_weight(args[5], &s->w))) return r;
    /* a bool only, and the list read last: nothing runs Python code (that
       could resize the list) once its items are held */
    if (!PyBool_Check(args[6]) || !PyList_Check(args[1])) return OUT;
    s->needs = args[6] == Py_True;
    s->count = PyList_GET_SIZE(args[1]);
    s->states = ((PyListObject *)args[1])->ob_item;
    return OK;
}

/* A state of flat_top / flat_given_up: its first k*n + n ints (what a score
   reads; the rest is never read). */
static int get_state(PyObject *o, int n, int k, long *st) {
    if (!PyList_Check(o) || PyList_GET_SIZE(o) < (Py_ssize_t)(k * n + n)) return OUT;
    PyObject **items = ((PyListObject *)o)->ob_item;
    for (int i = 0; i < k * n + n; i++) {
        int r = get_long(items[i], &st[i]);
        if (r) return r;
    }
    return OK;
}

static PyObject *lead_list(const int *lead, int k) {
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int c = 0; c < k; c++) {
        PyObject *v = PyLong_FromLong(lead[c]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, c, v);
    }
    return out;
}

/* flat_top(me, states, n, k, bonus, bonus_weight, needs_positive, scores, leads) */
static PyObject *py_flat_top(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "flat_top takes 9 arguments");
        return NULL;
    }
    Scored s;
    int r = get_scored(args, &s);
    if (r) return answer(r);
    if (!PyList_Check(args[7]) || !PyList_Check(args[8]) || s.count > MAXPAIRS) return answer(OUT);
    long st[MAXPAIRS][MAXK * MAXN + MAXN];
    for (Py_ssize_t i = 0; i < s.count; i++)
        if ((r = get_state(s.states[i], s.n, s.k, st[i]))) return answer(r);
    double v = -1e9;
    int lead[MAXK];
    for (Py_ssize_t i = 0; i < s.count; i++) {
        double sc = score(s.me, st[i], s.n, s.k, s.bonus, s.w, s.needs, lead);
        PyObject *f = PyFloat_FromDouble(sc);
        if (!f) return NULL;
        r = PyList_Append(args[7], f);
        Py_DECREF(f);
        if (r < 0) return NULL;
        PyObject *l = lead_list(lead, s.k);
        if (!l) return NULL;
        r = PyList_Append(args[8], l);
        Py_DECREF(l);
        if (r < 0) return NULL;
        if (sc > v) v = sc;
    }
    return PyFloat_FromDouble(v);
}

/* column_leader of colour c */
static int column(const long *st, int c, int n, int needs) {
    const long *col = st + (long)c * n;
    long best = col[0];
    int at = 0, ties = 1;
    for (int s = 1; s < n; s++) {
        if (col[s] > best) {
            best = col[s];
            at = s;
            ties = 1;
        } else if (col[s] == best) {
            ties++;
        }
    }
    return ties == 1 && (best > 0 || !needs) ? at : -1;
}

/* flat_given_up's loop over ``count`` states (state i at st + i * stride;
   changed and restored): the best score once my card of colour c (-1:
   purple) and value x is taken off. With scores (exact), was[i]: state i's
   leaders. lead: the scratch the Python source leaves, *wrote set when
   written. */
static double given_up(const Scored *s, long *st, long stride, Py_ssize_t count, long c, long x,
                       const double *scores, int (*was)[MAXK], int *lead, int *wrote) {
    int n = s->n, k = s->k, me = s->me;
    long mi = (long)k * n + me, ci = c * n + me;
    double v = -1e9;
    for (Py_ssize_t i = 0; i < count; i++) {
        double sc;
        long *p = st + i * stride;
        if (scores && c < 0) {
            sc = scores[i] - (double)x;
        } else {
            if (c >= 0) p[ci] -= x;
            int now = scores ? column(p, (int)c, n, s->needs) : -2;
            if (scores && now == was[i][c]) {
                sc = scores[i] - (double)x;
            } else {
                p[mi] -= x;
                if (scores) {
                    memcpy(lead, was[i], sizeof(int) * (size_t)k);
                    lead[c] = now;
                    sc = led(me, p, n, k, s->bonus, s->w, lead);
                } else {
                    sc = score(me, p, n, k, s->bonus, s->w, s->needs, lead);
                }
                p[mi] += x;
                *wrote = 1;
            }
            if (c >= 0) p[ci] += x;
        }
        if (sc > v) v = sc;
    }
    return v;
}

/* flat_given_up(me, states, n, k, bonus, bonus_weight, needs_positive, lead, c, x, scores, leads) */
static PyObject *py_flat_given_up(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "flat_given_up takes 12 arguments");
        return NULL;
    }
    Scored s;
    int r = get_scored(args, &s);
    if (r) return answer(r);
    long c, x;
    if ((r = get_long(args[8], &c)) || (r = get_long(args[9], &x))) return answer(r);
    if (c >= s.k || !PyList_Check(args[7]) || PyList_GET_SIZE(args[7]) < s.k || s.count > MAXPAIRS)
        return answer(OUT);
    int exact = args[10] != Py_None;
    if (c < 0) c = -1;
    /* what the Python source reads: the scores (floats) and, for a colour,
       each state's leaders (ints in [-1, n)) */
    double scores[MAXPAIRS];
    int was[MAXPAIRS][MAXK];
    if (exact) {
        PyObject *sc = args[10], *ld = args[11];
        if (!PyList_Check(sc) || PyList_GET_SIZE(sc) < s.count) return answer(OUT);
        for (Py_ssize_t i = 0; i < s.count; i++) {
            PyObject *o = PyList_GET_ITEM(sc, i);
            if (!PyFloat_Check(o)) return answer(OUT);
            scores[i] = PyFloat_AS_DOUBLE(o);
        }
        if (c >= 0) {
            if (!PyList_Check(ld) || PyList_GET_SIZE(ld) < s.count) return answer(OUT);
            for (Py_ssize_t i = 0; i < s.count; i++) {
                long tmp[MAXK];
                Py_ssize_t m;
                if ((r = get_longs(PyList_GET_ITEM(ld, i), tmp, MAXK, &m))) return answer(r);
                if (m != s.k) return answer(OUT);
                for (int j = 0; j < s.k; j++) {
                    if (tmp[j] < -1 || tmp[j] >= s.n) return answer(OUT);
                    was[i][j] = (int)tmp[j];
                }
            }
        }
    }
    long st[MAXPAIRS][MAXK * MAXN + MAXN];
    if (!(exact && c < 0))
        for (Py_ssize_t i = 0; i < s.count; i++)
            if ((r = get_state(s.states[i], s.n, s.k, st[i]))) return answer(r);
    int lead[MAXK];
    int wrote = 0; /* whether lead changed (the Python source's scratch) */
    double v = given_up(&s, &st[0][0], MAXK * MAXN + MAXN, s.count, c, x, exact ? scores : NULL, was, lead, &wrote);
    if (wrote) {
        for (int j = 0; j < s.k; j++) {
            PyObject *o = PyLong_FromLong(lead[j]);
            if (!o || PyList_SetItem(args[7], j, o) < 0) return NULL;
        }
    }
    return PyFloat_FromDouble(v);
}

#define MAXOPTS 64 /* the bid's options */

/* What best_bid reads: the others in their order (rest), my pairs, what the
   others hold, the front and the position (in t, whose order and p are set
   per place), the scoring (in sc: me, n, k, bonus, weight, needs), and per
   option its card's value and colour and my place. */
typedef struct {
    Turns t;
    Scored sc;
    int rest[MAXN];
    Agents others;
    int exact;
    long keep;
    Py_ssize_t count;
    long values[MAXOPTS], colours[MAXOPTS], places[MAXOPTS];
} Bid;

/* exact_scores: the weight a multiple of 2**-20, every bonus card below 2**20 in size. */
static int exact_of(PyObject *bonus, double w) {
    double y = w * 1048576.0;
    if (!isfinite(y) || floor(y) != y) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(bonus);
    for (Py_ssize_t c = 0; c < k; c++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(bonus, c));
        if (b >= 1048576 || b <= -1048576) return 0;
    }
    return 1;
}

/* The options: values, colours and places, as many of each, places in [0, n). */
static int get_options(PyObject *const *a, Bid *b) {
    Py_ssize_t m, m2, m3;
    int r;
    if ((r = get_longs(a[0], b->values, MAXOPTS, &m)) || (r = get_longs(a[1], b->colours, MAXOPTS, &m2)) ||
        (r = get_longs(a[2], b->places, MAXOPTS, &m3)))
        return r;
    if (m != m2 || m != m3) return OUT;
    for (Py_ssize_t j = 0; j < m; j++) {
        if (b->places[j] < 0 || b->places[j] >= b->t.n) return OUT;
        if (b->colours[j] >= b->t.k) return OUT;
        if (b->colours[j] < 0) b->colours[j] = -1;
    }
    b->count = m;
    return OK;
}

/* args: rest, me, places, values, colours, keep, my_pairs, others, front, base, bonus, bonus_weight,
   needs_positive */
static int get_bid(PyObject *const *args, Bid *b) {
    long me, tmp[MAXN];
    Py_ssize_t nr;
    int r;
    if ((r = get_long(args[1], &me)) || (r = get_long(args[5], &b->keep))) return r;
    if ((r = get_longs(args[0], tmp, MAXN - 1, &nr))) return r;
    Turns *t = &b->t;
    t->n = (int)nr + 1;
    if (me < 0 || me >= t->n) return OUT;
    t->me = (int)me;
    for (Py_ssize_t i = 0; i < nr; i++) {
        if (tmp[i] < 0 || tmp[i] >= t->n || tmp[i] == me) return OUT; /* my place: where I am put */
        b->rest[i] = (int)tmp[i];
    }
    if ((r = get_front(args[8], &t->f))) return r;
    t->k = t->f.k;
    if ((r = get_agents_list(args[6], t->k, t->mine, MAXPAIRS, &t->m)) || (r = get_agents(args[7], t->k, &b->others)))
        return r;
    if ((r = get_position(args[9], t->n, t->k, t->base))) return r;
    PyObject *const opts[3] = {args[3], args[4], args[2]};
    if ((r = get_options(opts, b))) return r;
    Scored *sc = &b->sc;
    sc->me = t->me;
    sc->n = t->n;
    sc->k = t->k;
    if (!PyTuple_Check(args[10]) || PyTuple_GET_SIZE(args[10]) != t->k) return OUT;
    if ((r = get_bonus(args[10], t->k, sc->bonus)) || (r = get_weight(args[11], &sc->w))) return r;
    if (!PyBool_Check(args[12])) return OUT;
    sc->needs = args[12] == Py_True;
    b->exact = exact_of(args[10], sc->w);
    return OK;
}

/* One place of mine in the order: its end positions (flat_turns, one per
   pair, ``stride`` longs each), each one's score and leaders, and the best
   (flat_top). */
static double place_ends(Bid *b, int p, long *ends, long stride, double *scores, int (*leads)[MAXK]) {
    Turns *t = &b->t;
    Agents held[MAXN];
    long st0[MAXST];
    for (int i = 0, j = 0; i < t->n; i++) {
        t->order[i] = i == p ? t->me : b->rest[j++];
        held[i] = b->others;
    }
    t->p = p;
    play_before(t, held, st0);
    pair_ends(t, st0, held, b->sc.bonus, b->sc.w, b->sc.needs, scores, leads, ends, stride);
    double top = -1e9;
    for (Py_ssize_t i = 0; i < t->m; i++)
        if (scores[i] > top) top = scores[i];
    return top;
}

/* The options scored in order, each place's turn played when first needed:
   the index of the best (-1: none above -1e9). */
static long choose_bid(Bid *b, long *ends, double *scores, int (*leads)[MAXK]) {
    Py_ssize_t m = b->t.m;
    long stride = (long)b->t.k * b->t.n + 2 * b->t.n + b->t.k;
    double top[MAXN];
    int done[MAXN] = {0}, lead[MAXK], wrote = 0;
    long best = -1;
    double best_v = -1e9;
    for (Py_ssize_t j = 0; j < b->count; j++) {
        long x = b->values[j];
        int p = (int)b->places[j];
        long *at = ends + p * m * stride;
        if (!done[p]) {
            top[p] = place_ends(b, p, at, stride, scores + p * m, leads + p * m);
            done[p] = 1;
        }
        double v;
        if (j == b->keep)
            v = top[p];
        else if (x > 0 && top[p] - (double)x + 1e-7 <= best_v + 1e-9)
            continue;
        else
            v = given_up(&b->sc, at, stride, m, b->colours[j], x, b->exact ? scores + p * m : NULL, leads + p * m,
                         lead, &wrote);
        if (v > best_v + 1e-9) {
            best = (long)j;
            best_v = v;
        }
    }
    return best;
}

/* best_bid(rest, me, places, values, colours, keep, my_pairs, others, front, base, bonus, bonus_weight,
            needs_positive) */
static PyObject *py_best_bid(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "best_bid takes 13 arguments");
        return NULL;
    }
    Bid b;
    int r = get_bid(args, &b);
    if (r) return answer(r);
    Py_ssize_t cells = (Py_ssize_t)b.t.n * (b.t.m ? b.t.m : 1);
    long stride = (long)b.t.k * b.t.n + 2 * b.t.n + b.t.k;
    long *ends = PyMem_Malloc(sizeof(long) * (size_t)(cells * stride));
    double *scores = PyMem_Malloc(sizeof(double) * (size_t)cells);
    int(*leads)[MAXK] = PyMem_Malloc(sizeof(int[MAXK]) * (size_t)cells);
    PyObject *out = NULL;
    if (!ends || !scores || !leads)
        PyErr_NoMemory();
    else
        out = PyLong_FromLong(choose_bid(&b, ends, scores, leads));
    PyMem_Free(ends);
    PyMem_Free(scores);
    PyMem_Free(leads);
    return out;
}

#define MAXCUM MAXPAIRS

/* flat_position(totals, points): k colour rows of n ints, n points. */
static int get_base(PyObject *totals, PyObject *points, int n, int k, long *st) {
    int r;
    Py_ssize_t len;
    if (!PyList_Check(totals) || PyList_GET_SIZE(totals) != k) return OUT;
    for (int c = 0; c < k; c++) {
        if ((r = get_longs(PyList_GET_ITEM(totals, c), st + c * n, MAXN, &len))) return r;
        if (len != n) return OUT;
    }
    if ((r = get_longs(points, st + k * n, MAXN, &len))) return r;
    if (len != n) return OUT;
    for (int c = 0; c < k; c++) st[k * n + n + c] = 0;
    for (int s = 0; s < n; s++) st[k * n + n + k + s] = -1;
    return OK;
}

/* What first_scores reads besides the agents held: the order, me, the
   step, the first arrests (colours), my two agents, the front, the
   position and the scoring. */
typedef struct {
    int order[MAXN], n, k, me, step, needs;
    Py_ssize_t nf;
    long firsts[MAXPAIRS], mine[2];
    Front f;
    long base[MAXST], bonus[MAXK];
    double w;
} First;

/* a: order, me, step, firsts, my_agents, front, totals, points, bonus, bonus_weight, needs_positive */
static int get_first(PyObject *const *a, First *F) {
    long me, step;
    int p, r;
    Py_ssize_t nm;
    if ((r = get_long(a[1], &me)) || (r = get_long(a[2], &step))) return r;
    if (me < 0 || me >= MAXN) return OUT;
    if ((r = get_order(a[0], (int)me, F->order, &F->n, &p))) return r;
    if (step < 0 || step >= F->n) return OUT;
    F->me = (int)me;
    F->step = (int)step;
    if ((r = get_front(a[5], &F->f))) return r;
    int k = F->k = F->f.k;
    if ((r = get_longs(a[3], F->firsts, MAXPAIRS, &F->nf)) || (r = get_longs(a[4], F->mine, 2, &nm))) return r;
    if (nm != 2 || F->mine[0] < 0 || F->mine[0] >= k || F->mine[1] < 0 || F->mine[1] >= k) return OUT;
    for (Py_ssize_t j = 0; j < F->nf; j++)
        if (F->firsts[j] != F->mine[0] && F->firsts[j] != F->mine[1]) return OUT; /* list.remove fails */
    if ((r = get_base(a[6], a[7], F->n, k, F->base))) return r;
    if ((r = get_bonus(a[8], k, F->bonus)) || (r = get_weight(a[9], &F->w))) return r;
    F->needs = PyObject_IsTrue(a[10]);
    return F->needs < 0 ? -1 : OK;
}

/* The end score of each first arrest of mine, the seats holding ``agents``, into out[0..nf). */
static void first_into(const First *F, const Agents *agents, double *out) {
    int n = F->n, k = F->k, me = F->me;
    long kept = (long)k * n + n + k, base[MAXST], st[MAXST];
    int lead[MAXK];
    memcpy(base, F->base, sizeof(long) * (size_t)(kept + n));
    for (int i = 0; i < F->step; i++)
        if (agents[F->order[i]].len) base[kept + F->order[i]] = agents[F->order[i]].a;
    for (Py_ssize_t j = 0; j < F->nf; j++) {
        int first = (int)F->firsts[j];
        memcpy(st, base, sizeof(long) * (size_t)(kept + n));
        st[kept + me] = F->mine[0] == first ? F->mine[1] : F->mine[0];
        arrest(st, me, first, &F->f, n, k);
        for (int i = F->step + 1; i < n; i++) step_(st, F->order[i], &agents[F->order[i]], &F->f, n, k);
        second_round(st, F->order, &F->f, n, k);
        out[j] = score(me, st, n, k, F->bonus, F->w, F->needs, lead);
    }
}

/* first_scores(order, me, step, firsts, my_agents, agents, front, totals, points, bonus, bonus_weight,
                needs_positive) */
static PyObject *py_first_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "first_scores takes 12 arguments");
        return NULL;
    }
    PyObject *const parts[11] = {args[0], args[1], args[2], args[3], args[4], args[6],
                                 args[7], args[8], args[9], args[10], args[11]};
    First F;
    Agents agents[MAXN];
    Py_ssize_t na;
    int r;
    if ((r = get_first(parts, &F))) return answer(r);
    if ((r = get_agents_list(args[5], F.k, agents, MAXN, &na))) return answer(r);
    if (na < F.n) return answer(OUT);
    double got[MAXPAIRS];
    first_into(&F, agents, got);
    return float_list(got, F.nf);
}

/* What contest and fictitious_play read besides the chances: the order, the
   candidate pairs, the front and the position in ``t`` (its me and p: the
   seat whose pairs are scored), the bonus cards, the weight, needs_positive. */
typedef struct {
    Turns t;
    long bonus[MAXK];
    double w;
    int needs;
} Contest;

/* a: order, mine, front, totals, points, bonus, bonus_weight, needs_positive */
static int get_contest(PyObject *const *a, int me, Contest *c) {
    Turns *t = &c->t;
    int r;
    t->me = me;
    if ((r = get_order(a[0], me, t->order, &t->n, &t->p))) return r;
    if ((r = get_front(a[2], &t->f))) return r;
    t->k = t->f.k;
    if ((r = get_agents_list(a[1], t->k, t->mine, MAXPAIRS, &t->m))) return r;
    if ((r = get_base(a[3], a[4], t->n, t->k, t->base))) return r;
    if ((r = get_bonus(a[5], t->k, c->bonus)) || (r = get_weight(a[6], &c->w))) return r;
    c->needs = PyObject_IsTrue(a[7]);
    return c->needs < 0 ? -1 : OK;
}

/* Each rival's cumulative chances: floats, at least one and at most one per pair. */
static int get_cums(PyObject *cums, const Turns *t, double cum[][MAXCUM], int *clen) {
    if (!PyList_Check(cums) || PyList_GET_SIZE(cums) < t->n) return OUT;
    for (int s = 0; s < t->n; s++) {
        if (s == t->me) continue;
        PyObject *row = PyList_GET_ITEM(cums, s);
        if (!PyList_Check(row)) return OUT;
        Py_ssize_t len = PyList_GET_SIZE(row);
        if (len < 1 || len > t->m) return OUT;
        for (Py_ssize_t i = 0; i < len; i++) {
            PyObject *o = PyList_GET_ITEM(row, i);
            if (!PyFloat_Check(o)) return OUT;
            cum[s][i] = PyFloat_AS_DOUBLE(o);
        }
        clen[s] = (int)len;
    }
    return OK;
}

/* list.pop's C function (set when the module loads): the pick model's fixed
   stream is a bound list.pop (expert._zero_stream). */
static PyCFunction list_pop = NULL;

/* The stream's next draw into *u. A bound list.pop is popped here as
   list.pop pops (its last item; the list one shorter, its storage kept),
   without a call through the interpreter; any other stream is called. */
static int next_draw(PyObject *random, double *u) {
    PyObject *got;
    PyObject *self = PyCFunction_Check(random) ? PyCFunction_GET_SELF(random) : NULL;
    if (list_pop && self && PyList_CheckExact(self) && PyCFunction_GET_FUNCTION(random) == list_pop &&
        PyList_GET_SIZE(self) > 0) {
        Py_ssize_t last = PyList_GET_SIZE(self) - 1;
        got = PyList_GET_ITEM(self, last); /* its reference passes to got */
        Py_SET_SIZE(self, last);
    } else {
        got = PyObject_CallNoArgs(random);
        if (!got) return -1;
    }
    *u = PyFloat_AsDouble(got);
    Py_DECREF(got);
    return *u == -1.0 && PyErr_Occurred() ? -1 : OK;
}

/* One table of rival pairs: each rival's drawn from the stream by his
   chances into held, in seat order; *key: the memo's key of the table. */
static int draw_table(const Turns *t, double cum[][MAXCUM], const int *clen, PyObject *random, Agents *held,
                      long *key) {
    *key = t->me;
    for (int s = 0; s < t->n; s++) {
        if (s == t->me) continue;
        double du;
        if (next_draw(random, &du) < 0) return -1;
        int d = draw(cum[s], clen[s], du);
        held[s] = t->mine[d];
        *key = *key * (long)t->m + d;
    }
    return OK;
}

/* Adds the memo's scores of the table ``key`` to sums: 1 if it holds them,
   0 if not, -1 on an error. */
static int recall(PyObject *memo, PyObject *key, Py_ssize_t m, double *sums) {
    PyObject *kept = PyDict_GetItemWithError(memo, key); /* borrowed */
    if (!kept) return PyErr_Occurred() ? -1 : 0;
    if (!PyBytes_Check(kept) || PyBytes_GET_SIZE(kept) != (Py_ssize_t)sizeof(double) * m) {
        PyErr_SetString(PyExc_TypeError, "contest: the memo holds a value it did not put there");
        return -1;
    }
    double got[MAXPAIRS];
    memcpy(got, PyBytes_AS_STRING(kept), sizeof(double) * (size_t)m);
    for (Py_ssize_t i = 0; i < m; i++) sums[i] += got[i];
    return 1;
}

/* Keeps a table's scores in the memo (the bytes of m doubles, as
   array("d").tobytes() gives them) and adds them to sums. */
static int remember(PyObject *memo, PyObject *key, const double *got, Py_ssize_t m, double *sums) {
    PyObject *raw = PyBytes_FromStringAndSize((const char *)got, (Py_ssize_t)sizeof(double) * m);
    if (!raw) return -1;
    for (Py_ssize_t i = 0; i < m; i++) sums[i] += got[i];
    int r = PyDict_SetItem(memo, key, raw);
    Py_DECREF(raw);
    return r < 0 ? -1 : OK;
}

/* contest's samples for seat t.me: the mean end score of each pair into means. */
static int contest_into(const Contest *c, double cum[][MAXCUM], const int *clen, PyObject *memo, long samples,
                        PyObject *random, double *means) {
    const Turns *t = &c->t;
    double sums[MAXPAIRS], got[MAXPAIRS];
    Agents held[MAXN];
    for (Py_ssize_t i = 0; i < t->m; i++) sums[i] = 0.0;
    for (int s = 0; s < t->n; s++) held[s].len = 0;
    for (long j = 0; j < samples; j++) {
        long key;
        if (draw_table(t, cum, clen, random, held, &key) < 0) return -1;
        PyObject *pkey = PyLong_FromLong(key);
        if (!pkey) return -1;
        int r = recall(memo, pkey, t->m, sums);
        if (r == 0) {
            held_into(t, held, c->bonus, c->w, c->needs, got);
            r = remember(memo, pkey, got, t->m, sums);
        }
        Py_DECREF(pkey);
        if (r < 0) return -1;
    }
    for (Py_ssize_t i = 0; i < t->m; i++) means[i] = sums[i] / (double)samples;
    return OK;
}


/* contest(order, me, mine, cums, memo, samples, random, front, totals, points, bonus, bonus_weight,
           needs_positive) */
static PyObject *py_contest(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "contest takes 13 arguments");
        return NULL;
    }
    long me, samples;
    int r;
    if ((r = get_long(args[1], &me)) || (r = get_long(args[5], &samples))) return answer(r);
    if (me < 0 || me >= MAXN || samples < 1 || !PyDict_CheckExact(args[4])) return answer(OUT);
    PyObject *const parts[8] = {args[0], args[2], args[7], args[8], args[9], args[10], args[11], args[12]};
    Contest c;
    if ((r = get_contest(parts, (int)me, &c))) return answer(r);
    double cum[MAXN][MAXCUM], means[MAXPAIRS];
    int clen[MAXN];
    if ((r = get_cums(args[3], &c.t, cum, clen))) return answer(r);
    if (contest_into(&c, cum, clen, args[4], samples, args[6], means) < 0) return NULL;
    return float_list(means, c.t.m);
}

/* softmax_cumulative of values[0..m) at temperature into out. */
static void softmax_cum(const double *values, Py_ssize_t m, double temperature, double *out) {
    double best = -INFINITY, total = 0.0;
    for (Py_ssize_t i = 0; i < m; i++)
        if (values[i] > best) best = values[i];
    for (Py_ssize_t i = 0; i < m; i++) {
        if (temperature > 0.0)
            total += exp((values[i] - best) / temperature);
        else if (values[i] >= best)
            total += 1.0;
        out[i] = total;
    }
}

/* Python's float division by zero: the error the source raises. */
static int zero_division(void) {
    PyErr_SetString(PyExc_ZeroDivisionError, "float division by zero");
    return -1;
}

/* fictitious_play's state: per seat its mix so far (cumulative: the chances
   the others draw it by), the running mean of its rounds' weights, and its
   last round's answer at pick_temperature (cumulative). */
typedef struct {
    double cum[MAXN][MAXCUM];
    int clen[MAXN];
    double mean[MAXN][MAXCUM];
    double pick[MAXN][MAXCUM];
} Rounds;

/* The seat whose pairs contest scores: its place in the order (OUT if none). */
static int at_seat(Turns *t, int me) {
    t->me = me;
    for (int i = 0; i < t->n; i++)
        if (t->order[i] == me) {
            t->p = i;
            return OK;
        }
    return OUT;
}

/* Round r of fictitious play (the last when ``last``): every seat's answer
   to the mixes of the round before, folded into its mean, then the mixes. */
static int one_round(Contest *c, Rounds *R, long r, int last, PyObject *memo, long samples, PyObject *random,
                     const double *temp) {
    Turns *t = &c->t;
    Py_ssize_t m = t->m;
    for (int s = 0; s < t->n; s++) {
        double values[MAXPAIRS], cum[MAXPAIRS], prev = 0.0;
        at_seat(t, s);
        if (contest_into(c, R->cum, R->clen, memo, samples, random, values) < 0) return -1;
        softmax_cum(values, m, temp[0], cum);
        if (last) softmax_cum(values, m, temp[1], R->pick[s]);
        if (cum[m - 1] == 0.0) return zero_division();
        double *row = R->mean[s];
        for (Py_ssize_t i = 0; i < m; i++) {
            row[i] += ((cum[i] - prev) / cum[m - 1] - row[i]) / (double)r;
            prev = cum[i];
        }
    }
    for (int s = 0; s < t->n; s++) {
        double total = 0.0;
        for (Py_ssize_t i = 0; i < m; i++) R->cum[s][i] = total += R->mean[s][i];
        R->clen[s] = (int)m;
    }
    return OK;
}

/* The arrests' odds of one seat's pair into out: its pick's odds, with a
   share of its mix (each normalised). */
static int odds_of(const double *pick, const double *mix, Py_ssize_t m, double share, double *out) {
    if (pick[m - 1] == 0.0 || mix[m - 1] == 0.0) return zero_division();
    for (Py_ssize_t i = 0; i < m; i++)
        out[i] = (1.0 - share) * pick[i] / pick[m - 1] + share * mix[i] / mix[m - 1];
    return OK;
}

/* (per seat its mix, per seat its odds) as two lists of lists of floats. */
static PyObject *rounds_answer(const Rounds *R, int n, Py_ssize_t m, double share) {
    double odds[MAXN][MAXCUM];
    for (int s = 0; s < n; s++)
        if (odds_of(R->pick[s], R->cum[s], m, share, odds[s]) < 0) return NULL;
    PyObject *mixes = PyList_New(n), *all = PyList_New(n);
    if (!mixes || !all) goto fail;
    for (int s = 0; s < n; s++) {
        PyObject *a = float_list(R->cum[s], m);
        if (!a) goto fail;
        PyList_SET_ITEM(mixes, s, a);
        PyObject *b = float_list(odds[s], m);
        if (!b) goto fail;
        PyList_SET_ITEM(all, s, b);
    }
    PyObject *out = PyTuple_New(2);
    if (!out) goto fail;
    PyTuple_SET_ITEM(out, 0, mixes);
    PyTuple_SET_ITEM(out, 1, all);
    return out;
fail:
    Py_XDECREF(mixes);
    Py_XDECREF(all);
    return NULL;
}

/* The start of fictitious play: the order holds every seat once, the
   first chances are floats, one per pair. */
static int get_start(PyObject *start, Contest *c, Rounds *R) {
    Turns *t = &c->t;
    for (int s = 0; s < t->n; s++)
        if (at_seat(t, s)) return OUT;
    if (!PyList_Check(start) || PyList_GET_SIZE(start) != t->m || t->m < 1) return OUT;
    for (Py_ssize_t i = 0; i < t->m; i++) {
        PyObject *o = PyList_GET_ITEM(start, i);
        if (!PyFloat_Check(o)) return OUT;
        for (int s = 0; s < t->n; s++) R->cum[s][i] = PyFloat_AS_DOUBLE(o);
    }
    for (int s = 0; s < t->n; s++) {
        R->clen[s] = (int)t->m;
        for (Py_ssize_t i = 0; i < t->m; i++) R->mean[s][i] = 0.0;
    }
    return OK;
}

/* fictitious_play(order, mine, start, memo, samples, random, front, totals, points, bonus, bonus_weight,
                   needs_positive, rounds, temperature, pick_temperature, arrest_mix) */
static PyObject *py_fictitious_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 16) {
        PyErr_SetString(PyExc_TypeError, "fictitious_play takes 16 arguments");
        return NULL;
    }
    long samples, rounds;
    double temp[3]; /* temperature, pick_temperature, arrest_mix */
    int r;
    if ((r = get_long(args[4], &samples)) || (r = get_long(args[12], &rounds))) return answer(r);
    if (samples < 1 || rounds < 1 || !PyDict_CheckExact(args[3])) return answer(OUT);
    for (int i = 0; i < 3; i++)
        if ((r = get_weight(args[13 + i], &temp[i]))) return answer(r);
    PyObject *const parts[8] = {args[0], args[1], args[6], args[7], args[8], args[9], args[10], args[11]};
    Contest c;
    Rounds R;
    if ((r = get_contest(parts, 0, &c)) || (r = get_start(args[2], &c, &R))) return answer(r);
    for (long j = 1; j <= rounds; j++)
        if (one_round(&c, &R, j, j == rounds, args[3], samples, args[5], temp) < 0) return NULL;
    return rounds_answer(&R, c.t.n, c.t.m, temp[2]);
}

/* What held_tables reads: per seat its cumulative chances (none: it holds
   no agent), each drawing from a list of lists at least as long. */
typedef struct {
    int n;
    double cum[MAXN][MAXCUM];
    int clen[MAXN];
} Held;

static int get_held(PyObject *choices, PyObject *cums, Held *h) {
    if (!PyList_Check(cums) || !PyList_Check(choices) || PyList_GET_SIZE(cums) > MAXN) return OUT;
    h->n = (int)PyList_GET_SIZE(cums);
    if (PyList_GET_SIZE(choices) < h->n) return OUT;
    for (int s = 0; s < h->n; s++) {
        PyObject *row = PyList_GET_ITEM(cums, s), *from = PyList_GET_ITEM(choices, s);
        if (!PyList_Check(row) || !PyList_Check(from)) return OUT;
        Py_ssize_t len = PyList_GET_SIZE(row);
        if (len > MAXCUM || PyList_GET_SIZE(from) < len) return OUT;
        for (Py_ssize_t i = 0; i < len; i++) {
            PyObject *o = PyList_GET_ITEM(row, i);
            if (!PyFloat_Check(o) || !PyList_Check(PyList_GET_ITEM(from, i))) return OUT;
            h->cum[s][i] = PyFloat_AS_DOUBLE(o);
        }
        h->clen[s] = (int)len;
    }
    return OK;
}

/* choices[s][d] itself, a new reference (read after the draws: no Python code runs between). */
static PyObject *drawn(PyObject *choices, int s, int d) {
    PyObject *from = PyList_GET_SIZE(choices) > s ? PyList_GET_ITEM(choices, s) : NULL;
    PyObject *o = from && PyList_Check(from) && PyList_GET_SIZE(from) > d ? PyList_GET_ITEM(from, d) : NULL;
    if (!o || !PyList_Check(o)) {
        PyErr_SetString(PyExc_RuntimeError, "held_tables: the choices changed while drawing");
        return NULL;
    }
    return Py_NewRef(o);
}

/* One table: each seat's draw (seat order), then per seat mine, a new
   empty list or its drawn choice (the given lists, not copies). */
static PyObject *held_table(const Held *h, long me, PyObject *mine, PyObject *choices, PyObject *random) {
    int d[MAXN];
    for (int s = 0; s < h->n; s++) {
        if (s == me || !h->clen[s]) continue;
        PyObject *u = PyObject_CallNoArgs(random);
        if (!u) return NULL;
        double du = PyFloat_AsDouble(u);
        Py_DECREF(u);
        if (du == -1.0 && PyErr_Occurred()) return NULL;
        d[s] = draw(h->cum[s], h->clen[s], du);
    }
    PyObject *out = PyList_New(h->n);
    if (!out) return NULL;
    for (int s = 0; s < h->n; s++) {
        PyObject *got = s == me          ? Py_NewRef(mine)
                        : !h->clen[s] ? PyList_New(0)
                                      : drawn(choices, s, d[s]);
        if (!got) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, s, got);
    }
    return out;
}

/* held_tables(me, mine, choices, cums, samples, random) */
static PyObject *py_held_tables(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "held_tables takes 6 arguments");
        return NULL;
    }
    long me, samples;
    int r;
    if ((r = get_long(args[0], &me)) || (r = get_long(args[4], &samples))) return answer(r);
    if (!PyList_Check(args[1]) || samples < 0) return answer(OUT);
    Held h;
    if ((r = get_held(args[2], args[3], &h))) return answer(r);
    PyObject *out = PyList_New(samples);
    if (!out) return NULL;
    for (long j = 0; j < samples; j++) {
        PyObject *one = held_table(&h, me, args[1], args[2], args[5]);
        if (!one) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, j, one);
    }
    return out;
}

/* first_sums(order, me, step, firsts, my_agents, tables, front, totals, points, bonus, bonus_weight,
              needs_positive) */
static PyObject *py_first_sums(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "first_sums takes 12 arguments");
        return NULL;
    }
    PyObject *const parts[11] = {args[0], args[1], args[2], args[3], args[4], args[6],
                                 args[7], args[8], args[9], args[10], args[11]};
    First F;
    int r;
    if ((r = get_first(parts, &F))) return answer(r);
    PyObject *tables = args[5];
    if (!PyList_Check(tables)) return answer(OUT);
    Py_ssize_t count = PyList_GET_SIZE(tables), na;
    Agents *held = PyMem_Malloc(sizeof(Agents) * MAXN * (size_t)(count ? count : 1));
    if (!held) return PyErr_NoMemory();
    for (Py_ssize_t j = 0; j < count; j++) /* every table read before any is scored */
        if ((r = get_agents_list(PyList_GET_ITEM(tables, j), F.k, held + j * MAXN, MAXN, &na)) ||
            (na < F.n && (r = OUT))) {
            PyMem_Free(held);
            return answer(r);
        }
    double sums[MAXPAIRS] = {0.0}, got[MAXPAIRS];
    for (Py_ssize_t j = 0; j < count; j++) {
        first_into(&F, held + j * MAXN, got);
        for (Py_ssize_t i = 0; i < F.nf; i++) sums[i] += got[i];
    }
    PyMem_Free(held);
    return float_list(sums, F.nf);
}

/* colour_totals(slammers, card_colour, card_value, k): ([totals of colour c per seat] per colour, points per
   seat); a card of colour -1 (purple) counts in the points only. */
static PyObject *py_colour_totals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "colour_totals takes 4 arguments");
        return NULL;
    }
    long k;
    int r;
    if ((r = get_long(args[3], &k))) return answer(r);
    PyObject *sl = args[0], *col = args[1], *val = args[2];
    if (k < 0 || k > MAXK || !(PyList_Check(sl) || PyTuple_Check(sl)) || !(PyList_Check(col) || PyTuple_Check(col)) ||
        !(PyList_Check(val) || PyTuple_Check(val)))
        return answer(OUT);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sl), ncol = PySequence_Fast_GET_SIZE(col),
               nval = PySequence_Fast_GET_SIZE(val);
    if (n > MAXN) return answer(OUT);
    PyObject **seats = PySequence_Fast_ITEMS(sl), **cols = PySequence_Fast_ITEMS(col),
             **vals = PySequence_Fast_ITEMS(val);
    long tot[MAXK * MAXN] = {0}, pts[MAXN] = {0};
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *cards = seats[s];
        if (!PyList_Check(cards) && !PyTuple_Check(cards)) return answer(OUT);
        Py_ssize_t m = PySequence_Fast_GET_SIZE(cards);
        PyObject **items = PySequence_Fast_ITEMS(cards);
        for (Py_ssize_t i = 0; i < m; i++) {
            long card, cc, v;
            if ((r = get_long(items[i], &card))) return answer(r);
            if (card < 0 || card >= ncol || card >= nval) return answer(OUT);
            if ((r = get_long(cols[card], &cc)) || (r = get_long(vals[card], &v))) return answer(r);
            if (cc >= k) return answer(OUT);
            pts[s] += v;
            if (cc >= 0) tot[cc * n + s] += v;
        }
    }
    PyObject *totals = PyList_New(k), *points = position_list(pts, (long)n);
    if (!totals || !points) {
        Py_XDECREF(totals);
        Py_XDECREF(points);
        return NULL;
    }
    for (long c = 0; c < k; c++) {
        PyObject *row = position_list(tot + c * n, (long)n);
        if (!row) {
            Py_DECREF(totals);
            Py_DECREF(points);
            return NULL;
        }
        PyList_SET_ITEM(totals, c, row);
    }
    PyObject *out = PyTuple_Pack(2, totals, points);
    Py_DECREF(totals);
    Py_DECREF(points);
    return out;
}

static PyMethodDef methods[] = {
    {"colour_totals", (PyCFunction)(void (*)(void))py_colour_totals, METH_FASTCALL,
     "model.colour_totals: colour totals per seat and points per seat (new lists); None: ask the Python source."},
    {"held_tables", (PyCFunction)(void (*)(void))py_held_tables, METH_FASTCALL,
     "model.held_tables: sampled tables of the agents each seat holds (new lists); None: ask the Python source."},
    {"fictitious_play", (PyCFunction)(void (*)(void))py_fictitious_play, METH_FASTCALL,
     "model.fictitious_play: every seat's mix and arrest odds after the rounds; None: ask the Python source."},
    {"contest", (PyCFunction)(void (*)(void))py_contest, METH_FASTCALL,
     "model.contest: the mean end score of each pair of mine over sampled tables; None: ask the Python source."},
    {"first_sums", (PyCFunction)(void (*)(void))py_first_sums, METH_FASTCALL,
     "model.first_sums: each first arrest's end scores summed over the tables; None: ask the Python source."},
    {"first_scores", (PyCFunction)(void (*)(void))py_first_scores, METH_FASTCALL,
     "model.first_scores: the end score of each first arrest of mine; None: ask the Python source."},
    {"held_scores", (PyCFunction)(void (*)(void))py_held_scores, METH_FASTCALL,
     "model.held_scores: flat_score of flat_turns_held's end positions, as a tuple; None: ask the Python source."},
    {"best_bid", (PyCFunction)(void (*)(void))py_best_bid, METH_FASTCALL,
     "model.best_bid: the index of the bid's best option (-1: none); None: ask the Python source."},
    {"flat_turns", (PyCFunction)(void (*)(void))py_flat_turns, METH_FASTCALL,
     "model.flat_turns (new lists); None: ask the Python source."},
    {"flat_top", (PyCFunction)(void (*)(void))py_flat_top, METH_FASTCALL,
     "model.flat_top (appends to scores and leads); None: ask the Python source."},
    {"flat_given_up", (PyCFunction)(void (*)(void))py_flat_given_up, METH_FASTCALL,
     "model.flat_given_up (writes lead as the Python source leaves it); None: ask the Python source."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_flat_core",
                                    "The FBI expert's flat play-outs and scores, in C (see _flat_core.c).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__flat_core(void) {
    PyObject *pop = PyObject_GetAttrString((PyObject *)&PyList_Type, "pop");
    if (!pop) return NULL;
    if (Py_IS_TYPE(pop, &PyMethodDescr_Type)) list_pop = ((PyMethodDescrObject *)pop)->d_method->ml_meth;
    Py_DECREF(pop);
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "WIDE", WIDE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
