/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few things the WebAssembly build's JavaScript glue (lib/wasm-engine.mjs)
 * cannot know from include/fastsm2.h at run time: the sizes of the opaque key
 * objects. Everything else it calls is the public C API itself.
 */
#include <stddef.h>

#include "fastsm2.h"

__attribute__((visibility("default"))) size_t fs2js_privkey_size(void)
{
    return sizeof(fastsm2_privkey);
}

__attribute__((visibility("default"))) size_t fs2js_pubkey_size(void)
{
    return sizeof(fastsm2_pubkey);
}

__attribute__((visibility("default"))) size_t fs2js_kx_size(void)
{
    return sizeof(fastsm2_kx_ctx);
}

__attribute__((visibility("default"))) size_t fs2js_sm4_key_size(void)
{
    return sizeof(fastsm2_sm4_key);
}

__attribute__((visibility("default"))) size_t fs2js_sm4_ctx_size(void)
{
    return sizeof(fastsm2_sm4_ctx);
}

__attribute__((visibility("default"))) size_t fs2js_sm4_gcm_size(void)
{
    return sizeof(fastsm2_sm4_gcm_ctx);
}
