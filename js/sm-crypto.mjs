// SPDX-License-Identifier: Apache-2.0
// Node, ES module: import { sm2, sm3 } from 'fastsm2/sm-crypto'
import m from './sm-crypto.js'
export const { sm2, sm3, FastSM2Error } = m
export default m
