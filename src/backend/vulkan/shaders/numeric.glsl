// numeric.glsl -- the shared numeric headers of src/backend (det_math.h,
// objective_math.h, split_math.h) in GLSL, operation for operation, so the
// device gets the same bits as the CPU reference. Every double expression
// is `precise`: SPIR-V may otherwise fuse a*b+c into one rounding, which
// the numeric contract (backend.h) forbids.
//
// Needs shaderFloat64 and shaderInt64 (checked by the host before any
// kernel is built).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

const int OBJ_SQUARED_ERROR = 0;
const int OBJ_LOGISTIC = 1;
const int OBJ_SOFTMAX = 2;
const int OBJ_ABSOLUTE_ERROR = 3;
const double MIN_HESS = 1e-16LF;

double positive_infinity() { return packDouble2x32(uvec2(0u, 0x7ff00000u)); }

// p * 2^k, exact (gpl_det_scale2).
double det_scale2(double p, int k)
{
    if (k > -1022 && k < 1024)
        return p * packDouble2x32(uvec2(0u, uint(k + 1023) << 20));
    int half_k = k / 2;
    precise double a = p * packDouble2x32(uvec2(0u, uint(half_k + 1023) << 20));
    return a * packDouble2x32(uvec2(0u, uint(k - half_k + 1023) << 20));
}

// gpl_det_exp: Cody-Waite reduction and a Taylor series, + and * only.
double det_exp(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01LF;
    const double ln2_lo = 1.90821492927058770002e-10LF;
    const double inv_ln2 = 1.44269504088896338700e+00LF;
    if (x != x) return x;
    if (x > 709.0LF) return positive_infinity();
    if (x < -745.0LF) return 0.0LF;
    precise double k = roundEven(x * inv_ln2);
    precise double r = (x - k * ln2_hi) - k * ln2_lo;
    precise double p = 1.0LF / 6227020800.0LF;
    p = p * r + 1.0LF / 479001600.0LF;
    p = p * r + 1.0LF / 39916800.0LF;
    p = p * r + 1.0LF / 3628800.0LF;
    p = p * r + 1.0LF / 362880.0LF;
    p = p * r + 1.0LF / 40320.0LF;
    p = p * r + 1.0LF / 5040.0LF;
    p = p * r + 1.0LF / 720.0LF;
    p = p * r + 1.0LF / 120.0LF;
    p = p * r + 1.0LF / 24.0LF;
    p = p * r + 1.0LF / 6.0LF;
    p = p * r + 0.5LF;
    p = p * r + 1.0LF;
    p = p * r + 1.0LF;
    return det_scale2(p, int(k));
}

double det_sigmoid(double x)
{
    precise double d = 1.0LF + det_exp(-x);
    return 1.0LF / d;
}

// gpl_objective_single: returns (grad, hess).
dvec2 objective_single(int objective, float margin, float label, float weight)
{
    precise double g, h;
    if (objective == OBJ_LOGISTIC) {
        double p = det_sigmoid(double(margin));
        g = p - double(label);
        h = p * (1.0LF - p);
        if (h < MIN_HESS) h = MIN_HESS;
    } else if (objective == OBJ_ABSOLUTE_ERROR) {
        g = double(margin) > double(label) ? 1.0LF
            : (double(margin) < double(label) ? -1.0LF : 0.0LF);
        h = 1.0LF;
    } else {
        g = double(margin) - double(label);
        h = 1.0LF;
    }
    precise double gw = g * double(weight);
    precise double hw = h * double(weight);
    return dvec2(gw, hw);
}

// gpl_row_sampled: splitmix64 of (seed, round, row).
bool row_sampled(uint64_t seed, int round_index, uint64_t row, float rate)
{
    if (rate >= 1.0) return true;
    uint64_t z = seed ^ (uint64_t(uint(round_index)) << 40) ^ row;
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    z ^= z >> 31;
    precise double u = double(z >> 11) * (1.0LF / 9007199254740992.0LF);
    return u < double(rate);
}

// gpl_l1_threshold, gpl_node_score.
double l1_threshold(double g, double alpha)
{
    if (g > alpha) return g - alpha;
    if (g < -alpha) return g + alpha;
    return 0.0LF;
}

double node_score(double G, double H, double lambda, double alpha)
{
    precise double t = l1_threshold(G, alpha);
    precise double s = (t * t) / (H + lambda);
    return s;
}

// gpl_split_better: larger gain, then the smallest (feature, bin, dl).
bool split_better(double gain, int feature, int bin, int dl,
                  double best_gain, int best_feature, int best_bin, int best_dl)
{
    if (gain != best_gain) return gain > best_gain;
    if (best_feature < 0) return false;
    if (feature != best_feature) return feature < best_feature;
    if (bin != best_bin) return bin < best_bin;
    return dl < best_dl;
}
