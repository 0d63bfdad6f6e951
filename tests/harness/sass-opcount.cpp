/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Calls of each cost-model unit per operation (tests/harness/sass-count.sh,
 * docs/GPU.md "SASS count"): the GPU backend's per-thread functions
 * (src/gpu/cuda/sm2_gpu_ops.cuh, the same source the kernels and the emulated
 * runtime run) compiled as host code with FS2G_OPCOUNT, so that every unit
 * (field product, square, point doubling, ...) counts its calls. Each
 * operation runs on `trials` pseudo-random inputs and the average is
 * printed, one line per operation and unit:
 *
 *     op <TAB> unit <TAB> calls per item
 *
 * and, for signing, "op <TAB> items_per_thread <TAB> n" (the kernel's glue
 * is shared by n items).
 * Signing and key generation run the same calls for every input (constant
 * time); verification's counts depend on t's digits, hence the average.
 * The table holds zeros: the fixed-base code runs the same calls whatever
 * its entries (digit-indexed loads or full scans, then a mixed addition), so
 * a table of the real points (64 MiB at W = 16) is not needed for counting.
 *
 * Usage: sass-opcount W [trials]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "sm2_gpu_ops.cuh"

unsigned long long fs2g_opcount[FS2G_OP_UNITS];
int fs2g_opdepth;

static const char *const unit_names[FS2G_OP_UNITS] = {
    "fp_mul",    "fp_sqr",       "fn_mont_mul",  "jac_dbl",  "jac_add_aff", "jac_add_var", "select_fast",
    "select_ct", "sm3_compress", "fp_inv_group", "aff_cneg", "vtab_load",   "jac_add",
};

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static uint32_t rnd32(void)
{
    /* splitmix64: a fixed sequence, so that the counts are reproducible */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* a random scalar in [1, n - 1] (top word below n's) */
static void rnd_scalar(uint32_t k[8])
{
    for (int i = 0; i < 8; i++)
        k[i] = rnd32();
    k[7] &= 0x7FFFFFFFu;
    k[0] |= 1u;
}

static void report(const char *op, int items)
{
    for (int u = 0; u < FS2G_OP_UNITS; u++) {
        if (fs2g_opcount[u])
            printf("%s\t%s\t%.3f\n", op, unit_names[u], (double)fs2g_opcount[u] / items);
        fs2g_opcount[u] = 0;
    }
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 16;
    int trials = argc > 2 ? atoi(argv[2]) : 64;
    if (w < 2 || w > 16 || trials < 1) {
        fprintf(stderr, "usage: sass-opcount W(2..16) [trials]\n");
        return 2;
    }
    std::vector<uint32_t> table((size_t)fs2g_table_segments(w) * fs2g_table_entries(w) * FS2G_ENTRY_WORDS, 0);
    std::vector<uint32_t> table_ct(
        (size_t)fs2g_table_segments(FS2G_CT_W) * fs2g_table_entries(FS2G_CT_W) * FS2G_ENTRY_WORDS, 0);
    /* the public key of verification: a multiple of G */
    const fs2g_aff g = {
        {0x334C74C7u, 0x715A4589u, 0xF2660BE1u, 0x8FE30BBFu, 0x6A39C994u, 0x5F990446u, 0x1F198119u, 0x32C4AE2Cu},
        {0x2139F0A0u, 0x02DF32E5u, 0xC62A4740u, 0xD0A9877Cu, 0x6B692153u, 0x59BDCEE3u, 0xF4F6779Cu, 0xBC3736A2u}};
    fs2g_jac pj;
    fs2g_aff pub;
    fs2g_ecmult_small_var(&pj, &g, 0x9E3779B9u);
    fs2g_jac_to_aff(&pub, &pj);
    /* The fast tables hold points, 1021 distinct multiples of G (of the
     * key for verification's key table) over and over: signing makes the
     * same calls whatever the entries, but verification, whose fixed-base
     * multiplications take another way when an addition meets P = Q
     * (Z = 0), must not meet that on zeros. */
    std::vector<uint32_t> ktable(table.size());
    for (int k = 0; k < 2; k++) {
        std::vector<uint32_t> pts(1021 * FS2G_ENTRY_WORDS);
        for (uint32_t j = 0; j < 1021; j++) {
            fs2g_aff a;
            fs2g_ecmult_small_var(&pj, k ? &pub : &g, j + 2);
            fs2g_jac_to_aff(&a, &pj);
            memcpy(&pts[j * FS2G_ENTRY_WORDS], a.x, 32);
            memcpy(&pts[j * FS2G_ENTRY_WORDS + 8], a.y, 32);
        }
        std::vector<uint32_t> &t = k ? ktable : table;
        for (size_t i = 0; i < t.size(); i++)
            t[i] = pts[i % pts.size()];
    }

    for (int mode = FS2G_MODE_FAST; mode <= FS2G_MODE_CT; mode++) {
        const uint32_t *tab = mode == FS2G_MODE_CT ? table_ct.data() : table.data();
        int tw = mode == FS2G_MODE_CT ? FS2G_CT_W : w;
        for (int u = 0; u < FS2G_OP_UNITS; u++)
            fs2g_opcount[u] = 0;
        /* as fs2g_k_sign: FS2G_SIGN_ITEMS items per thread, one inversion */
        for (int t = 0; t < trials; t++) {
            uint32_t e[8], dinv[8], pre[8], r[8], s[8];
            uint32_t X[FS2G_SIGN_ITEMS][8], Z[FS2G_SIGN_ITEMS][8], K[FS2G_SIGN_ITEMS][8], x1[FS2G_SIGN_ITEMS][8];
            uint32_t zero[FS2G_SIGN_ITEMS];
            for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
                fs2g_jac q;
                for (int i = 0; i < 8; i++) {
                    e[i] = rnd32();
                    pre[i] = rnd32();
                }
                fs2g_nonce_derive(K[j], pre, e, (uint64_t)t);
                fs2g_ecmult_gen(&q, K[j], tab, tw, mode, 0);
                fs2g_copy(X[j], q.x);
                fs2g_copy(Z[j], q.z);
            }
            fs2g_batch_x(x1, zero, X, Z);
            for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
                rnd_scalar(dinv);
                (void)fs2g_sign_finish(r, s, e, K[j], dinv, x1[j]);
            }
        }
        report(mode == FS2G_MODE_CT ? "sign-ct" : "sign", trials * FS2G_SIGN_ITEMS);
        printf("%s\titems_per_thread\t%d\n", mode == FS2G_MODE_CT ? "sign-ct" : "sign", FS2G_SIGN_ITEMS);
        for (int t = 0; t < trials; t++) {
            uint32_t d[8];
            fs2g_aff p;
            rnd_scalar(d);
            (void)fs2g_keygen_item(&p, d, tab, tw, mode);
        }
        report(mode == FS2G_MODE_CT ? "keygen-ct" : "keygen", trials);
    }
    /* verification: tP by the window (a key per item), then by a table of
     * the key of width w (one key) */
    for (int kt = 0; kt < 2; kt++) {
        for (int t = 0; t < trials; t++) {
            uint32_t e[8], r[8], s[8], tab[FS2G_VAR_ENTRIES * 16];
            for (int i = 0; i < 8; i++)
                e[i] = rnd32();
            rnd_scalar(r);
            rnd_scalar(s);
            (void)fs2g_verify_item(e, r, s, &pub, table.data(), w, kt ? ktable.data() : NULL, kt ? w : 0, tab, 1);
        }
        report(kt ? "verify-key" : "verify", trials);
    }
    return 0;
}
