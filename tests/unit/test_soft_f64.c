/*
 * test_soft_f64.c -- the soft binary64 arithmetic of the float64-free
 * Vulkan/Metal kernels (src/backend/gpu_kernels/shaders/soft_f64.glsl), compiled
 * here as C, against the host's double (SSE2: round to nearest even, no
 * flush to zero), bit for bit: add, sub, mul, div, rint, llrint, int64 and
 * float conversions, comparisons. Operands: every pair of a list of edge
 * values (zeros, subnormals, the normal/subnormal boundary, the largest
 * finite value, infinities, NaNs, powers of two, ties), then millions of
 * random bit patterns drawn to reach subnormal results, overflow, equal
 * exponents (cancellation) and halfway cases.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#define SF_C 1
#define SF_FN static inline
#define U64(x) ((uint64_t)(x))
#define I64(x) ((int64_t)(x))
#define U32(x) ((uint32_t)(x))
#define I32(x) ((int32_t)(x))
typedef uint32_t uint;
static inline int findMSB(uint32_t x) { return x ? 31 - __builtin_clz(x) : -1; }
#include "gpu_kernels/shaders/soft_f64.glsl"

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double double_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* NaN payloads are not part of the contract (a compiler may swap the
 * operands of + and *), so any NaN matches any NaN; every other result must
 * be the same bits, signed zeros included. */
static int same(uint64_t soft, double hard)
{
    return soft == bits_of(hard) || (isnan(hard) && sf_is_nan(soft));
}

static long failures;

static void report(const char *op, uint64_t a, uint64_t b, uint64_t got, uint64_t want)
{
    if (failures++ < 20)
        print_message("%s(%016llx, %016llx): soft %016llx, host %016llx\n", op,
                      (unsigned long long)a, (unsigned long long)b,
                      (unsigned long long)got, (unsigned long long)want);
}

/* double -> float: the same bits as the host's conversion (any NaN for a
 * NaN). */
static void check_to_f32(uint64_t a)
{
    const float f = (float)double_of(a);
    uint32_t want;
    memcpy(&want, &f, 4);
    const uint32_t got = sf_to_f32(a);
    const int nan = (got & 0x7fffffffu) > 0x7f800000u && isnan(f);
    if (got != want && !nan) report("f32 of", a, 0, got, want);
}

/* Every binary operation and comparison, and the unary ones on a. */
static void check_pair(uint64_t a, uint64_t b)
{
    const double x = double_of(a), y = double_of(b);
    uint64_t r;
    if (!same(r = sf_add(a, b), x + y)) report("add", a, b, r, bits_of(x + y));
    if (!same(r = sf_sub(a, b), x - y)) report("sub", a, b, r, bits_of(x - y));
    if (!same(r = sf_mul(a, b), x * y)) report("mul", a, b, r, bits_of(x * y));
    if (!same(r = sf_div(a, b), x / y)) report("div", a, b, r, bits_of(x / y));
    if (sf_eq(a, b) != (x == y)) report("eq", a, b, sf_eq(a, b), x == y);
    if (sf_lt(a, b) != (x < y)) report("lt", a, b, sf_lt(a, b), x < y);
    if (sf_le(a, b) != (x <= y)) report("le", a, b, sf_le(a, b), x <= y);
    if (!same(r = sf_round_even(a), rint(x))) report("rint", a, 0, r, bits_of(rint(x)));
    const int64_t l = sf_to_i64(a);
    if (l != llrint(x)) report("llrint", a, 0, (uint64_t)l, (uint64_t)llrint(x));
    check_to_f32(a);
}

static const uint64_t edges[] = {
    0x0000000000000000ull, 0x8000000000000000ull, /* +-0                   */
    0x0000000000000001ull, 0x8000000000000001ull, /* smallest subnormal    */
    0x0000000000000003ull, 0x000fffffffffffffull, /* subnormals            */
    0x0008000000000000ull, 0x800fffffffffffffull,
    0x0010000000000000ull, 0x8010000000000000ull, /* smallest normal       */
    0x0010000000000001ull, 0x001fffffffffffffull,
    0x7fefffffffffffffull, 0xffefffffffffffffull, /* largest finite        */
    0x7fe0000000000000ull, 0x7fdfffffffffffffull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, /* infinities            */
    0x7ff8000000000000ull, 0xfff8000000000000ull, /* NaNs                  */
    0x7ff0000000000001ull, 0x7ff4000000000000ull,
    0x3ff0000000000000ull, 0xbff0000000000000ull, /* +-1                   */
    0x3ff0000000000001ull, 0x3fefffffffffffffull, /* 1 +- 1 ulp            */
    0x3fe0000000000000ull, 0xbfe0000000000000ull, /* +-0.5                 */
    0x3ff8000000000000ull, 0x4004000000000000ull, /* 1.5, 2.5: rint ties   */
    0xc00c000000000000ull, 0x3fe0000000000001ull, /* -3.5, 0.5 + 1 ulp     */
    0x3ca0000000000000ull, 0x3cb0000000000000ull, /* 2^-53, 2^-52          */
    0x3ca8000000000000ull, 0x4330000000000000ull, /* 1.5 * 2^-53, 2^52     */
    0x4340000000000000ull, 0x432fffffffffffffull, /* 2^53, 2^52 - 0.5      */
    0x43e0000000000000ull, 0xc3e0000000000000ull, /* +-2^63                */
    0x43dfffffffffffffull, 0xc3dfffffffffffffull, /* just inside int64     */
    0x4626c2a4ba8cc4e4ull, 0xc626c2a4ba8cc4e4ull, /* +-1e30 (huge labels)  */
    0x3c9cd2b297d889bcull, 0x2010000000000000ull, /* 1e-16 (MIN_HESS), tiny */
    0x41dfffffffc00000ull, 0x41e0000000000000ull, /* 2^31 - 1, 2^31        */
    0x4086280000000000ull, 0xc087480000000000ull, /* 709, -745 (det_exp)   */
    0x3ff71547652b82feull, 0x3fe62e42fee00000ull, /* 1/ln2, ln2_hi         */
};
#define NUM_EDGES (sizeof edges / sizeof edges[0])

static void test_edge_pairs(void **state)
{
    (void)state;
    failures = 0;
    for (size_t i = 0; i < NUM_EDGES; i++)
        for (size_t j = 0; j < NUM_EDGES; j++) check_pair(edges[i], edges[j]);
    assert_int_equal(failures, 0);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random double, drawn to reach the cases that matter: any pattern,
 * subnormal or tiny, huge (overflow), few significand bits (exact results
 * and halfway cases), or an edge value. */
static uint64_t draw(void)
{
    const uint64_t r = next(), sign_frac = next() & 0x800fffffffffffffull;
    switch (r % 8) {
    case 0: return edges[(r >> 8) % NUM_EDGES];
    case 1: return sign_frac | ((r >> 8) % 64) << 52;            /* tiny      */
    case 2: return sign_frac | (0x7c0 + (r >> 8) % 63) << 52;    /* huge      */
    case 3: return (sign_frac & 0x800ff00000000000ull) |         /* few bits  */
                   (0x3e0 + (r >> 8) % 64) << 52;
    case 4: return sign_frac | (0x3c0 + (r >> 8) % 128) << 52;   /* near 1    */
    default: return next();
    }
}

static void test_random_pairs(void **state)
{
    (void)state;
    failures = 0;
    for (long i = 0; i < 2000000; i++) {
        const uint64_t a = draw();
        uint64_t b = draw();
        switch (next() % 8) {
        case 0: /* same exponent: cancellation in add and sub */
            b = (a & 0xfff0000000000000ull) ^ (next() & 0x800fffffffffffffull);
            break;
        case 1: /* a neighbour of a: results near zero, quotients near 1 */
            b = a + next() % 5 - 2;
            break;
        case 2: /* the sum's last bit falls half-way: a tie to round to even */
            b = (a & 0x7ff0000000000000ull) >= 0x0360000000000000ull
                    ? (a & 0xfff0000000000000ull) - 0x0350000000000000ull
                    : b;
            break;
        default: break;
        }
        check_pair(a, b);
    }
    assert_int_equal(failures, 0);
}

static void test_conversions(void **state)
{
    (void)state;
    failures = 0;
    static const int64_t ints[] = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1,
                                   (1ll << 53) + 1, -(1ll << 53) - 1, (1ll << 54) + 2,
                                   (1ll << 54) + 6, (1ll << 31) - 1, -(1ll << 31)};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        const uint64_t r = sf_from_i64(ints[i]);
        if (r != bits_of((double)ints[i])) report("i64", (uint64_t)ints[i], 0, r, bits_of((double)ints[i]));
    }
    for (long i = 0; i < 1000000; i++) {
        const int64_t v = (int64_t)next() >> (next() % 64);
        const uint64_t r = sf_from_i64(v);
        if (r != bits_of((double)v)) report("i64", (uint64_t)v, 0, r, bits_of((double)v));
    }
    /* Every float exponent, subnormals and NaNs included. */
    for (long i = 0; i < 1000000; i++) {
        uint32_t fb = (uint32_t)next();
        if (i % 4 == 0) fb &= 0x807fffffu; /* zero or subnormal */
        float f;
        memcpy(&f, &fb, 4);
        const uint64_t r = sf_from_f32(fb);
        if (!same(r, (double)f)) report("f32", fb, 0, r, bits_of((double)f));
    }
    /* Doubles around the float range: its largest finite value, the
     * normal/subnormal boundary, the smallest subnormal, halfway cases. */
    for (long i = 0; i < 1000000; i++) {
        const uint64_t e = 0x360 + next() % 0xa0 + (i % 3 == 0 ? 0x80 : 0);
        uint64_t frac = next() & 0x000fffffffffffffull;
        if (i % 5 == 0) frac = (frac & ~0x1fffffffull) | 0x10000000ull; /* a tie */
        check_to_f32((next() & 0x8000000000000000ull) | (e & 0x7ff) << 52 | frac);
    }
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_pairs),
        cmocka_unit_test(test_random_pairs),
        cmocka_unit_test(test_conversions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
