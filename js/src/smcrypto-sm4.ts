// SPDX-License-Identifier: Apache-2.0
// sm-crypto's sm4 (encrypt/decrypt with mode, iv, padding, output) and
// sm-crypto-v2's (the same, GCM with associatedData and tag, and sm4()):
// filled in once the C library's SM4 section is built into the engines.
import type { Api } from './api.js'
import type { Flavor } from './smcrypto.js'

// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface SmCryptoSm4 {}
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface SmCryptoV2Sm4 {}

export function makeSmCryptoSm4 (api: Api, flavor: Flavor): SmCryptoSm4 | SmCryptoV2Sm4 {
  void api
  void flavor
  return {}
}
