// cub-bench: CUB's cub::DeviceRadixSort::SortPairs timed the way `fluid bench` times its sorts, so
// that `fluid bench --reference FILE` can print the ratio of each of ours to it on the same GPU.
//
// For every (bits, size): random keys masked to `bits` (xorshift32, the seed rule of fluid bench),
// values 0..n-1, copied fresh into the input before every rep (outside the timed region); the sort
// is timed with CUDA events around SortPairs (begin_bit 0, end_bit = bits), median of REPS after
// WARMUP untimed sorts; the result of the last rep is checked against a stable CPU sort (a counting
// pass per 16-bit half, independent of CUB and of fluid), and a mismatch exits 1.
//
// Output: a CSV on stdout, the columns fluid bench reads:
//   algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s
// with algorithm "cub".
//
// Build (where nvcc is):  nvcc -O3 -std=c++17 -arch=sm_90 -o cub-bench tools/cub-bench.cu
// Run:                    ./cub-bench [--sizes 27648,...] [--bits 16,32] [--reps 50] [--warmup 5] > cub.csv
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "cub-bench: %s: %s\n", #x, cudaGetErrorString(e_));                 \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static std::vector<unsigned long long> parse_list(const char *flag, const char *v, unsigned long long lo,
                                                  unsigned long long hi) {
    std::vector<unsigned long long> out;
    std::string s(v);
    size_t p = 0;
    while (p <= s.size()) {
        size_t q = s.find(',', p);
        if (q == std::string::npos) q = s.size();
        std::string tok = s.substr(p, q - p);
        char *end = nullptr;
        unsigned long long x = strtoull(tok.c_str(), &end, 10);
        if (tok.empty() || *end || x < lo || x > hi) {
            fprintf(stderr, "cub-bench: %s %s: '%s' is not a whole number from %llu to %llu\n", flag, v, tok.c_str(), lo,
                    hi);
            exit(1);
        }
        out.push_back(x);
        p = q + 1;
    }
    return out;
}

// Stable by key: two counting passes over 16-bit halves (LSD).
static void cpu_sort(std::vector<uint32_t> &k, std::vector<uint32_t> &v) {
    size_t n = k.size();
    std::vector<uint32_t> k2(n), v2(n);
    for (int pass = 0; pass < 2; pass++) {
        std::vector<size_t> c(65537, 0);
        for (size_t i = 0; i < n; i++) c[((k[i] >> (16 * pass)) & 0xFFFF) + 1]++;
        for (size_t d = 0; d < 65536; d++) c[d + 1] += c[d];
        for (size_t i = 0; i < n; i++) {
            size_t at = c[(k[i] >> (16 * pass)) & 0xFFFF]++;
            k2[at] = k[i];
            v2[at] = v[i];
        }
        k.swap(k2);
        v.swap(v2);
    }
}

int main(int argc, char **argv) {
    std::vector<unsigned long long> sizes = {27648, 65536, 262144, 1048576, 4194304, 16777216}, bits = {16, 32};
    unsigned long long reps = 50, warmup = 5, seed = 12345;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: cub-bench [--sizes LIST] [--bits LIST] [--reps R] [--warmup W] [--seed S]  (CSV on stdout)\n");
            return 0;
        }
        if (!v) {
            fprintf(stderr, "cub-bench: %s needs a value; see --help\n", a);
            return 1;
        }
        if (!strcmp(a, "--sizes")) sizes = parse_list(a, v, 1, 1ull << 28);
        else if (!strcmp(a, "--bits")) bits = parse_list(a, v, 1, 32);
        else if (!strcmp(a, "--reps")) reps = parse_list(a, v, 1, 100000)[0];
        else if (!strcmp(a, "--warmup")) warmup = parse_list(a, v, 0, 1000)[0];
        else if (!strcmp(a, "--seed")) seed = parse_list(a, v, 1, UINT32_MAX)[0];
        else {
            fprintf(stderr, "cub-bench: unknown flag %s; see --help\n", a);
            return 1;
        }
        i++;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "cub-bench: %s, CUB %d.%d.%d, median of %llu after %llu warm-up\n", prop.name, CUB_MAJOR_VERSION,
            CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, reps, warmup);
    printf("algorithm,bits,pairs,clock,median_us,min_us,max_us,mpairs_per_s\n");
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (unsigned long long b : bits) {
        for (unsigned long long nn : sizes) {
            uint32_t n = (uint32_t)nn, nb = (uint32_t)b;
            uint32_t mask = nb == 32 ? 0xFFFFFFFFu : (1u << nb) - 1u;
            std::vector<uint32_t> keys(n), vals(n);
            uint32_t st = (uint32_t)seed ^ (n * 2654435761u) ^ nb;
            if (!st) st = 1;
            for (uint32_t i = 0; i < n; i++) {
                st ^= st << 13;
                st ^= st >> 17;
                st ^= st << 5;
                keys[i] = st & mask;
                vals[i] = i;
            }
            uint32_t *src_k, *src_v, *k_in, *v_in, *k_out, *v_out;
            CK(cudaMalloc(&src_k, 4ull * n));
            CK(cudaMalloc(&src_v, 4ull * n));
            CK(cudaMalloc(&k_in, 4ull * n));
            CK(cudaMalloc(&v_in, 4ull * n));
            CK(cudaMalloc(&k_out, 4ull * n));
            CK(cudaMalloc(&v_out, 4ull * n));
            CK(cudaMemcpy(src_k, keys.data(), 4ull * n, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(src_v, vals.data(), 4ull * n, cudaMemcpyHostToDevice));
            size_t temp_bytes = 0;
            CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k_in, k_out, v_in, v_out, (int)n, 0, (int)nb));
            void *temp;
            CK(cudaMalloc(&temp, temp_bytes));
            std::vector<double> t;
            for (unsigned long long r = 0; r < warmup + reps; r++) {
                CK(cudaMemcpy(k_in, src_k, 4ull * n, cudaMemcpyDeviceToDevice));
                CK(cudaMemcpy(v_in, src_v, 4ull * n, cudaMemcpyDeviceToDevice));
                CK(cudaEventRecord(e0));
                CK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k_in, k_out, v_in, v_out, (int)n, 0, (int)nb));
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                if (r >= warmup) t.push_back(ms * 1e3);
            }
            std::sort(t.begin(), t.end());
            size_t m = t.size();
            double med = m % 2 ? t[m / 2] : 0.5 * (t[m / 2 - 1] + t[m / 2]);
            std::vector<uint32_t> gk(n), gv(n);
            CK(cudaMemcpy(gk.data(), k_out, 4ull * n, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(gv.data(), v_out, 4ull * n, cudaMemcpyDeviceToHost));
            cpu_sort(keys, vals);
            if (gk != keys || gv != vals) {
                fprintf(stderr, "cub-bench: CUB's result at %u pairs x %u bits differs from the CPU sort\n", n, nb);
                return 1;
            }
            printf("cub,%u,%u,gpu,%.2f,%.2f,%.2f,%.2f\n", nb, n, med, t.front(), t.back(), med > 0 ? n / med : 0.0);
            fflush(stdout);
            for (uint32_t *p : {src_k, src_v, k_in, v_in, k_out, v_out}) CK(cudaFree(p));
            CK(cudaFree(temp));
        }
    }
    return 0;
}
