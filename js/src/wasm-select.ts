// SPDX-License-Identifier: Apache-2.0
// Which WebAssembly build to load: fastsm2-simd.wasm (SM3's four lanes,
// the field's column sums and table scans in simd128) where the engine validates a SIMD module,
// else fastsm2.wasm (scalar). Both are the same C library and give the
// same bytes.

// (module (func (result v128) i32.const 0 i8x16.splat)): valid only where
// the engine has SIMD
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11])

export function hasSimd (): boolean {
  try { return WebAssembly.validate(SIMD_PROBE) } catch (e) { return false }
}

export const WASM_SCALAR = 'fastsm2.wasm'
export const WASM_SIMD = 'fastsm2-simd.wasm'

/** The file to load: `want` 'simd' or 'scalar' forces one (where it
 *  exists); otherwise SIMD where the engine has it and the file exists. */
export function pickWasm (want: string | undefined, exists: (file: string) => boolean = () => true): string {
  if (want === 'scalar') return WASM_SCALAR
  if (want === 'simd') return WASM_SIMD
  return hasSimd() && exists(WASM_SIMD) ? WASM_SIMD : WASM_SCALAR
}
