// SPDX-License-Identifier: Apache-2.0
// Hex, UTF-8 and byte helpers shared by the modern API and the sm-crypto
// compatible modules. Hex is parsed strictly (even length, [0-9a-fA-F]).
import { fail } from './errors.js'

const HEX = '0123456789abcdef'
const HEXPAIRS: string[] = []
for (let i = 0; i < 256; i++) HEXPAIRS.push(HEX[i >> 4] + HEX[i & 15])

// Node's Buffer encodes and decodes hex natively: several times faster
// than a loop over the bytes (undefined elsewhere).
interface NodeBuffer { hexSlice (this: Uint8Array, start: number, end: number): string }
const NodeBuffer = (globalThis as unknown as { Buffer?: { prototype: NodeBuffer, from (s: string, enc: string): Uint8Array } }).Buffer
const hexSlice = NodeBuffer && typeof NodeBuffer.prototype.hexSlice === 'function' ? NodeBuffer.prototype.hexSlice : null
const HEXRE = /^(?:[0-9a-fA-F]{2})*$/

export function toHex (u8: Uint8Array): string {
  if (hexSlice !== null && u8.length > 8) return hexSlice.call(u8, 0, u8.length)
  let s = ''
  for (let i = 0; i < u8.length; i++) s += HEXPAIRS[u8[i]]
  return s
}

function nib (c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  if (c >= 97 && c <= 102) return c - 87
  if (c >= 65 && c <= 70) return c - 55
  return -1
}

export function fromHex (s: unknown, what?: string): Uint8Array {
  if (typeof s !== 'string') fail('ARG', (what || 'value') + ' must be a hex string')
  if (s.length & 1) fail('ARG', (what || 'value') + ' is hex of an odd length')
  if (NodeBuffer && s.length > 16) {
    if (!HEXRE.test(s)) fail('ARG', (what || 'value') + ' has a non-hex character')
    const b = NodeBuffer.from(s, 'hex')
    return new Uint8Array(b.buffer, b.byteOffset, b.length)
  }
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

/** UTF-8 of a string (TextEncoder's bytes: a lone surrogate is U+FFFD).
 *  Short strings are encoded here: a TextEncoder call costs several
 *  microseconds, more than a signature's other JavaScript work. */
export function utf8 (s: string): Uint8Array {
  const n = s.length
  if (n > 256) return enc.encode(s)
  const out = new Uint8Array(3 * n)
  let o = 0
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i)
    if (c < 0x80) {
      out[o++] = c
    } else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6)
      out[o++] = 0x80 | (c & 63)
    } else {
      if (c >= 0xd800 && c < 0xe000) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0
        if (c < 0xdc00 && d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00)
          i++
          out[o++] = 0xf0 | (c >> 18)
          out[o++] = 0x80 | ((c >> 12) & 63)
          out[o++] = 0x80 | ((c >> 6) & 63)
          out[o++] = 0x80 | (c & 63)
          continue
        }
        c = 0xfffd // a lone surrogate
      }
      out[o++] = 0xe0 | (c >> 12)
      out[o++] = 0x80 | ((c >> 6) & 63)
      out[o++] = 0x80 | (c & 63)
    }
  }
  return o === out.length ? out : out.subarray(0, o)
}
export const fromUtf8 = (u8: Uint8Array): string => dec.decode(u8)

/** What the APIs take as bytes. */
export type BytesLike = Uint8Array | ArrayBuffer | ArrayBufferView

/** Uint8Array (Buffer included), ArrayBuffer, another typed array or a
 *  DataView, a plain array of bytes, or a string (UTF-8) -> Uint8Array. */
export function bytes (v: unknown, what?: string): Uint8Array {
  if (v instanceof Uint8Array) return v
  if (typeof v === 'string') return utf8(v)
  if (v instanceof ArrayBuffer) return new Uint8Array(v)
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
  if (Array.isArray(v)) {
    for (const b of v) if (!Number.isInteger(b) || b < 0 || b > 255) fail('ARG', (what || 'value') + ' has an element that is not a byte')
    return Uint8Array.from(v as number[])
  }
  return fail('ARG', (what || 'value') + ' must be a Uint8Array, an array of bytes or a string')
}

/** The modern API takes bytes only (no strings, no arrays of numbers). */
export function binary (v: unknown, what?: string): Uint8Array {
  if (typeof v === 'string' || Array.isArray(v)) fail('ARG', (what || 'value') + ' must be a Uint8Array')
  return bytes(v, what)
}

/** One Uint8Array of the parts in order (an array of any length: never
 *  spread into arguments, whose count the engines limit). */
export function concat (parts: readonly Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) { out.set(p, o); o += p.length }
  return out
}

/** An options argument: undefined and null are no options. */
export function opts<T extends object> (o: T | null | undefined): Partial<T> {
  if (o === undefined || o === null) return {}
  if (typeof o !== 'object') fail('ARG', 'options must be an object')
  return o
}

/** Overwrites a buffer that held a secret. */
export function wipe (u8: Uint8Array | null | undefined): void {
  if (u8) u8.fill(0)
}
