/* The inner loops of Jessah's dossier, in C.

   - guesses(): the dossier's guesses (city, hand, weight each) as one C
     object, Dossier.g, whose methods are the loops over them, in place:
     - announce(): Dossier._read_guesses in strategies/red_notice/dossier.py
       (with _place, _states, _matching, _danger, _way, _scores and
       _chances): each guess read through a movement's announcement;
     - answer(): the end of Dossier.observe (Dossier._answer): the guesses'
       weight per city, with the floor spread over the public belief;
     - settle(): Dossier._settle, after each event: the weights restricted
       to the cities still possible (Dossier._restrict), normalised, and the
       guesses resampled when the weights have degenerated;
     - draw(): Dossier._draw_each, each guess's hand drawing Angela's checks;
     - replace(): Dossier._jessah_drew, the checks Jessah drew replaced in
       each hand;
     - cash(): Dossier._cash_each, each guess's hand and weight after a cash;
     - fit(): Dossier._fit_each, each hand made to hold as many checks as
       Angela does and none of Jessah's;
     - reveal(): Dossier._reveal_each, a sighting's 0/1 likelihood;
     - decline(): Dossier._decline_each, a Bank performed without a cash;
     - lists(): the guesses as lists (the Python source's form);
   - systematic(): dossier._systematic, the resampling's indices;
   - start(): Dossier._start_guesses, the guesses of her start;
   - hunt(): Expert._weighted_path in strategies/red_notice/expert.py,
     Jessah's best inspection path on the dossier's weights;
   - spread(): Expert._spread, the dossier's weights two steps on (her
     radar's choice);
   - barriers(): Expert._weighted_barriers, her barriers' scores on the
     dossier's weights.

   The Python source stays the reference: it plays in pure mode, and
   tests/games/red_notice/test_dossier_core.py holds the two to the same
   cities, the same floats bit for bit and the same draws from the dossier's
   stream. This is used only with the compiled build (strategies/red_notice/
   __init__.py): an expert game spent half its instructions in these loops,
   mostly boxing and unboxing Python ints and floats: the guesses live in C
   so that no call passes them across.

   Bit for bit: every float is computed in the Python source's order of
   operations (no contraction into fused multiply-adds: -ffp-contract=off),
   exp() is the C library's that math.exp calls, and fsum is CPython's
   algorithm (its result, the exact sum correctly rounded, is unique).
   The plans from a city are sorted as Python sorts (end city, triggers)
   tuples, since their order fixes the order of every sum and draw. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 64      /* cities: masks are 64-bit */
#define MAXDEG 16    /* routes from one city */
#define MAXT 16      /* radar triggers in one plan (at most its steps) */
#define NBALL 5      /* ball[c][d] for d < 5: the danger's reach (_PROXIMITY) */
#define FAR 99       /* board.FAR */
#define MAXBALL 72   /* Board.ball's rows for hunt(): the diameter + 2 */

static const double PROXIMITY[NBALL] = {1.0, 0.7, 0.35, 0.12, 0.03};

typedef struct {
    int n, ncheck;
    int deg[MAXN];
    int nbr[MAXN][MAXDEG];
    int route[MAXN][MAXDEG];
    int cont[MAXN];
    int dist[MAXN][MAXN];
    uint64_t ball[MAXN][NBALL];
    int nball[MAXN];              /* len(Board.ball[c]), 0 when over MAXBALL */
    uint64_t fball[MAXN][MAXBALL]; /* Board.ball[c], every row */
    int ncont;
    uint64_t *cont_mask;
    uint64_t *check_mask;
    uint64_t nbr_mask[MAXN];      /* each city's neighbours, every route open */
    int nroutes;   /* routes 0..nroutes-1, each between two cities of nbr; -1: not so */
    int *route_end; /* route r joins route_end[2r] and route_end[2r+1] */
} Tables;

typedef struct {
    int city;
    int nt;
    signed char k[MAXT];
    signed char tc[MAXT];
} Plan;

typedef struct {
    uint64_t targets;
    double p_ann;
    double *qs; /* per end */
} Outcome;

typedef struct {
    Plan *plans;
    int nplans;
    double *danger;
    int *match;  /* indices of the plans that give the announcement */
    int nmatch;
    int *to;     /* end cities, first seen in match order */
    int nends;
    int *end_of; /* per position in match, its end */
    Outcome *out;
    int nout, capout;
} Place;

/* ------------------------------------------------------------ tables */

static void tables_free(PyObject *capsule) {
    Tables *t = (Tables *)PyCapsule_GetPointer(capsule, "rnsim.announce.tables");
    if (t) {
        free(t->cont_mask);
        free(t->check_mask);
        free(t->route_end);
        free(t);
    }
}

/* PyLong_AsLong, reading a one-digit int of CPython 3.11 directly (cities and
   checks are: the call cost more than the loops around it) */
static inline long small_long(PyObject *o) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) return 0;
        if (size == 1) return (long)((PyLongObject *)o)->ob_digit[0];
    }
#endif
    return PyLong_AsLong(o);
}

/* The dossier's stream read in place. Each draw came through a call of the
   stream's bound random() or getrandbits(), and the call cost ten times the
   draw: when the bound method is _random.Random's own (its C method, bound
   to a random.Random), this code draws as that method does, from the same
   Mersenne Twister state, which it advances as the call would have
   (CPython's Modules/_randommodule.c: genrand_uint32, random_random,
   getrandbits' fast path for k <= 32). Anything else (another class's
   method, a layout this code does not know) is called. */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[624];
} MTObject;

static PyTypeObject *mt_type;        /* _random.Random, when its layout is MTObject's */
static PyObject *mt_py_type;         /* random.Random (its getstate() is state_words' twin) */
static PyMethodDef *mt_random_def;   /* its random() */
static PyMethodDef *mt_bits_def;     /* its getrandbits() */

/* Looks up _random.Random and its two methods once, at import; leaves them
   NULL (every draw is then a call) when anything is not as expected. */
static void mt_setup(void) {
    PyObject *mod = PyImport_ImportModule("_random");
    if (!mod) {
        PyErr_Clear();
        return;
    }
    PyObject *tp = PyObject_GetAttrString(mod, "Random");
    Py_DECREF(mod);
    if (!tp) {
        PyErr_Clear();
        return;
    }
    if (!PyType_Check(tp) || ((PyTypeObject *)tp)->tp_basicsize != (Py_ssize_t)sizeof(MTObject)) {
        Py_DECREF(tp);
        return;
    }
    PyObject *dict = ((PyTypeObject *)tp)->tp_dict;
    PyObject *r = dict ? PyDict_GetItemString(dict, "random") : NULL;
    PyObject *b = dict ? PyDict_GetItemString(dict, "getrandbits") : NULL;
    if (!r || !b || !Py_IS_TYPE(r, &PyMethodDescr_Type) || !Py_IS_TYPE(b, &PyMethodDescr_Type)) {
        Py_DECREF(tp);
        return;
    }
    mt_random_def = ((PyMethodDescrObject *)r)->d_method;
    mt_bits_def = ((PyMethodDescrObject *)b)->d_method;
    mt_type = (PyTypeObject *)tp; /* kept for the module's life */
    PyObject *rmod = PyImport_ImportModule("random");
    PyObject *py = rmod ? PyObject_GetAttrString(rmod, "Random") : NULL;
    Py_XDECREF(rmod);
    if (py && PyType_Check(py) && PyType_IsSubtype((PyTypeObject *)py, mt_type))
        mt_py_type = py; /* kept for the module's life */
    else
        Py_XDECREF(py);
    PyErr_Clear();
}

/* The stream behind ``bound`` when it is _random.Random's method ``def``
   bound to a random.Random; else NULL. */
static inline MTObject *mt_of(PyObject *bound, const PyMethodDef *def) {
    static PyObject *known; /* the last type found to be random.Random's kind (held: its address stays its) */
    if (!def || Py_TYPE(bound) != &PyCFunction_Type) return NULL;
    PyCFunctionObject *f = (PyCFunctionObject *)bound;
    PyObject *self = f->m_self;
    if (f->m_ml != def || !self) return NULL;
    if ((PyObject *)Py_TYPE(self) != known) {
        if (!PyObject_TypeCheck(self, mt_type)) return NULL;
        Py_INCREF(Py_TYPE(self));
        Py_XSETREF(known, (PyObject *)Py_TYPE(self));
    }
    return (MTObject *)self;
}

/* genrand_uint32 of CPython's _randommodule.c: its refill of the N words... */
static void mt_refill(MTObject *s) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = s->state;
    uint32_t y;
    int kk;
    for (kk = 0; kk < 624 - 397; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
    s->index = 0;
}

/* ...and its next word, tempered */
static inline uint32_t mt_next(MTObject *s) {
    if (s->index >= 624) mt_refill(s);
    uint32_t y = s->state[s->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* One draw of the dossier's stream (its bound random()); -1 on failure. */
static int draw_random(PyObject *rand, double *out) {
    MTObject *s = mt_of(rand, mt_random_def);
    if (s) { /* random_random: 53 bits from two words, every step exact */
        uint32_t a = mt_next(s) >> 5, b = mt_next(s) >> 6;
        *out = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
        return 0;
    }
    PyObject *u = PyObject_CallNoArgs(rand);
    if (!u) return -1;
    *out = PyFloat_AsDouble(u);
    Py_DECREF(u);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* A METH_FASTCALL function's arguments, one letter of ``fmt`` each, as
   PyArg_ParseTuple's would read them: O an object, T a tuple, L a list, N an
   int (these four stored as PyObject *), i an int, l a long, p a truth
   value (int), d a float (double). Parsing a format for every call cost more than some
   of the loops called; -1 with an exception set on a wrong argument. */
static int fast_args(const char *name, PyObject *const *args, Py_ssize_t nargs, const char *fmt, ...) {
    Py_ssize_t want = (Py_ssize_t)strlen(fmt);
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s: takes %zd argument(s), given %zd", name, want, nargs);
        return -1;
    }
    va_list ap;
    va_start(ap, fmt);
    int rc = 0;
    for (Py_ssize_t i = 0; i < want && !rc; i++) {
        PyObject *o = args[i];
        char f = fmt[i];
        if (f == 'O' || f == 'T' || f == 'L' || f == 'N') {
            int ok = f == 'O' || (f == 'T' && PyTuple_Check(o)) || (f == 'L' && PyList_Check(o)) ||
                     (f == 'N' && PyLong_Check(o));
            if (!ok) {
                PyErr_Format(PyExc_TypeError, "%s: argument %zd must be a %s", name, i + 1,
                             f == 'T' ? "tuple" : f == 'L' ? "list" : "int");
                rc = -1;
            } else {
                *va_arg(ap, PyObject **) = o;
            }
        } else if (f == 'i') {
            long v = PyLong_AsLong(o);
            if (v == -1 && PyErr_Occurred()) {
                rc = -1;
            } else if (v < INT_MIN || v > INT_MAX) {
                PyErr_Format(PyExc_OverflowError, "%s: argument %zd is out of an int's range", name, i + 1);
                rc = -1;
            } else {
                *va_arg(ap, int *) = (int)v;
            }
        } else if (f == 'l') {
            long v = PyLong_AsLong(o);
            if (v == -1 && PyErr_Occurred()) rc = -1;
            else *va_arg(ap, long *) = v;
        } else if (f == 'p') {
            int v = PyObject_IsTrue(o);
            if (v < 0) rc = -1;
            else *va_arg(ap, int *) = v;
        } else { /* 'd' */
            double v = PyFloat_AsDouble(o);
            if (v == -1.0 && PyErr_Occurred()) rc = -1;
            else *va_arg(ap, double *) = v;
        }
    }
    va_end(ap);
    return rc;
}

/* state_words(rng, k) -> rng.getstate()[1][:k] (0 <= k <= 624), read in
   place when rng is a random.Random itself (getstate() builds a tuple of
   625 ints to be cut to k); None for any other stream (a subclass may
   have a getstate of its own): the caller asks getstate() then. */
static PyObject *py_state_words(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "state_words: two arguments, rng and k");
        return NULL;
    }
    long k = PyLong_AsLong(args[1]);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k < 0 || k > 624) {
        PyErr_SetString(PyExc_ValueError, "state_words: k must be in 0..624");
        return NULL;
    }
    if (!mt_py_type || (PyObject *)Py_TYPE(args[0]) != mt_py_type) Py_RETURN_NONE;
    const MTObject *s = (const MTObject *)args[0];
    PyObject *out = PyTuple_New(k);
    if (!out) return NULL;
    for (long i = 0; i < k; i++) {
        PyObject *x = PyLong_FromUnsignedLong(s->state[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, x);
    }
    return out;
}

/* Item i of two result lists, stealing both new references; -1 (both
   released) if either failed to be made. */
static int set_pair(PyObject *la, PyObject *lb, Py_ssize_t i, PyObject *a, PyObject *b) {
    if (!a || !b) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        return -1;
    }
    PyList_SET_ITEM(la, i, a);
    PyList_SET_ITEM(lb, i, b);
    return 0;
}

/* A new list of the ints v[0..n). */
static PyObject *int_list(const long *v, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

static int as_u64(PyObject *o, uint64_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (uint64_t)v;
    return 0;
}

static int seq_u64(PyObject *seq, Py_ssize_t i, uint64_t *out) {
    PyObject *x = PySequence_GetItem(seq, i);
    if (!x) return -1;
    int r = as_u64(x, out);
    Py_DECREF(x);
    return r;
}

static int seq_int(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *x = PySequence_GetItem(seq, i);
    if (!x) return -1;
    long v = PyLong_AsLong(x);
    Py_DECREF(x);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

/* Each route's two ends, from the routes out of each city; nroutes -1 when
   a route number is negative or joins other than two cities. -1 when out of
   memory. */
static int route_ends(Tables *t) {
    int nr = 0;
    for (int c = 0; c < t->n; c++)
        for (int j = 0; j < t->deg[c]; j++) {
            if (t->route[c][j] < 0) {
                t->nroutes = -1;
                return 0;
            }
            if (t->route[c][j] >= nr) nr = t->route[c][j] + 1;
        }
    t->route_end = malloc((2 * (size_t)nr + 1) * sizeof(int));
    if (!t->route_end) return -1;
    int *seen = calloc((size_t)nr + 1, sizeof(int));
    if (!seen) return -1;
    t->nroutes = nr;
    for (int c = 0; c < t->n; c++)
        for (int j = 0; j < t->deg[c]; j++) {
            int r = t->route[c][j];
            if (seen[r] < 2) t->route_end[2 * r + seen[r]] = c;
            seen[r]++;
        }
    for (int r = 0; r < nr; r++) {
        int a = t->route_end[2 * r], b = t->route_end[2 * r + 1];
        if (seen[r] != 2 || a == b) t->nroutes = -1;
    }
    free(seen);
    return 0;
}

/* tables(n, nbr_routes, cont, dist, ball, cont_mask, check_mask) -> capsule, or
   None when the map is too big for this code (the Python source reads it). */
static PyObject *py_tables(PyObject *self, PyObject *args) {
    int n;
    PyObject *nbr_routes, *cont, *dist, *ball, *cont_mask, *check_mask;
    if (!PyArg_ParseTuple(args, "iOOOOOO", &n, &nbr_routes, &cont, &dist, &ball, &cont_mask, &check_mask))
        return NULL;
    if (n < 1 || n > MAXN) Py_RETURN_NONE;
    Tables *t = calloc(1, sizeof(Tables));
    if (!t) return PyErr_NoMemory();
    t->n = n;
    long v;
    for (int c = 0; c < n; c++) {
        PyObject *row = PySequence_GetItem(nbr_routes, c);
        if (!row) goto fail;
        Py_ssize_t d = PySequence_Size(row);
        if (d < 0 || d > MAXDEG) {
            Py_DECREF(row);
            if (d < 0) goto fail;
            free(t);
            Py_RETURN_NONE;
        }
        t->deg[c] = (int)d;
        for (Py_ssize_t j = 0; j < d; j++) {
            PyObject *pair = PySequence_GetItem(row, j);
            long a, r;
            if (!pair || seq_int(pair, 0, &a) || seq_int(pair, 1, &r)) {
                Py_XDECREF(pair);
                Py_DECREF(row);
                goto fail;
            }
            Py_DECREF(pair);
            t->nbr[c][j] = (int)a;
            t->route[c][j] = (int)r;
            if (a >= 0 && a < 64) t->nbr_mask[c] |= (uint64_t)1 << a;
        }
        Py_DECREF(row);
        if (seq_int(cont, c, &v)) goto fail;
        t->cont[c] = (int)v;
        PyObject *drow = PySequence_GetItem(dist, c);
        if (!drow) goto fail;
        for (int x = 0; x < n; x++) {
            if (seq_int(drow, x, &v)) {
                Py_DECREF(drow);
                goto fail;
            }
            t->dist[c][x] = (int)v;
        }
        Py_DECREF(drow);
        PyObject *brow = PySequence_GetItem(ball, c);
        if (!brow) goto fail;
        Py_ssize_t nb = PySequence_Size(brow);
        if (nb < 1) {
            Py_DECREF(brow);
            if (nb < 0) goto fail;
            free(t);
            Py_RETURN_NONE;
        }
        t->nball[c] = nb <= MAXBALL ? (int)nb : 0;
        for (int d2 = 0; d2 < nb && d2 < MAXBALL; d2++)
            if (seq_u64(brow, d2, &t->fball[c][d2])) {
                Py_DECREF(brow);
                goto fail;
            }
        for (int d2 = 0; d2 < NBALL; d2++) {
            if (d2 < nb) {
                if (seq_u64(brow, d2, &t->ball[c][d2])) {
                    Py_DECREF(brow);
                    goto fail;
                }
            } else {
                t->ball[c][d2] = t->ball[c][nb - 1]; /* past the diameter: all */
            }
        }
        Py_DECREF(brow);
    }
    t->ncont = (int)PySequence_Size(cont_mask);
    t->ncheck = (int)PySequence_Size(check_mask);
    if (t->ncont < 0 || t->ncheck < 0) goto fail;
    t->cont_mask = calloc(t->ncont + 1, sizeof(uint64_t));
    t->check_mask = calloc(t->ncheck + 1, sizeof(uint64_t));
    if (!t->cont_mask || !t->check_mask) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int k = 0; k < t->ncont; k++)
        if (seq_u64(cont_mask, k, &t->cont_mask[k])) goto fail;
    for (int k = 0; k < t->ncheck; k++)
        if (seq_u64(check_mask, k, &t->check_mask[k])) goto fail;
    if (route_ends(t)) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *cap = PyCapsule_New(t, "rnsim.announce.tables", tables_free);
    if (!cap) goto fail;
    return cap;
fail:
    free(t->cont_mask);
    free(t->check_mask);
    free(t->route_end);
    free(t);
    return NULL;
}

/* ------------------------------------------------------------ memory */

/* One call's memory: blocks carved in order and freed together at its end
   (a call made a few hundred small allocations). */
typedef struct Block {
    struct Block *next;
    size_t used, cap;
    max_align_t data[];
} Block;

typedef struct {
    Block *head;
} Arena;

static void *arena_alloc(Arena *a, size_t n) {
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!a->head || a->head->used + n > a->head->cap) {
        size_t cap = n > 32768 ? n : 32768;
        Block *b = malloc(sizeof(Block) + cap);
        if (!b) return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    return p;
}

static void arena_free(Arena *a) {
    while (a->head) {
        Block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

/* ------------------------------------------------------------ plans */

/* Python's order of (end city, triggers) tuples */
static int plan_cmp(const Plan *a, const Plan *b) {
    if (a->city != b->city) return a->city < b->city ? -1 : 1;
    int m = a->nt < b->nt ? a->nt : b->nt;
    for (int i = 0; i < m; i++) {
        if (a->k[i] != b->k[i]) return a->k[i] < b->k[i] ? -1 : 1;
        if (a->tc[i] != b->tc[i]) return a->tc[i] < b->tc[i] ? -1 : 1;
    }
    return a->nt == b->nt ? 0 : (a->nt < b->nt ? -1 : 1);
}

static int plan_eq(const Plan *a, const Plan *b) {
    if (a->city != b->city || a->nt != b->nt) return 0;
    for (int i = 0; i < a->nt; i++)
        if (a->k[i] != b->k[i] || a->tc[i] != b->tc[i]) return 0;
    return 1;
}

typedef struct {
    Plan *v;
    int n, cap;
} Plans;

static int plans_push(Arena *a, Plans *p, const Plan *x) {
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        Plan *v = arena_alloc(a, cap * sizeof(Plan));
        if (!v) return -1;
        if (p->n) memcpy(v, p->v, p->n * sizeof(Plan));
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = *x;
    return 0;
}

/* Dossier._states: every (end city, triggers) of a movement of up to
   ``steps`` steps from ``here``, sorted. Returns the count, -1 when out of
   memory, -2 when a plan would trip more radars than MAXT. */
static int make_plans(Arena *a, const Tables *t, int here, int steps, int journalist, const long *radars,
                      const long *barriers, int nbarriers, int precise, Plan **out) {
    Plans seen = {0}, layer = {0}, next = {0};
    Plan start;
    memset(&start, 0, sizeof start);
    start.city = here;
    /* the plans seen, chained by end city (a plan is compared only with
       those that end where it does) */
    int last[MAXN];
    int *prev = NULL;
    int capprev = 0;
    for (int c = 0; c < t->n; c++) last[c] = -1;
    if (plans_push(a, &seen, &start) || plans_push(a, &layer, &start)) return -1;
    capprev = 64;
    prev = arena_alloc(a, capprev * sizeof(int));
    if (!prev) return -1;
    prev[0] = -1;
    last[here] = 0;
    for (int s = 0; s < steps; s++) {
        next.n = 0;
        for (int i = 0; i < layer.n; i++) {
            const Plan *p = &layer.v[i];
            int c = p->city;
            for (int j = 0; j < t->deg[c]; j++) {
                int nx = t->nbr[c][j], r = t->route[c][j];
                if (!journalist && r < nbarriers && barriers[r]) continue;
                Plan q = *p;
                q.city = nx;
                if (!journalist) {
                    int k = t->cont[nx];
                    long rk = radars[k];
                    int again = 0;
                    for (int m = 0; m < p->nt; m++)
                        if (p->k[m] == k) again = 1;
                    if (rk == 2 || (rk == 1 && !again)) {
                        if (q.nt == MAXT) return -2;
                        q.k[q.nt] = (signed char)k;
                        q.tc[q.nt] = (signed char)(precise ? nx : -1);
                        q.nt++;
                    }
                }
                int dup = 0;
                for (int m = last[nx]; m >= 0 && !dup; m = prev[m])
                    if (plan_eq(&seen.v[m], &q)) dup = 1;
                if (dup) continue;
                if (seen.n == capprev) {
                    int *pv = arena_alloc(a, 2 * capprev * sizeof(int));
                    if (!pv) return -1;
                    memcpy(pv, prev, capprev * sizeof(int));
                    prev = pv;
                    capprev *= 2;
                }
                prev[seen.n] = last[nx];
                last[nx] = seen.n;
                if (plans_push(a, &seen, &q) || plans_push(a, &next, &q)) return -1;
            }
        }
        Plans tmp = layer;
        layer = next;
        next = tmp;
        if (!layer.n) break;
    }
    /* sorted: by end city (their chains), then by triggers (insertion) */
    Plan *sorted = arena_alloc(a, (seen.n + 1) * sizeof(Plan));
    if (!sorted) return -1;
    int n = 0;
    for (int c = 0; c < t->n; c++) {
        int first = n;
        for (int m = last[c]; m >= 0; m = prev[m]) {
            Plan x = seen.v[m];
            int i = n++;
            while (i > first && plan_cmp(&sorted[i - 1], &x) > 0) {
                sorted[i] = sorted[i - 1];
                i--;
            }
            sorted[i] = x;
        }
    }
    *out = sorted;
    return n;
}


/* ------------------------------------------------------------ sums */

/* math.fsum (CPython's algorithm, finite inputs): the exact sum, rounded
   to nearest, ties to even. */
static double fsum_partials(const double *xs, int count) {
    double p[128];
    int n = 0;
    for (int m = 0; m < count; m++) {
        double x = xs[m];
        int i = 0;
        for (int j = 0; j < n; j++) {
            double y = p[j];
            if (fabs(x) < fabs(y)) {
                double tt = x;
                x = y;
                y = tt;
            }
            double hi = x + y;
            double yr = hi - x;
            double lo = y - yr;
            if (lo != 0.0) p[i++] = lo;
            x = hi;
        }
        n = i;
        if (x != 0.0) p[n++] = x;
    }
    double hi = 0.0;
    if (n > 0) {
        double lo = 0.0;
        hi = p[--n];
        while (n > 0) {
            double x = hi;
            double y = p[--n];
            hi = x + y;
            double yr = hi - x;
            lo = y - yr;
            if (lo != 0.0) break;
        }
        if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
            double y = lo * 2.0;
            double x = hi + y;
            double yr = x - hi;
            if (y == yr) hi = x;
        }
    }
    return hi;
}

/* math.fsum. The exact sum correctly rounded is one number however it is
   found, so the common case here (non-negative normal numbers, as weights
   and softmax terms are) adds their mantissas exactly into a fixed-point
   integer (one of 128 bits when their exponents span at most 57, most sums
   here: fsum_narrow; else 64-bit limbs), then rounds it once, half to even;
   anything else goes through CPython's partials. */
#define LIMBS 40 /* 2,560 bits: any span of normal exponents, plus carries */

/* x's biased exponent, and its mantissa with the hidden bit in *m, when x is
   a positive normal number (what the integer sums below add); 0 for anything
   else (zero, which the sums skip first; negative, subnormal, inf, nan, which
   fsum's partials take). */
static inline int normal_parts(double x, uint64_t *m) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int be = (int)(b >> 52 & 0x7ff);
    *m = (b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
    if ((b >> 63) || be == 0 || be == 0x7ff) return 0;
    return be;
}

/* The 128-bit case in one pass: each term's mantissa shifted by its
   exponent above the smallest met so far (the sum shifted up when a smaller
   one comes), while the exponents met span at most 57: every term is then
   below 2^110 and at most 65,536 of them below 2^126: the integer is the
   exact sum in units of 2^(emin - 1075). 0 when the terms leave that case
   (fsum takes them from the start then). */
static int fsum_narrow(const double *xs, int count, double *out) {
    unsigned __int128 acc = 0;
    int emin = 0, emax = -1; /* emax < 0: no term yet */
    for (int i = 0; i < count; i++) {
        double x = xs[i];
        if (x == 0.0) continue;
        uint64_t m;
        int be = normal_parts(x, &m);
        if (!be) return 0;
        if (emax < 0) {
            emin = emax = be;
        } else if (be < emin) {
            if (emax - be > 57) return 0;
            acc <<= emin - be;
            emin = be;
        } else if (be > emax) {
            if (be - emin > 57) return 0;
            emax = be;
        }
        acc += (unsigned __int128)m << (be - emin);
    }
    if (emax < 0) {
        *out = 0.0;
        return 1;
    }
    if (emax > 0x7fe - 20) return 0; /* near overflow */
    uint64_t hi = (uint64_t)(acc >> 64), lo = (uint64_t)acc;
    int top = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
    if (top <= 52) {
        *out = ldexp((double)lo, emin - 1075);
        return 1;
    }
    int sh = top - 52;
    unsigned __int128 q = acc >> sh;
    unsigned __int128 rem = acc & ((((unsigned __int128)1) << sh) - 1);
    unsigned __int128 half = ((unsigned __int128)1) << (sh - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    *out = ldexp((double)(uint64_t)q, emin - 1075 + sh);
    return 1;
}

static double fsum(const double *xs, int count) {
    int emin = INT_MAX, emax = INT_MIN;
    if (count > 65536) return fsum_partials(xs, count);
    double narrow;
    if (fsum_narrow(xs, count, &narrow)) return narrow;
    for (int i = 0; i < count; i++) {
        double x = xs[i];
        if (x == 0.0) continue;
        uint64_t m;
        int be = normal_parts(x, &m);
        if (!be) return fsum_partials(xs, count);
        if (be < emin) emin = be;
        if (be > emax) emax = be;
    }
    if (emax == INT_MIN) return 0.0;
    if (emax > 0x7fe - 20) return fsum_partials(xs, count); /* near overflow */
    /* past fsum_narrow: the exponents span more than 57 */
    /* bit k of the integer is worth 2^(emin - 1075 + k) */
    uint64_t L[LIMBS];
    int nl = (emax - emin + 53 + 17) / 64 + 1;
    memset(L, 0, nl * sizeof(uint64_t));
    for (int i = 0; i < count; i++) {
        double x = xs[i];
        if (x == 0.0) continue;
        uint64_t m;
        int sh = normal_parts(x, &m) - emin; /* every term is positive normal here */
        int k = sh >> 6, off = sh & 63;
        uint64_t lo = m << off, hi = off ? m >> (64 - off) : 0;
        uint64_t before = L[k];
        L[k] += lo;
        uint64_t carry = hi + (L[k] < before);
        for (int j = k + 1; carry; j++) {
            before = L[j];
            L[j] += carry;
            carry = L[j] < before;
        }
    }
    int t = nl - 1;
    while (t > 0 && !L[t]) t--;
    int top = t * 64 + 63 - __builtin_clzll(L[t]); /* highest bit set */
    int base = emin - 1075;
    if (top <= 52) return ldexp((double)L[0], base);
    /* the 53 bits from top down, the next (round) bit, any below (sticky) */
    int low = top - 52;
    int k = low >> 6, off = low & 63;
    uint64_t q = L[k] >> off;
    if (off && k + 1 < nl) q |= L[k + 1] << (64 - off);
    q &= ((uint64_t)1 << 53) - 1;
    int rb = low - 1;
    int round = (int)(L[rb >> 6] >> (rb & 63) & 1);
    int sticky = 0;
    if (rb & 63) sticky = (L[rb >> 6] & (((uint64_t)1 << (rb & 63)) - 1)) != 0;
    for (int j = (rb >> 6) - 1; j >= 0 && !sticky; j--) sticky = L[j] != 0;
    if (round && (sticky || (q & 1))) q++;
    return ldexp((double)q, base + low);
}

/* fsum(floats) -> their sum as math.fsum gives it (for the tests) */
static PyObject *py_fsum(PyObject *self, PyObject *args) {
    PyObject *xs;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &xs)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(xs);
    if (n > INT_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "fsum: too many values");
        return NULL;
    }
    double *x = malloc((n + 1) * sizeof(double));
    if (!x) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        x[i] = PyFloat_AsDouble(PyList_GET_ITEM(xs, i));
        if (x[i] == -1.0 && PyErr_Occurred()) {
            free(x);
            return NULL;
        }
        if (!isfinite(x[i])) {
            free(x);
            PyErr_SetString(PyExc_ValueError, "fsum: finite values only");
            return NULL;
        }
    }
    double total = fsum(x, (int)n);
    free(x);
    return PyFloat_FromDouble(total);
}

/* ------------------------------------------------------------ reading */

typedef struct {
    const Tables *t;
    Arena arena;
    int steps, journalist, escape, jessah, up, precise;
    uint64_t wide, quiet;
    const long *radars, *barriers;
    int nbarriers;
    const uint64_t *open;
    const signed char *ann_k, *ann_tc;
    int nann;
    double tau, eps;
    /* ways by targets: Dossier._way */
    uint64_t way_t[64];
    int *ways[64];
    int nways;
} Reading;

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* Dossier._place: NULL in *out when no plan from ``here`` gives the
   announcement; -1 on failure (-2: more triggers than MAXT). */
static int make_place(Reading *R, int here, Place **out) {
    const Tables *t = R->t;
    Arena *a = &R->arena;
    Plan *plans = NULL;
    int np = make_plans(a, t, here, R->steps, R->journalist, R->radars, R->barriers, R->nbarriers, R->precise,
                        &plans);
    if (np < 0) return np;
    int *match = arena_alloc(a, (np + 1) * sizeof(int));
    int *end_of = arena_alloc(a, (np + 1) * sizeof(int));
    int *to = arena_alloc(a, (np + 1) * sizeof(int));
    if (!match || !end_of || !to) return -1;
    int nm = 0, ne = 0;
    for (int i = 0; i < np; i++) {
        const Plan *p = &plans[i];
        if (p->nt != R->nann) continue;
        int same = 1;
        for (int m = 0; m < p->nt && same; m++)
            if (p->k[m] != R->ann_k[m] || p->tc[m] != R->ann_tc[m]) same = 0;
        if (!same) continue;
        int e = -1;
        for (int m = 0; m < ne; m++)
            if (to[m] == p->city) e = m;
        if (e < 0) {
            e = ne;
            to[ne++] = p->city;
        }
        end_of[nm] = e;
        match[nm++] = i;
    }
    if (!nm) {
        *out = NULL;
        return 0;
    }
    Place *pl = arena_alloc(a, sizeof(Place));
    double *danger = arena_alloc(a, np * sizeof(double));
    if (!pl || !danger) return -1;
    memset(pl, 0, sizeof *pl);
    /* Dossier._danger */
    const int *djrow = t->dist[R->jessah];
    const uint64_t *ball = t->ball[R->jessah];
    double w_danger = (R->up == 0 ? 10.0 : 4.0) * 0.9;
    for (int i = 0; i < np; i++) {
        const Plan *p = &plans[i];
        int c = p->city;
        double s = -0.1 * (double)p->nt;
        int d = djrow[c];
        if (d < NBALL) {
            uint64_t hide;
            if (p->nt) {
                int k = p->k[p->nt - 1], tc = p->tc[p->nt - 1];
                uint64_t seen_by = tc >= 0 ? t->ball[tc][1] : t->cont_mask[k];
                hide = (seen_by & R->wide) | ((uint64_t)1 << c);
            } else {
                hide = R->quiet | ((uint64_t)1 << c);
            }
            int crowd = popcount64(hide & ball[d]);
            double share = 2.0 / (double)crowd;
            s -= w_danger * PROXIMITY[d] * (share < 1.0 ? share : 1.0);
        }
        danger[i] = s;
    }
    pl->plans = plans;
    pl->nplans = np;
    pl->danger = danger;
    pl->match = match;
    pl->nmatch = nm;
    pl->to = to;
    pl->nends = ne;
    pl->end_of = end_of;
    *out = pl;
    return 0;
}

/* Dossier._way (Board.staggered_dist from the targets by their penalty) */
static const int *way_for(Reading *R, uint64_t targets) {
    for (int i = 0; i < R->nways; i++)
        if (R->way_t[i] == targets) return R->ways[i];
    const Tables *t = R->t;
    int *d = arena_alloc(&R->arena, MAXN * sizeof(int));
    if (!d) return NULL;
    if (R->nways < 64) { /* remembered for the next guess with these targets */
        R->way_t[R->nways] = targets;
        R->ways[R->nways++] = d;
    }
    const uint64_t *ball = t->ball[R->jessah];
    uint64_t b0 = ball[0], b1 = ball[1], b2 = ball[2];
    uint64_t starts[4] = {targets & ~b2, targets & b2 & ~b1, targets & b1 & ~b0, targets & b0};
    for (int x = 0; x < t->n; x++) d[x] = FAR;
    int late = 4;
    uint64_t reached = 0, frontier = 0;
    int dist = 0;
    while (frontier || dist < late) {
        if (dist < late) frontier |= starts[dist] & ~reached;
        reached |= frontier;
        uint64_t nxt = 0, m = frontier;
        while (m) {
            uint64_t low = m & (~m + 1);
            int x = __builtin_ctzll(m);
            d[x] = dist;
            nxt |= R->open[x];
            m ^= low;
        }
        frontier = nxt & ~reached;
        dist++;
    }
    return d;
}

/* Dossier._scores then _chances, for a guess in ``here`` whose hand cashes in
   ``targets``; NULL on failure. */
static Outcome *outcome_for(Reading *R, Place *pl, int here, uint64_t targets) {
    for (int i = 0; i < pl->nout; i++)
        if (pl->out[i].targets == targets) return &pl->out[i];
    const Tables *t = R->t;
    Arena *a = &R->arena;
    const int *way = NULL;
    if (targets) {
        way = way_for(R, targets);
        if (!way) return NULL;
    }
    int np = pl->nplans;
    double *ex = arena_alloc(a, np * sizeof(double));
    double *qs = arena_alloc(a, (pl->nends + 1) * sizeof(double));
    if (!ex || !qs) return NULL;
    const int *djrow = t->dist[R->jessah];
    double w_way = R->escape ? 0.3 : 1.0;
    for (int i = 0; i < np; i++) {
        const Plan *p = &pl->plans[i];
        int c = p->city;
        double s = pl->danger[i];
        if (way) {
            int x = way[c];
            s -= w_way * (double)(x < 8 ? x : 8);
        }
        if (R->escape) {
            int d = djrow[c];
            s += 0.2 * (double)(d < 5 ? d : 5);
        }
        if (c == here && !p->nt) s += 0.01;
        ex[i] = s;
    }
    /* _softmax */
    double top = ex[0];
    for (int i = 0; i < np; i++)
        if (ex[i] > top) top = ex[i];
    for (int i = 0; i < np; i++) ex[i] = exp((ex[i] - top) / R->tau);
    double total = fsum(ex, np);
    double eps = R->eps;
    double p_ann = 0.0;
    for (int e = 0; e < pl->nends; e++) qs[e] = 0.0;
    for (int m = 0; m < pl->nmatch; m++) {
        double p = (1 - eps) * ex[pl->match[m]] / total + eps / (double)np;
        p_ann += p;
        qs[pl->end_of[m]] += p;
    }
    if (pl->nout == pl->capout) {
        int cap = pl->capout ? 2 * pl->capout : 4;
        Outcome *o = arena_alloc(a, cap * sizeof(Outcome));
        if (!o) return NULL;
        if (pl->nout) memcpy(o, pl->out, pl->nout * sizeof(Outcome));
        pl->out = o;
        pl->capout = cap;
    }
    Outcome *o = &pl->out[pl->nout++];
    o->targets = targets;
    o->p_ann = p_ann;
    o->qs = qs;
    return o;
}

#define MAXROUTES 512
#define MAXCONT 64

static int long_items(PyObject *seq, long *out, Py_ssize_t max) {
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return -1;
    if (n > max) return -2;
    if (PyTuple_CheckExact(seq) || PyList_CheckExact(seq)) { /* the dossier's radars and barriers */
        PyObject **items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = small_long(items[i]);
            if (out[i] == -1 && PyErr_Occurred()) return -1;
        }
        return (int)n;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (seq_int(seq, i, &out[i])) return -1;
    return (int)n;
}

static PyObject *zero_float; /* 0.0, shared by every list below (the answers' cities outside the belief) */

/* A new list of the floats v[0..n). */
static PyObject *float_list(const double *v, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &v[i], sizeof bits);
        if (!bits && zero_float) { /* +0.0 alone: -0.0 is another float */
            Py_INCREF(zero_float);
            PyList_SET_ITEM(out, i, zero_float);
            continue;
        }
        PyObject *x = PyFloat_FromDouble(v[i]);
        if (!x) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}

/* random.Random.randrange(n) as dossier._below draws it: getrandbits(k) for
   n's bit length k until one is below n; -1 on failure. */
static long below(PyObject *getrandbits, long n) {
    int k = 0;
    while ((n >> k) != 0) k++;
    MTObject *s = k >= 1 && k <= 32 ? mt_of(getrandbits, mt_bits_def) : NULL;
    if (s) { /* getrandbits(k), k <= 32: the top k bits of one word */
        for (;;) {
            long v = (long)(mt_next(s) >> (32 - k));
            if (v < n) return v;
        }
    }
    PyObject *kk = PyLong_FromLong(k);
    if (!kk) return -1;
    for (;;) {
        PyObject *r = PyObject_CallOneArg(getrandbits, kk);
        if (!r) break;
        long v = PyLong_AsLong(r);
        Py_DECREF(r);
        if (v == -1 && PyErr_Occurred()) break;
        if (v < n) {
            Py_DECREF(kk);
            return v;
        }
    }
    Py_DECREF(kk);
    return -1;
}

/* systematic(w, n, random) -> n indices of w (weights summing to 1), each
   about n x its weight times, from one draw (dossier._systematic). */
static PyObject *py_systematic(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *w, *rand;
    int n;
    if (fast_args("systematic", args, nargs, "LiO", &w, &n, &rand)) return NULL;
    Py_ssize_t len = PyList_GET_SIZE(w);
    if (len < 1 || n < 0) {
        PyErr_SetString(PyExc_ValueError, "systematic: no weights");
        return NULL;
    }
    double u;
    if (draw_random(rand, &u)) return NULL;
    u = u / (double)n;
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    Py_ssize_t last = len - 1, i = 0;
    double acc = PyFloat_AsDouble(PyList_GET_ITEM(w, 0));
    if (acc == -1.0 && PyErr_Occurred()) goto fail;
    for (int k = 0; k < n; k++) {
        double x = u + (double)k / (double)n;
        while (x > acc && i < last) {
            i++;
            double y = PyFloat_AsDouble(PyList_GET_ITEM(w, i));
            if (y == -1.0 && PyErr_Occurred()) goto fail;
            acc += y;
        }
        PyObject *o = PyLong_FromSsize_t(i);
        if (!o) goto fail;
        PyList_SET_ITEM(out, k, o);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* start(tables, pool, size, cities, jessah, radar, particles, tau, eps,
   getrandbits, random) -> (cities, hands): each guess's hand drawn from
   ``pool`` as random.sample's list path draws it, and its start city among
   ``cities`` by the model's odds for where that hand cashes
   (Dossier._start_guesses); None, drawing nothing, when the sample would
   not take that path (more than 5 of more than 21) or a check is past 63. */
static PyObject *py_start(PyObject *self, PyObject *args) {
    PyObject *cap, *pool_o, *cities_o, *getrandbits, *rand;
    int size, jessah, particles;
    double radar, tau, eps;
    if (!PyArg_ParseTuple(args, "OO!iO!ididdOO", &cap, &PyList_Type, &pool_o, &size, &PyList_Type, &cities_o,
                          &jessah, &radar, &particles, &tau, &eps, &getrandbits, &rand))
        return NULL;
    const Tables *t = PyCapsule_GetPointer(cap, "rnsim.announce.tables");
    if (!t) return NULL;
    Py_ssize_t np = PyList_GET_SIZE(pool_o), nc = PyList_GET_SIZE(cities_o);
    if (size > 5 || np > 21 || size < 0 || size > np || nc < 1 || nc > MAXN || jessah < 0 || jessah >= t->n ||
        particles < 0)
        Py_RETURN_NONE;
    long pool[22], cities[MAXN];
    for (Py_ssize_t i = 0; i < np; i++) {
        pool[i] = small_long(PyList_GET_ITEM(pool_o, i));
        if (pool[i] == -1 && PyErr_Occurred()) return NULL;
        if (pool[i] < 0 || pool[i] >= t->ncheck) Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < nc; i++) {
        cities[i] = small_long(PyList_GET_ITEM(cities_o, i));
        if (cities[i] == -1 && PyErr_Occurred()) return NULL;
        if (cities[i] < 0 || cities[i] >= t->n) Py_RETURN_NONE;
    }
    /* the odds by where a hand cashes, as cumulative weights */
    uint64_t odds_t[64];
    double odds[64][MAXN];
    int nodds = 0;
    PyObject *out_c = PyList_New(particles), *out_h = PyList_New(particles), *result = NULL;
    if (!out_c || !out_h) goto done;
    const int *dj = t->dist[jessah];
    for (int p = 0; p < particles; p++) {
        long rest[22], hand[6];
        memcpy(rest, pool, np * sizeof(long));
        uint64_t targets = 0;
        for (int i = 0; i < size; i++) {
            long j = below(getrandbits, (long)(np - i));
            if (j < 0) goto done;
            hand[i] = rest[j];
            rest[j] = rest[np - i - 1];
            targets |= t->check_mask[hand[i]];
        }
        const double *cum = NULL;
        double fresh[MAXN];
        for (int k = 0; k < nodds; k++)
            if (odds_t[k] == targets) cum = odds[k];
        if (!cum) {
            double *c = nodds < 64 ? odds[nodds] : fresh;
            double ex[MAXN];
            for (Py_ssize_t i = 0; i < nc; i++) {
                int d = FAR;  /* Board.dist_to_mask: the nearest city of targets */
                for (int x = 0; x < t->n; x++)
                    if ((targets >> x & 1) && t->dist[x][cities[i]] < d) d = t->dist[x][cities[i]];
                int a = d < 4 ? d : 4, b = dj[cities[i]] < 4 ? dj[cities[i]] : 4;
                ex[i] = -1.0 * (double)a + 0.6 * (double)b - radar;
            }
            double top = ex[0];  /* _choice: the softmax at tau, mixed with eps */
            for (Py_ssize_t i = 0; i < nc; i++)
                if (ex[i] > top) top = ex[i];
            for (Py_ssize_t i = 0; i < nc; i++) ex[i] = exp((ex[i] - top) / tau);
            double total = fsum(ex, (int)nc);
            double acc = 0.0;
            for (Py_ssize_t i = 0; i < nc; i++) {
                double q = (1 - eps) * ex[i] / total + eps / (double)nc;
                acc = i ? acc + q : q;  /* itertools.accumulate */
                c[i] = acc;
            }
            if (nodds < 64) odds_t[nodds++] = targets;
            cum = c;
        }
        /* _pick: one random(), bisected (bisect_right over all but the last) */
        double r;
        if (draw_random(rand, &r)) goto done;
        r = r * (cum[nc - 1] + 0.0);
        Py_ssize_t lo = 0, hi = nc - 1;
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (r < cum[mid]) hi = mid;
            else lo = mid + 1;
        }
        if (set_pair(out_c, out_h, p, PyLong_FromLong(cities[lo]), int_list(hand, size)) < 0) goto done;
    }
    result = PyTuple_Pack(2, out_c, out_h);
done:
    Py_XDECREF(out_c);
    Py_XDECREF(out_h);
    return result;
}


/* ------------------------------------------------------------ Jessah's decisions */

/* Board.ball[c][min(d, len - 1)] (d >= 0; nball[c] > 0) */
static inline uint64_t ball_at(const Tables *t, int c, int d) {
    int last = t->nball[c] - 1;
    return t->fball[c][d < last ? d : last];
}

/* Board.dist_sum: the distances from c to every city of mask, summed */
static int ball_dist_sum(const Tables *t, int c, uint64_t mask) {
    int total = 0;
    for (int d = 0; d < t->nball[c]; d++) {
        uint64_t rest = mask & ~t->fball[c][d];
        if (!rest) break;
        total += __builtin_popcountll(rest);
    }
    return total;
}

/* n floats of a list (exact floats only); 1 when an item is not a float. */
static int float_items(PyObject *list, double *out, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(list, i);
        if (!PyFloat_CheckExact(x)) return 1;
        out[i] = PyFloat_AS_DOUBLE(x);
    }
    return 0;
}

/* A non-negative int of at most two digits of CPython 3.11 (a mask of the
   map's cities is, on a map of up to 60 cities) read directly into *out: 1;
   0 when it is not such an int (read it through the C API). */
static inline int small_u64(PyObject *o, uint64_t *out) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        const digit *d = ((PyLongObject *)o)->ob_digit;
        if (size >= 0 && size <= 2) {
            *out = size == 0 ? 0 : size == 1 ? (uint64_t)d[0] : (uint64_t)d[0] | (uint64_t)d[1] << PyLong_SHIFT;
            return 1;
        }
    }
#endif
    return 0;
}

/* n masks of a sequence, each within the map's n cities; -1 on failure, 1
   when a mask is not such an int. */
static int mask_items(PyObject *seq, uint64_t *out, int n) {
    Py_ssize_t len = PySequence_Size(seq);
    if (len < 0) return -1;
    if (len < n) return 1;
    uint64_t all = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    if (PyList_CheckExact(seq)) { /* Board.open_masks' lists: their ints read directly */
        int i = 0;
        for (; i < n && small_u64(PyList_GET_ITEM(seq, i), &out[i]); i++)
            if (out[i] & ~all) return 1;
        if (i == n) return 0;
    }
    for (int i = 0; i < n; i++) {
        PyObject *x = PySequence_GetItem(seq, i);
        if (!x) return -1;
        int ok = PyLong_CheckExact(x);
        unsigned long long v = ok ? PyLong_AsUnsignedLongLong(x) : 0;
        Py_DECREF(x);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
            return 1;
        }
        if (!ok || (v & ~all)) return 1;
        out[i] = (uint64_t)v;
    }
    return 0;
}

/* spread(w, masks, steps) -> Expert._spread(w, masks, steps): w after
   ``steps`` steps of a walker who stays or takes an open route, each with the
   same chance (masks: each city's open routes); None when w is longer than
   64, holds other than floats, or a mask reaches past w. */
static PyObject *py_spread(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *w_o, *masks_o;
    int steps;
    if (fast_args("spread", args, nargs, "LOi", &w_o, &masks_o, &steps)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(w_o);
    if (n > MAXN) Py_RETURN_NONE;
    double a[MAXN], b[MAXN], *cur = a, *out = b;
    uint64_t masks[MAXN];
    if (float_items(w_o, cur, n)) Py_RETURN_NONE;
    int rc = mask_items(masks_o, masks, (int)n);
    if (rc) {
        if (rc < 0) return NULL;
        Py_RETURN_NONE;
    }
    for (int s = 0; s < steps; s++) {
        for (Py_ssize_t c = 0; c < n; c++) out[c] = 0.0;
        for (Py_ssize_t c = 0; c < n; c++) {
            double p = cur[c];
            if (p > 0) {
                uint64_t m = masks[c] | ((uint64_t)1 << c);
                double share = p / (double)__builtin_popcountll(m);
                while (m) {
                    int x = __builtin_ctzll(m);
                    out[x] = out[x] + share;
                    m &= m - 1;
                }
            }
        }
        double *tmp = cur;
        cur = out;
        out = tmp;
    }
    return float_list(cur, n);
}

/* barriers(tables, w, masks, nroutes, scale) -> Expert._weighted_barriers:
   per route, 0.0 unless exactly one of its ends has weight in w; then
   ``scale`` x that end's weight x 1.5 across an ocean (its ends on two
   continents), else 1, over its open exits (masks: each city's open routes;
   none counts 1). None when w is not the map's n floats, a mask reaches past
   the map, or the map's routes are not ``nroutes`` routes of two ends. */
static PyObject *py_barriers(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *cap, *w_o, *masks_o;
    int nroutes;
    double scale;
    if (fast_args("barriers", args, nargs, "OLOid", &cap, &w_o, &masks_o, &nroutes, &scale)) return NULL;
    const Tables *t = PyCapsule_GetPointer(cap, "rnsim.announce.tables");
    if (!t) return NULL;
    int n = t->n;
    double w[MAXN];
    uint64_t masks[MAXN];
    if (nroutes != t->nroutes || PyList_GET_SIZE(w_o) != n || float_items(w_o, w, n)) Py_RETURN_NONE;
    int rc = mask_items(masks_o, masks, n);
    if (rc) {
        if (rc < 0) return NULL;
        Py_RETURN_NONE;
    }
    uint64_t held = 0;
    for (int c = 0; c < n; c++)
        if (w[c] > 0) held |= (uint64_t)1 << c;
    PyObject *out = PyList_New(nroutes);
    if (!out) return NULL;
    for (int r = 0; r < nroutes; r++) {
        int x = t->route_end[2 * r], y = t->route_end[2 * r + 1];
        int hx = (int)(held >> x & 1);
        double v = 0.0;
        if (hx != (int)(held >> y & 1)) {
            int h = hx ? x : y, o = hx ? y : x; /* the end with weight, the other */
            int exits = __builtin_popcountll(masks[h]);
            double s = w[h] * (1.0 + 0.5 * (double)(t->cont[h] != t->cont[o])) / (double)(exits ? exits : 1);
            v = scale * s;
        }
        PyObject *f = PyFloat_FromDouble(v);
        if (!f) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, r, f);
    }
    return out;
}

#define HUNT_STEPS 16

typedef struct {
    int city, depth, first;
    uint64_t seen;
    double got;
} HuntNode;

/* Expert._weighted_path's answer when nothing can be found: (0.0, -2, ()) */
static PyObject *hunt_nothing(void) { return Py_BuildValue("(di())", 0.0, -2); }

/* The hunt's search itself, past its early returns (see py_hunt). */
static PyObject *hunt_search(const Tables *t, uint64_t belief, int start, int steps, const double *weights,
                             double mix, double ahead, int reach, const uint64_t *open) {
    int n = t->n;
    int size = __builtin_popcountll(belief);
    double total = 0.0; /* _mass: lowest city first */
    for (uint64_t m = belief; m; m &= m - 1) total += weights[__builtin_ctzll(m)];
    if (total <= 0.0) return hunt_nothing();
    double wn[MAXN], after[MAXN], near[MAXN];
    for (int c = 0; c < n; c++) {
        wn[c] = belief >> c & 1 ? weights[c] * (double)size / total : 0.0;
        after[c] = 0.0;
        near[c] = -1.0;
    }
    int look = ahead > 0.0;
    uint64_t spread = 0;
    double scale = 0.0;
    if (look) { /* _spread_move */
        for (uint64_t bm = belief; bm; bm &= bm - 1) {
            int c = __builtin_ctzll(bm);
            uint64_t m = open[c] | ((uint64_t)1 << c);
            double share = wn[c] / (double)__builtin_popcountll(m);
            for (; m; m &= m - 1) {
                int y = __builtin_ctzll(m);
                after[y] += share;
            }
        }
    } else { /* expand(belief, b.nbr_mask) */
        spread = belief;
        for (uint64_t bm = belief; bm; bm &= bm - 1) {
            int c = __builtin_ctzll(bm);
            for (int j = 0; j < t->deg[c]; j++) spread |= (uint64_t)1 << t->nbr[c][j];
        }
        scale = 0.01 / (double)__builtin_popcountll(spread);
    }
    double best_s = 0.0, best_got = 0.0;
    int best_first = -2;
    double by_first[MAXN + 1]; /* by first step + 1 (-1: inspect here) */
    char has[MAXN + 1];
    memset(has, 0, sizeof has);
    HuntNode stack[HUNT_STEPS * (MAXDEG + 1) + 2];
    int top = 0;
    stack[top++] = (HuntNode){start, 0, -3, 0, 0.0};
    while (top) {
        HuntNode nd = stack[--top];
        if (nd.depth == steps) continue;
        int deg = t->deg[nd.city];
        int more = steps - nd.depth - 1;
        int k = nd.depth == 0 && (belief >> nd.city & 1) ? -1 : 0;
        while (k < deg) {
            int nx, f, here;
            if (k < 0) {
                nx = nd.city;
                f = -1;
                here = 1;
            } else {
                nx = t->nbr[nd.city][k];
                f = nd.first == -3 ? nx : nd.first;
                here = 0;
            }
            k++;
            uint64_t s2 = nd.seen | (uint64_t)1 << nx;
            double got = nd.seen >> nx & 1 ? nd.got : nd.got + wn[nx];
            if (got != 0.0) {
                double sc;
                if (look) {
                    double v = near[nx];
                    if (v < 0.0) { /* _mass_within */
                        v = 0.0;
                        for (uint64_t m = ball_at(t, nx, reach); m; m &= m - 1) v += after[__builtin_ctzll(m)];
                        near[nx] = v;
                    }
                    sc = got + ahead * ((double)size - got) / (double)size * v;
                } else {
                    sc = got - scale * (double)ball_dist_sum(t, nx, spread);
                }
                if (sc > (has[f + 1] ? by_first[f + 1] : 0.0)) {
                    by_first[f + 1] = sc;
                    has[f + 1] = 1;
                }
                if (sc > best_s) {
                    best_s = sc;
                    best_first = f;
                    best_got = got;
                }
            }
            if (here || (more && ((look && got != 0.0) || (belief & ~s2 & ball_at(t, nx, more)))))
                stack[top++] = (HuntNode){nx, nd.depth + 1, f, s2, got};
        }
    }
    long alts[MAXN + 1];
    int nalts = 0;
    if (mix > 0)
        for (int i = 0; i <= n; i++)
            if (has[i] && by_first[i] >= best_s - mix) alts[nalts++] = i - 1;
    PyObject *at = PyTuple_New(nalts);
    if (!at) return NULL;
    for (int i = 0; i < nalts; i++) {
        PyObject *x = PyLong_FromLong(alts[i]);
        if (!x) {
            Py_DECREF(at);
            return NULL;
        }
        PyTuple_SET_ITEM(at, i, x);
    }
    return Py_BuildValue("(diN)", best_got / (double)size, best_first, at);
}

/* hunt(tables, belief, start, steps, weights, mix, ahead, reach, open_masks)
   -> Expert._weighted_path(b, belief, start, steps, weights, mix, ahead,
   reach, open_masks): (the chance, the first step, the near-equal first
   steps) of Jessah's best inspection path on the dossier's weights; None
   when this code cannot search it (a belief or mask past the map, weights
   other than n floats, more than HUNT_STEPS steps, a negative reach, a map
   whose balls it does not hold). */
static PyObject *py_hunt(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *cap, *belief_o, *w_o, *open_o;
    int start, steps, reach;
    double mix, ahead;
    if (fast_args("hunt", args, nargs, "ONiiLddiO", &cap, &belief_o, &start, &steps, &w_o, &mix, &ahead, &reach,
                  &open_o))
        return NULL;
    const Tables *t = PyCapsule_GetPointer(cap, "rnsim.announce.tables");
    if (!t) return NULL;
    int n = t->n;
    if (start < 0 || start >= n || steps > HUNT_STEPS || reach < 0 || !t->nball[start]) Py_RETURN_NONE;
    for (int c = 0; c < n; c++)
        if (!t->nball[c]) Py_RETURN_NONE;
    unsigned long long bv = PyLong_AsUnsignedLongLong(belief_o);
    if (bv == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    uint64_t belief = (uint64_t)bv;
    if (n < 64 && belief >> n) Py_RETURN_NONE;
    if (!belief || steps <= 0 || !(belief & ball_at(t, start, steps))) return hunt_nothing();
    double weights[MAXN];
    if (PyList_GET_SIZE(w_o) < n || float_items(w_o, weights, n)) Py_RETURN_NONE;
    uint64_t open[MAXN];
    if (ahead > 0.0) {
        int rc = mask_items(open_o, open, n);
        if (rc) {
            if (rc < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    return hunt_search(t, belief, start, steps, weights, mix, ahead, reach, open);
}

/* ------------------------------------------------------------ the guesses */

/* The dossier's guesses of Angela's (city, hand) and their weights, owned by
   one C object (Dossier.g, made by guesses()): each event's loop over the
   guesses reads and writes these arrays in place, and only the event's
   few ints and the answer per city cross into Python. Its methods are the
   Python source's loops over Dossier's lists (each names its twin), the
   same floats bit for bit and the same draws from the dossier's stream.
   Cities and checks are 0..63 (masks are 64-bit); a hand holds a check
   once, so at most MAXH of them. */
#define MAXH 64

typedef struct {
    PyObject_HEAD
    Py_ssize_t n, cap;
    long *city;
    double *w;
    unsigned char *hand; /* guess i's checks, in order, from hand[i * MAXH] */
    unsigned char *hlen;
} Guesses;

static PyTypeObject GuessesType;

static void guesses_dealloc(Guesses *g) {
    free(g->city);
    free(g->w);
    free(g->hand);
    free(g->hlen);
    PyObject_Free(g);
}

/* Room for n guesses, the ones held kept; -1 on failure. */
static int guesses_reserve(Guesses *g, Py_ssize_t n) {
    if (n <= g->cap) return 0;
    long *c = realloc(g->city, n * sizeof(long));
    if (c) g->city = c;
    double *w = realloc(g->w, n * sizeof(double));
    if (w) g->w = w;
    unsigned char *h = realloc(g->hand, (size_t)n * MAXH);
    if (h) g->hand = h;
    unsigned char *l = realloc(g->hlen, n);
    if (l) g->hlen = l;
    if (!c || !w || !h || !l) {
        PyErr_NoMemory();
        return -1;
    }
    g->cap = n;
    return 0;
}

/* guesses(cities, hands, w) -> the guesses as one C object, or None when a
   city or a check is outside 0..63 (the Python source keeps them then). */
static PyObject *py_guesses(PyObject *self, PyObject *args) {
    PyObject *cities, *hands, *w;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &cities, &PyList_Type, &hands, &PyList_Type, &w))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(cities);
    if (PyList_GET_SIZE(hands) != n || PyList_GET_SIZE(w) != n) {
        PyErr_SetString(PyExc_ValueError, "guesses: cities, hands and w differ in length");
        return NULL;
    }
    Guesses *g = PyObject_New(Guesses, &GuessesType);
    if (!g) return NULL;
    g->n = g->cap = 0;
    g->city = NULL;
    g->w = NULL;
    g->hand = g->hlen = NULL;
    if (guesses_reserve(g, n > 0 ? n : 1)) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = small_long(PyList_GET_ITEM(cities, i));
        if (c == -1 && PyErr_Occurred()) goto fail;
        if (c < 0 || c >= 64) goto refuse;
        g->city[i] = c;
        PyObject *h = PyList_GET_ITEM(hands, i);
        if (!PyList_Check(h)) {
            PyErr_SetString(PyExc_TypeError, "guesses: a hand must be a list");
            goto fail;
        }
        Py_ssize_t nh = PyList_GET_SIZE(h);
        if (nh > MAXH) goto refuse;
        for (Py_ssize_t j = 0; j < nh; j++) {
            long x = small_long(PyList_GET_ITEM(h, j));
            if (x == -1 && PyErr_Occurred()) goto fail;
            if (x < 0 || x >= 64) goto refuse;
            g->hand[i * MAXH + j] = (unsigned char)x;
        }
        g->hlen[i] = (unsigned char)nh;
        g->w[i] = PyFloat_AsDouble(PyList_GET_ITEM(w, i));
        if (g->w[i] == -1.0 && PyErr_Occurred()) goto fail;
    }
    g->n = n;
    return (PyObject *)g;
refuse:
    Py_DECREF(g);
    Py_RETURN_NONE;
fail:
    Py_DECREF(g);
    return NULL;
}

/* lists() -> (cities, hands, w): new lists of what the guesses hold. */
static PyObject *g_lists(Guesses *g, PyObject *unused) {
    PyObject *oc = int_list(g->city, g->n), *ow = float_list(g->w, g->n), *oh = PyList_New(g->n), *out = NULL;
    if (!oc || !ow || !oh) goto done;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        long v[MAXH];
        for (int j = 0; j < g->hlen[i]; j++) v[j] = g->hand[i * MAXH + j];
        PyObject *h = int_list(v, g->hlen[i]);
        if (!h) goto done;
        PyList_SET_ITEM(oh, i, h);
    }
    out = PyTuple_Pack(3, oc, oh, ow);
done:
    Py_XDECREF(oc);
    Py_XDECREF(oh);
    Py_XDECREF(ow);
    return out;
}

/* announce(tables, ann, steps, journalist, escape, pub, jessah, up, radars,
   barriers, precise, random, tau, eps) -> True once each guess has its new
   city and its weight times the announcement's probability (before
   normalising: Dossier._reach from the public belief ``pub``, then
   Dossier._read_guesses); None, touching nothing and drawing nothing, when
   this code cannot read it. The open routes' masks are the barriers' (engine
   belief.open_masks: a barred route closes its two ends to each other). */
static PyObject *g_announce(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *cap, *ann, *radars_o, *barriers_o, *rand, *pub_o;
    int steps, journalist, escape, jessah, up, precise;
    double tau, eps;
    if (fast_args("announce", args, nargs, "OTippOiiOOpOdd", &cap, &ann, &steps, &journalist, &escape, &pub_o,
                  &jessah, &up, &radars_o, &barriers_o, &precise, &rand, &tau, &eps))
        return NULL;
    const Tables *t = PyCapsule_GetPointer(cap, "rnsim.announce.tables");
    if (!t) return NULL;
    Reading R;
    memset(&R, 0, sizeof R);
    R.t = t;
    R.steps = steps;
    R.journalist = journalist;
    R.escape = escape;
    R.jessah = jessah;
    R.up = up;
    R.precise = precise;
    R.tau = tau;
    R.eps = eps;
    Place *places[MAXN];
    long radars[MAXCONT], barriers[MAXROUTES];
    uint64_t open[MAXN];
    signed char ann_k[MAXT], ann_tc[MAXT];
    if (jessah < 0 || jessah >= t->n || t->nroutes < 0) Py_RETURN_NONE;
    uint64_t pub;
    if (as_u64(pub_o, &pub)) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (t->n < 64 && pub >> t->n) Py_RETURN_NONE;
    Py_ssize_t nann = PyTuple_GET_SIZE(ann);
    if (nann > MAXT) Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < nann; i++) {
        long k, tc;
        PyObject *pair = PyTuple_GET_ITEM(ann, i);
        if (seq_int(pair, 0, &k) || seq_int(pair, 1, &tc)) return NULL;
        if (k < -128 || k > 127 || tc < -128 || tc > 127) Py_RETURN_NONE;
        ann_k[i] = (signed char)k;
        ann_tc[i] = (signed char)tc;
    }
    R.ann_k = ann_k;
    R.ann_tc = ann_tc;
    R.nann = (int)nann;
    int nrad = long_items(radars_o, radars, MAXCONT);
    int nbar = long_items(barriers_o, barriers, MAXROUTES);
    if (nrad == -1 || nbar == -1) return NULL;
    if (nrad < t->ncont || nbar < 0 || nbar > t->nroutes) Py_RETURN_NONE;
    R.radars = radars;
    R.barriers = barriers;
    R.nbarriers = nbar;
    const uint64_t *nbr = t->nbr_mask; /* every route open */
    memcpy(open, nbr, t->n * sizeof(uint64_t));
    for (int r = 0; r < nbar; r++)
        if (barriers[r]) {
            int x = t->route_end[2 * r], y = t->route_end[2 * r + 1];
            open[x] &= ~((uint64_t)1 << y);
            open[y] &= ~((uint64_t)1 << x);
        }
    R.open = open;
    /* Dossier._reach: where the public can place her after the movement,
       and the part of it she can reach without tripping a radar */
    const uint64_t *masks = journalist ? nbr : open;
    uint64_t wide = pub;
    for (int s = 0; s < steps; s++) {
        uint64_t out = wide;
        for (uint64_t m = wide; m; m &= m - 1) out |= masks[__builtin_ctzll(m)];
        wide = out;
    }
    uint64_t watched = 0;
    if (!journalist)
        for (int k = 0; k < t->ncont; k++)
            if (radars[k]) watched |= t->cont_mask[k];
    R.wide = wide;
    R.quiet = (wide & ~watched) | pub;
    PyObject *result = NULL;
    Py_ssize_t n = g->n;
    /* every city's plans first: nothing is drawn or written before this code
       is sure to read the whole announcement */
    uint64_t tried = 0;
    uint64_t *targets = arena_alloc(&R.arena, (n + 1) * sizeof(uint64_t)); /* per guess, Dossier._targets */
    if (!targets) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = g->city[i];
        if (c >= t->n) {
            PyErr_SetString(PyExc_ValueError, "announce: a guess's city is off the map");
            goto done;
        }
        uint64_t ti = 0;
        const unsigned char *h = &g->hand[i * MAXH];
        for (int j = 0; j < g->hlen[i]; j++) {
            if (h[j] >= t->ncheck) {
                PyErr_SetString(PyExc_ValueError, "announce: a guess holds an unknown check");
                goto done;
            }
            ti |= t->check_mask[h[j]];
        }
        targets[i] = ti;
        if (tried >> c & 1) continue;
        int rc = make_place(&R, (int)c, &places[c]);
        if (rc == -2) {
            result = Py_None; /* more triggers than MAXT: the Python source reads it */
            Py_INCREF(result);
            goto done;
        }
        if (rc < 0) {
            PyErr_NoMemory();
            goto done;
        }
        tried |= (uint64_t)1 << c;
    }
    /* copies of a guess sit side by side after a resampling: one with the
       previous guess's city and targets takes its outcome without a search */
    long last_c = -1;
    uint64_t last_t = 0;
    Outcome *o = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = g->city[i];
        Place *pl = places[c];
        long pick = c;
        double wi = 0.0;
        if (pl) {
            if (c != last_c || targets[i] != last_t) {
                o = outcome_for(&R, pl, (int)c, targets[i]);
                if (!o) {
                    PyErr_NoMemory();
                    goto done;
                }
                last_c = c;
                last_t = targets[i];
            }
            if (o->p_ann > 0) {
                double r;
                if (draw_random(rand, &r)) goto done;
                r = r * o->p_ann;
                pick = pl->to[pl->nends - 1];
                double acc = 0.0;
                for (int j = 0; j < pl->nends; j++) {
                    acc += o->qs[j];
                    if (r <= acc) {
                        pick = pl->to[j];
                        break;
                    }
                }
                wi = g->w[i] * o->p_ann;
            }
        }
        g->city[i] = pick;
        g->w[i] = wi;
    }
    result = Py_True;
    Py_INCREF(result);
done:
    arena_free(&R.arena);
    return result;
}

/* answer(belief, n, floor) -> the probability of each of the n cities, or
   None when no guess in the belief has weight (Dossier._answer). */
static PyObject *g_answer(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *belief_o;
    int n;
    double fl;
    if (fast_args("answer", args, nargs, "Oid", &belief_o, &n, &fl)) return NULL;
    if (n < 1 || n > MAXN) {
        PyErr_SetString(PyExc_ValueError, "answer: at most 64 cities");
        return NULL;
    }
    uint64_t belief;
    if (as_u64(belief_o, &belief)) return NULL;
    double mass[MAXN];
    for (int c = 0; c < n; c++) mass[c] = 0.0;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        long c = g->city[i];
        if (c >= n) {
            PyErr_SetString(PyExc_ValueError, "answer: a guess's city is off the map");
            return NULL;
        }
        if (belief >> c & 1) mass[c] = mass[c] + g->w[i];
    }
    double total = fsum(mass, n);
    if (total <= 0) Py_RETURN_NONE;
    int k = popcount64(belief);
    double p[MAXN];
    for (int c = 0; c < n; c++) p[c] = (belief >> c & 1) ? (1 - fl) * mass[c] / total + fl / (double)k : 0.0;
    return float_list(p, n);
}

/* settle(particles, keep, random) -> True once the weights are set to 0
   outside the cities of the bitmask ``keep`` (None: none), normalised, and
   the guesses resampled to ``particles`` when the weights have degenerated
   (effective sample size under half the guesses); False, touching nothing,
   when no weight is left (Dossier._settle). */
static PyObject *g_settle(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *keep_o, *rand;
    int particles;
    if (fast_args("settle", args, nargs, "iOO", &particles, &keep_o, &rand)) return NULL;
    if (particles < 1) {
        PyErr_SetString(PyExc_ValueError, "settle: no guesses");
        return NULL;
    }
    int restricted = keep_o != Py_None;
    uint64_t keep = 0;
    if (restricted && as_u64(keep_o, &keep)) return NULL;
    Py_ssize_t n = g->n;
    double *x = malloc((n + 1) * sizeof(double));
    if (!x) return PyErr_NoMemory();
    PyObject *out = NULL;
    for (Py_ssize_t i = 0; i < n; i++) x[i] = restricted && !(keep >> g->city[i] & 1) ? 0.0 : g->w[i];
    double total = fsum(x, (int)n);
    if (total <= 0) {
        out = Py_False;
        Py_INCREF(out);
        goto done;
    }
    if (total != 1.0) /* x / 1.0 is x, bit for bit: nothing to divide then */
        for (Py_ssize_t i = 0; i < n; i++) x[i] = x[i] / total;
    /* the effective sample size 1 / sum(w^2) against half the guesses,
       summed plainly unless that close to the threshold (then exactly) */
    double sq = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) sq += x[i] * x[i];
    double ess = 1.0 / sq;
    double half = (double)particles / 2;
    if (fabs(ess - half) <= 1e-9 * half) {
        double *x2 = malloc((n + 1) * sizeof(double));
        if (!x2) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) x2[i] = x[i] * x[i];
        ess = 1.0 / fsum(x2, (int)n);
        free(x2);
    }
    if (ess >= half) {
        memcpy(g->w, x, n * sizeof(double));
        out = Py_True;
        Py_INCREF(out);
        goto done;
    }
    /* Dossier._resampled: indices drawn systematically (dossier._systematic)
       by the weights x, every copy weighing 1 / particles */
    double u;
    if (draw_random(rand, &u)) goto done;
    u = u / (double)particles;
    Guesses fresh;
    memset(&fresh, 0, sizeof fresh);
    if (guesses_reserve(&fresh, particles)) {
        free(fresh.city);
        free(fresh.w);
        free(fresh.hand);
        free(fresh.hlen);
        goto done;
    }
    Py_ssize_t last = n - 1, i = 0;
    double acc = x[0];
    for (int k = 0; k < particles; k++) {
        double at = u + (double)k / (double)particles;
        while (at > acc && i < last) {
            i++;
            acc += x[i];
        }
        fresh.city[k] = g->city[i];
        fresh.hlen[k] = g->hlen[i];
        memcpy(&fresh.hand[(size_t)k * MAXH], &g->hand[(size_t)i * MAXH], g->hlen[i]);
        fresh.w[k] = 1.0 / (double)particles;
    }
    free(g->city);
    free(g->w);
    free(g->hand);
    free(g->hlen);
    g->city = fresh.city;
    g->w = fresh.w;
    g->hand = fresh.hand;
    g->hlen = fresh.hlen;
    g->n = g->cap = particles;
    out = Py_True;
    Py_INCREF(out);
done:
    free(x);
    return out;
}

/* Guess i's check at j dropped, the later ones moved up (list.pop(j)). */
static void drop_check(Guesses *g, Py_ssize_t i, int j) {
    unsigned char *h = &g->hand[(size_t)i * MAXH];
    memmove(&h[j], &h[j + 1], g->hlen[i] - j - 1);
    g->hlen[i]--;
}

static uint64_t held_mask(const Guesses *g, Py_ssize_t i) {
    uint64_t m = 0;
    for (int j = 0; j < g->hlen[i]; j++) m |= (uint64_t)1 << g->hand[(size_t)i * MAXH + j];
    return m;
}

/* The ints of a list into v (at most 64 of them, each 0..63); the count,
   -1 on failure, -2 when one is outside 0..63 or there are more. */
static int check_items(PyObject *list, long *v) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > 64) return -2;
    for (Py_ssize_t j = 0; j < n; j++) {
        v[j] = small_long(PyList_GET_ITEM(list, j));
        if (v[j] == -1 && PyErr_Occurred()) return -1;
        if (v[j] < 0 || v[j] >= 64) return -2;
    }
    return (int)n;
}

/* cash(check, miss, getrandbits) -> None, once each hand that held
   ``check`` has given it up and each other guess has kept ``miss`` of its
   weight and lost a check drawn at random (Dossier._cash_each). */
static PyObject *g_cash(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    long check;
    double miss;
    PyObject *getrandbits;
    if (fast_args("cash", args, nargs, "ldO", &check, &miss, &getrandbits)) return NULL;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        int nh = g->hlen[i], at = -1;
        for (int j = 0; j < nh && at < 0; j++)
            if (g->hand[(size_t)i * MAXH + j] == check) at = j;
        if (at < 0) {
            g->w[i] = g->w[i] * miss;
            if (!nh) continue;
            long j = below(getrandbits, nh);
            if (j < 0) return NULL;
            at = (int)j;
        }
        drop_check(g, i, at);
    }
    Py_RETURN_NONE;
}

/* draw(pool, drawn, getrandbits) -> True once each hand has drawn ``drawn``
   checks of ``pool`` it did not hold (Dossier._draw_each); False, touching
   nothing, when a check of the pool is outside 0..63. */
static PyObject *g_draw(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *pool_o, *getrandbits;
    int drawn;
    if (fast_args("draw", args, nargs, "LiO", &pool_o, &drawn, &getrandbits)) return NULL;
    long pool[64], free_[64];
    int np = check_items(pool_o, pool);
    if (np == -1) return NULL;
    if (np == -2) Py_RETURN_FALSE;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        uint64_t held = held_mask(g, i);
        int nf = 0;
        for (int j = 0; j < np; j++)
            if (!(held >> pool[j] & 1)) free_[nf++] = pool[j];
        for (int d = 0; d < drawn && nf; d++) {
            long j = below(getrandbits, nf);
            if (j < 0) return NULL;
            if (g->hlen[i] >= MAXH) {
                PyErr_SetString(PyExc_ValueError, "draw: a hand holds a check twice");
                return NULL;
            }
            g->hand[(size_t)i * MAXH + g->hlen[i]++] = (unsigned char)free_[j];
            memmove(&free_[j], &free_[j + 1], (nf - j - 1) * sizeof(long)); /* list.pop(j) */
            nf--;
        }
    }
    Py_RETURN_TRUE;
}

/* replace(got, pool, getrandbits) -> True once each check of ``got`` (a
   bitmask: Jessah drew them) in a hand is replaced by one of ``pool`` the
   hand does not hold, drawn at random (Dossier._jessah_drew); False,
   touching nothing, when a check of the pool is outside 0..63. */
static PyObject *g_replace(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *got_o, *pool_o, *getrandbits;
    if (fast_args("replace", args, nargs, "OLO", &got_o, &pool_o, &getrandbits)) return NULL;
    uint64_t got;
    if (as_u64(got_o, &got)) return NULL;
    long pool[64], free_[64];
    int np = check_items(pool_o, pool);
    if (np == -1) return NULL;
    if (np == -2) Py_RETURN_FALSE;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        unsigned char *h = &g->hand[(size_t)i * MAXH];
        for (int j = 0; j < g->hlen[i]; j++) {
            if (!(got >> h[j] & 1)) continue;
            uint64_t held = held_mask(g, i);
            int nf = 0;
            for (int x = 0; x < np; x++)
                if (!(held >> pool[x] & 1)) free_[nf++] = pool[x];
            if (!nf) continue;
            long k = below(getrandbits, nf);
            if (k < 0) return NULL;
            h[j] = (unsigned char)free_[k];
        }
    }
    Py_RETURN_TRUE;
}

/* fit(size, mine, pool, getrandbits) -> 1 when every hand now holds
   ``size`` checks and none of ``mine`` (a bitmask), 0 when some cannot; -1,
   touching nothing, when a hand needs fixing and ``pool`` is None (call
   again with the unseen checks); -2, touching nothing, when a check is
   outside 0..63 (Dossier._fit_each, which then does it). A hand that needs
   fixing loses Jessah's checks, then checks drawn at random down to
   ``size``, then draws from ``pool`` up to it. */
static PyObject *g_fit(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *mine_o, *pool_o, *getrandbits;
    long size;
    if (fast_args("fit", args, nargs, "lOOO", &size, &mine_o, &pool_o, &getrandbits)) return NULL;
    uint64_t mine;
    if (as_u64(mine_o, &mine)) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        return PyLong_FromLong(-2);
    }
    int any = 0;
    for (Py_ssize_t i = 0; i < g->n && !any; i++) any = g->hlen[i] != size || (held_mask(g, i) & mine);
    if (!any) return PyLong_FromLong(1);
    if (pool_o == Py_None) return PyLong_FromLong(-1);
    if (!PyList_Check(pool_o)) {
        PyErr_SetString(PyExc_TypeError, "fit: pool must be a list");
        return NULL;
    }
    long pool[64];
    int np = check_items(pool_o, pool);
    if (np == -1) return NULL;
    if (np == -2) return PyLong_FromLong(-2);
    int all = 1;
    for (Py_ssize_t i = 0; i < g->n; i++) {
        if (g->hlen[i] != size || (held_mask(g, i) & mine)) {
            unsigned char *h = &g->hand[(size_t)i * MAXH];
            int k = 0;
            for (int j = 0; j < g->hlen[i]; j++)
                if (!(mine >> h[j] & 1)) h[k++] = h[j];
            g->hlen[i] = (unsigned char)k;
            while (g->hlen[i] > size) {
                long j = below(getrandbits, g->hlen[i]);
                if (j < 0) return NULL;
                drop_check(g, i, (int)j);
            }
            uint64_t held = held_mask(g, i);
            long free_[64];
            int nf = 0;
            for (int j = 0; j < np; j++)
                if (!(held >> pool[j] & 1)) free_[nf++] = pool[j];
            while (g->hlen[i] < size && nf && g->hlen[i] < MAXH) {
                long j = below(getrandbits, nf);
                if (j < 0) return NULL;
                h[g->hlen[i]++] = (unsigned char)free_[j];
                memmove(&free_[j], &free_[j + 1], (nf - j - 1) * sizeof(long));
                nf--;
            }
        }
        if (g->hlen[i] != size) all = 0;
    }
    return PyLong_FromLong(all);
}

/* reveal(city) -> None: she is seen in ``city``; the guesses elsewhere
   lose their weight unless that leaves none, and every guess has her there
   (Dossier._reveal_each). */
static PyObject *g_reveal(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    long city;
    if (fast_args("reveal", args, nargs, "l", &city)) return NULL;
    Py_ssize_t n = g->n;
    double *x = malloc((n + 1) * sizeof(double));
    if (!x) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) x[i] = g->city[i] == city ? g->w[i] : 0.0;
    if (fsum(x, (int)n) > 0) memcpy(g->w, x, n * sizeof(double));
    free(x);
    for (Py_ssize_t i = 0; i < n; i++) g->city[i] = city;
    Py_RETURN_NONE;
}

/* decline(tables, check_cont, jessah, last, decline) -> None: a Bank she
   performed without cashing; each guess whose hand holds a check of its
   city's continent keeps ``decline`` of its weight, unless ``last`` (her
   last identity) and Jessah is at most one step away (Dossier._decline_each). */
static PyObject *g_decline(Guesses *g, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *cap, *cc_o;
    int jessah, last;
    double d;
    if (fast_args("decline", args, nargs, "OOipd", &cap, &cc_o, &jessah, &last, &d)) return NULL;
    const Tables *t = PyCapsule_GetPointer(cap, "rnsim.announce.tables");
    if (!t) return NULL;
    if (jessah < 0 || jessah >= t->n) {
        PyErr_SetString(PyExc_ValueError, "decline: Jessah's city is off the map");
        return NULL;
    }
    long cc[64];
    Py_ssize_t ncc = PySequence_Size(cc_o);
    if (ncc < 0) return NULL;
    if (ncc > 64) ncc = 64;
    for (Py_ssize_t x = 0; x < ncc; x++)
        if (seq_int(cc_o, x, &cc[x])) return NULL;
    const int *dj = t->dist[jessah];
    for (Py_ssize_t i = 0; i < g->n; i++) {
        long c = g->city[i];
        if (c >= t->n) {
            PyErr_SetString(PyExc_ValueError, "decline: a guess's city is off the map");
            return NULL;
        }
        int k = t->cont[c], cashes = 0;
        for (int j = 0; j < g->hlen[i] && !cashes; j++) {
            int x = g->hand[(size_t)i * MAXH + j];
            if (x >= ncc) {
                PyErr_SetString(PyExc_ValueError, "decline: a guess holds an unknown check");
                return NULL;
            }
            cashes = cc[x] == k;
        }
        if (cashes && !(last && dj[c] <= 1)) g->w[i] = g->w[i] * d;
    }
    Py_RETURN_NONE;
}

static PyMethodDef guesses_methods[] = {
    {"lists", (PyCFunction)g_lists, METH_NOARGS, "(cities, hands, w): new lists of the guesses."},
    {"announce", (PyCFunction)(void (*)(void))g_announce, METH_FASTCALL,
     "Dossier._read_guesses, in place (see the module)."},
    {"answer", (PyCFunction)(void (*)(void))g_answer, METH_FASTCALL,
     "Dossier._answer's probability per city (see the module)."},
    {"settle", (PyCFunction)(void (*)(void))g_settle, METH_FASTCALL,
     "Dossier._settle, in place (see the module)."},
    {"cash", (PyCFunction)(void (*)(void))g_cash, METH_FASTCALL, "Dossier._cash_each, in place (see the module)."},
    {"draw", (PyCFunction)(void (*)(void))g_draw, METH_FASTCALL, "Dossier._draw_each, in place (see the module)."},
    {"fit", (PyCFunction)(void (*)(void))g_fit, METH_FASTCALL, "Dossier._fit_each, in place (see the module)."},
    {"replace", (PyCFunction)(void (*)(void))g_replace, METH_FASTCALL,
     "Dossier._jessah_drew, in place (see the module)."},
    {"reveal", (PyCFunction)(void (*)(void))g_reveal, METH_FASTCALL,
     "Dossier._reveal_each, in place (see the module)."},
    {"decline", (PyCFunction)(void (*)(void))g_decline, METH_FASTCALL,
     "Dossier._decline_each, in place (see the module)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GuessesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_dossier_core.Guesses",
    .tp_basicsize = sizeof(Guesses),
    .tp_dealloc = (destructor)guesses_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Jessah's dossier's guesses, owned by C (see guesses() and the module).",
    .tp_methods = guesses_methods,
};

static PyMethodDef methods[] = {
    {"state_words", (PyCFunction)(void (*)(void))py_state_words, METH_FASTCALL,
     "rng.getstate()[1][:k], read in place for a random.Random; None for any other stream."},
    {"guesses", py_guesses, METH_VARARGS, "The guesses (cities, hands, weights) as one C object, or None."},
    {"start", py_start, METH_VARARGS, "Dossier._start_guesses (see the module)."},
    {"systematic", (PyCFunction)(void (*)(void))py_systematic, METH_FASTCALL,
     "dossier._systematic's indices (see the module)."},
    {"fsum", py_fsum, METH_VARARGS, "math.fsum of finite floats, as the dossier's loops sum (for the tests)."},
    {"tables", py_tables, METH_VARARGS, "The map's tables for announce(), or None when the map is too big."},
    {"hunt", (PyCFunction)(void (*)(void))py_hunt, METH_FASTCALL, "Expert._weighted_path (see the module)."},
    {"spread", (PyCFunction)(void (*)(void))py_spread, METH_FASTCALL, "Expert._spread (see the module)."},
    {"barriers", (PyCFunction)(void (*)(void))py_barriers, METH_FASTCALL,
     "Expert._weighted_barriers (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dossier_core",
                                    "The inner loops of Jessah's dossier, in C (see _dossier_core.c).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__dossier_core(void) {
    if (PyType_Ready(&GuessesType) < 0) return NULL;
    mt_setup();
    zero_float = PyFloat_FromDouble(0.0);
    if (!zero_float) return NULL;
    return PyModule_Create(&module);
}
