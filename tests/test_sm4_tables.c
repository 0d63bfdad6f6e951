/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every SM4 table this CPU can run against the portable one
 * (src/sm4/sm4_ops.h; the list comes from the dispatch itself): each slot
 * on random block counts around the tables' widths, unaligned and in
 * place, and every mode of the public API (ECB, CBC, CTR, OFB, CFB, GCM,
 * CCM, XTS in both orders) on random lengths, byte for byte. A table that
 * this CPU cannot run is named and left out (its tests run where it can).
 */
#include "sm4t_tables.h"

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    CHECK(n >= 1 && tables[0] == &fs2_sm4_ops_generic);
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s against generic\n", tables[i]->name);
        CHECK(fs2_sm4_self_test(tables[i]) == 1);
        sm4t_test_slots(tables[i]);
        sm4t_test_modes(tables[i]);
    }
    fs2_sm4_force(NULL);
    return fs2t_finish("test_sm4_tables");
}
