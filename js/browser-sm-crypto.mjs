// SPDX-License-Identifier: Apache-2.0
// Browsers: import { sm2, sm3 } from 'fastsm2/sm-crypto'
import api from './browser.mjs'
import { makeSmCrypto } from './dist/fastsm2.browser.mjs'

const m = makeSmCrypto(api)
export const { sm2, sm3, FastSM2Error } = m
export default m
