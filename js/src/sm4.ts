// SPDX-License-Identifier: Apache-2.0
// SM4 (GB/T 32907) in the modern API: filled in once the C library's SM4
// section (include/fastsm2.h) is built into the engines.
import type { Engine } from './engine.js'

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Sm4Api {}

export function makeSm4 (engine: Engine): Sm4Api {
  void engine
  return {}
}
