// SPDX-License-Identifier: Apache-2.0
// Hex, UTF-8 and byte helpers shared by the modern API and the sm-crypto
// compatible module. Hex is parsed strictly (even length, [0-9a-fA-F]).
import { fail } from './errors.mjs'

const HEX = '0123456789abcdef'
const HEXPAIRS = []
for (let i = 0; i < 256; i++) HEXPAIRS.push(HEX[i >> 4] + HEX[i & 15])

function toHex (u8) {
  let s = ''
  for (let i = 0; i < u8.length; i++) s += HEXPAIRS[u8[i]]
  return s
}

function nib (c) {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 97 && c <= 102) return c - 87
  if (c >= 65 && c <= 70) return c - 55
  return -1
}

function fromHex (s, what) {
  if (typeof s !== 'string') fail('ARG', (what || 'value') + ' must be a hex string')
  if (s.length & 1) fail('ARG', (what || 'value') + ' is hex of an odd length')
  const out = new Uint8Array(s.length >> 1)
  for (let i = 0; i < out.length; i++) {
    const hi = nib(s.charCodeAt(2 * i))
    const lo = nib(s.charCodeAt(2 * i + 1))
    if ((hi | lo) < 0) fail('ARG', (what || 'value') + ' has a non-hex character')
    out[i] = (hi << 4) | lo
  }
  return out
}

const enc = new TextEncoder()
const dec = new TextDecoder()
const utf8 = (s) => enc.encode(s)
const fromUtf8 = (u8) => dec.decode(u8)

// Uint8Array (Buffer included), ArrayBuffer, another typed array, a plain
// array of bytes, or a string (UTF-8) -> Uint8Array.
function bytes (v, what) {
  if (v instanceof Uint8Array) return v
  if (typeof v === 'string') return utf8(v)
  if (v instanceof ArrayBuffer) return new Uint8Array(v)
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
  if (Array.isArray(v)) {
    for (const b of v) if (!Number.isInteger(b) || b < 0 || b > 255) fail('ARG', (what || 'value') + ' has an element that is not a byte')
    return Uint8Array.from(v)
  }
  fail('ARG', (what || 'value') + ' must be a Uint8Array, an array of bytes or a string')
}

// The modern API takes bytes only (no strings): a Uint8Array or a view.
function binary (v, what) {
  if (typeof v === 'string' || Array.isArray(v)) fail('ARG', (what || 'value') + ' must be a Uint8Array')
  return bytes(v, what)
}

// One Uint8Array of the parts in order (an array, of any length: never
// spread into arguments, whose count the engines limit).
function concat (parts) {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) { out.set(p, o); o += p.length }
  return out
}

// An options argument: undefined or null are no options.
function opts (o) {
  if (o === undefined || o === null) return {}
  if (typeof o !== 'object') fail('ARG', 'options must be an object')
  return o
}

export { toHex, fromHex, utf8, fromUtf8, bytes, binary, concat, opts }
