// SPDX-License-Identifier: Apache-2.0
// The WebAssembly engine: libfastsm2 built by emscripten as a standalone
// module (the portable C backend, "generic"), called through the public C
// API: the same Engine (engine.ts) as the Node-API addon.
//
// Memory: every call copies its inputs into buffers it allocates in the
// module's memory and copies the outputs out; every such buffer is zeroed
// before it is freed, so no message, plaintext, key byte or nonce-derived
// value stays in WebAssembly memory after the call. Keys live in the
// module's memory until their last handle is freed (destroy(), the end of a
// batch, or the garbage collector), which wipes them.
//
// Randomness: the module's getentropy import is crypto.getRandomValues.
// Errors: a negative status becomes a FastSM2Error; if the module ever
// traps, its stack pointer is restored, so the instance stays usable.
import { FastSM2Error, fail } from './errors.js'
import type { Engine, KeyHandle } from './engine.js'

type Ptr = number
type RandomFill = (u8: Uint8Array) => void

/** The C functions the module exports (tools/build.sh lists them). */
interface Exports {
  memory: WebAssembly.Memory
  _initialize?: () => void
  stackSave (): number
  stackRestore (sp: number): void
  malloc (n: number): Ptr
  free (p: Ptr): void
  fs2js_privkey_size (): number
  fs2js_pubkey_size (): number
  fs2js_kx_size (): number
  fastsm2_version (): Ptr
  fastsm2_backend_name (): Ptr
  fastsm2_error_name (st: number): Ptr
  fastsm2_strerror (st: number): Ptr
  fastsm2_privkey_generate (k: Ptr): number
  fastsm2_privkey_from_bytes (k: Ptr, d: Ptr): number
  fastsm2_privkey_to_bytes (d: Ptr, k: Ptr): number
  fastsm2_privkey_pubkey (p: Ptr, k: Ptr): number
  fastsm2_privkey_clear (k: Ptr): void
  fastsm2_privkey_parse (k: Ptr, inp: Ptr, n: number): number
  fastsm2_privkey_parse_encrypted (k: Ptr, inp: Ptr, n: number, pw: Ptr, pwn: number): number
  fastsm2_privkey_serialize (o: Ptr, l: Ptr, k: Ptr, fmt: number): number
  fastsm2_pubkey_from_bytes (p: Ptr, inp: Ptr, n: number): number
  fastsm2_pubkey_parse (p: Ptr, inp: Ptr, n: number): number
  fastsm2_pubkey_to_bytes (o: Ptr, l: Ptr, p: Ptr, compressed: number): number
  fastsm2_pubkey_serialize (o: Ptr, l: Ptr, p: Ptr, fmt: number): number
  fastsm2_pubkey_precompute (p: Ptr): number
  fastsm2_compute_z (z: Ptr, p: Ptr, id: Ptr, idlen: number): number
  fastsm2_sign (sig: Ptr, k: Ptr, id: Ptr, idlen: number, m: Ptr, mlen: number): number
  fastsm2_sign_digest (sig: Ptr, k: Ptr, e: Ptr): number
  fastsm2_sign_digest_with_nonce (sig: Ptr, k: Ptr, e: Ptr, nonce: Ptr): number
  fastsm2_verify_status (p: Ptr, id: Ptr, idlen: number, m: Ptr, mlen: number, sig: Ptr): number
  fastsm2_verify_digest_status (p: Ptr, e: Ptr, sig: Ptr): number
  fastsm2_encrypt (o: Ptr, l: Ptr, p: Ptr, m: Ptr, mlen: number, flags: number): number
  fastsm2_encrypt_with_nonce (o: Ptr, l: Ptr, p: Ptr, m: Ptr, mlen: number, flags: number, k: Ptr): number
  fastsm2_decrypt (o: Ptr, l: Ptr, k: Ptr, c: Ptr, clen: number, flags: number): number
  fastsm2_ciphertext_size (mlen: number, flags: number): number
  fastsm2_ecdh (o: Ptr, k: Ptr, peer: Ptr, peerlen: number): number
  fastsm2_kx_init (ctx: Ptr, role: number, k: Ptr, id: Ptr, idlen: number, peer: Ptr, pid: Ptr, pidlen: number): number
  fastsm2_kx_start_with_nonce (ctx: Ptr, R: Ptr, r: Ptr): number
  fastsm2_kx_compute (ctx: Ptr, key: Ptr, klen: number, peerR: Ptr, peerRlen: number): number
  fastsm2_kx_clear (ctx: Ptr): void
  fastsm2_sm3 (o: Ptr, d: Ptr, n: number): void
  fastsm2_hmac_sm3 (o: Ptr, k: Ptr, kn: number, d: Ptr, n: number): number
  fastsm2_kdf (o: Ptr, n: number, z: Ptr, zn: number): number
  fastsm2_sig_to_der (o: Ptr, l: Ptr, sig: Ptr): number
  fastsm2_sig_from_der (sig: Ptr, der: Ptr, n: number): number
  // a module built without SM4 has none of these
  fs2js_sm4_key_size? (): number
  fs2js_sm4_ctx_size? (): number
  fs2js_sm4_gcm_size? (): number
  fastsm2_sm4_backend_name (): Ptr
  fastsm2_sm4_key_init (k: Ptr, raw: Ptr): number
  fastsm2_sm4_key_clear (k: Ptr): void
  fastsm2_sm4_ecb_encrypt (o: Ptr, k: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_ecb_decrypt (o: Ptr, k: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_cbc_encrypt (o: Ptr, l: Ptr, k: Ptr, iv: Ptr, pad: number, i: Ptr, n: number): number
  fastsm2_sm4_cbc_decrypt (o: Ptr, l: Ptr, k: Ptr, iv: Ptr, pad: number, i: Ptr, n: number): number
  fastsm2_sm4_ctr (o: Ptr, k: Ptr, iv: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_gcm_encrypt (o: Ptr, tag: Ptr, taglen: number, k: Ptr, iv: Ptr, ivlen: number, aad: Ptr, aadlen: number, i: Ptr, n: number): number
  fastsm2_sm4_gcm_decrypt (o: Ptr, k: Ptr, iv: Ptr, ivlen: number, aad: Ptr, aadlen: number, i: Ptr, n: number, tag: Ptr, taglen: number): number
  fastsm2_sm4_ccm_encrypt (o: Ptr, tag: Ptr, taglen: number, k: Ptr, iv: Ptr, ivlen: number, aad: Ptr, aadlen: number, i: Ptr, n: number): number
  fastsm2_sm4_ccm_decrypt (o: Ptr, k: Ptr, iv: Ptr, ivlen: number, aad: Ptr, aadlen: number, i: Ptr, n: number, tag: Ptr, taglen: number): number
  fastsm2_sm4_xts_encrypt (o: Ptr, k1: Ptr, k2: Ptr, std: number, tweak: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_xts_decrypt (o: Ptr, k1: Ptr, k2: Ptr, std: number, tweak: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_init (c: Ptr, mode: number, enc: number, pad: number, k: Ptr, iv: Ptr, ivlen: number): number
  fastsm2_sm4_update (c: Ptr, o: Ptr, l: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_final (c: Ptr, o: Ptr, l: Ptr): number
  fastsm2_sm4_ctx_clear (c: Ptr): void
  fastsm2_sm4_gcm_init (c: Ptr, enc: number, k: Ptr, iv: Ptr, ivlen: number): number
  fastsm2_sm4_gcm_aad (c: Ptr, aad: Ptr, n: number): number
  fastsm2_sm4_gcm_update (c: Ptr, o: Ptr, i: Ptr, n: number): number
  fastsm2_sm4_gcm_encrypt_final (c: Ptr, tag: Ptr, taglen: number): number
  fastsm2_sm4_gcm_decrypt_final (c: Ptr, tag: Ptr, taglen: number): number
  fastsm2_sm4_gcm_clear (c: Ptr): void
  fastsm2_sign_digest_batch (sigs: Ptr, keys: Ptr, nkeys: number, digests: Ptr, n: number, threads: number): number
  fastsm2_verify_digest_batch (res: Ptr, pubs: Ptr, npubs: number, digests: Ptr, sigs: Ptr, n: number, threads: number): number
}

interface State { memory?: WebAssembly.Memory }

function wasmImports (state: State, getRandomValues: RandomFill): WebAssembly.Imports {
  return {
    env: {
      getentropy (ptr: number, len: number): number {
        try {
          getRandomValues(new Uint8Array(state.memory!.buffer, ptr, len))
          return 0
        } catch (e) {
          return -1
        }
      },
      emscripten_notify_memory_growth () {},
      // emscripten's raise() for an installed handler: the library installs
      // none (its batch pool's pthread_sigmask links it in)
      __call_sighandler () {}
    },
    wasi_snapshot_preview1: {
      // no environment: FASTSM2_CPU is not read in WebAssembly
      environ_sizes_get (countPtr: number, sizePtr: number): number {
        const dv = new DataView(state.memory!.buffer)
        dv.setUint32(countPtr, 0, true)
        dv.setUint32(sizePtr, 0, true)
        return 0
      },
      environ_get (): number { return 0 }
    }
  }
}

/** crypto.getRandomValues, 65536 bytes a call at most (its limit). */
export function defaultRandom (): RandomFill {
  const c = (globalThis as { crypto?: Crypto }).crypto
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new FastSM2Error(-13, 'FASTSM2_ERR_RANDOM', 'FASTSM2_ERR_RANDOM: crypto.getRandomValues is not available')
  }
  return (u8) => { for (let o = 0; o < u8.length; o += 65536) c.getRandomValues(u8.subarray(o, Math.min(u8.length, o + 65536))) }
}

// Lets the event loop run (other tasks, rendering) between chunks of a batch.
function nextTask (): Promise<void> {
  const si = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate
  return new Promise((resolve) => (typeof si === 'function' ? si(resolve) : setTimeout(resolve, 0)))
}

/** What lives in the module's memory behind a handle: keys and SM4 contexts. */
type Kind = 'priv' | 'pub' | 'sm4' | 'ctx' | 'gcm'
/** A key in the module's memory, with a count of its handles (as the addon's). */
interface WasmKey { ptr: Ptr, kind: Kind, uses: number }
/** A handle: its key, null once freed. */
interface WasmHandle { key: WasmKey | null }

type Alloc = (n: number) => Ptr
type Put = (u8: Uint8Array) => Ptr

class WasmEngine implements Engine {
  readonly name = 'wasm' as const
  /** No threads in this build: a batch runs in the calling thread, a
   *  chunk at a time, letting other tasks run between chunks. */
  readonly batchChunk = 4096
  /** For the tests that look for secrets left behind. */
  readonly memory: WebAssembly.Memory
  private readonly x: Exports
  private readonly size: Record<Kind, number>
  private readonly KX: number
  private readonly registry: FinalizationRegistry<WasmHandle> | null

  constructor (instance: WebAssembly.Instance, state: State) {
    const x = instance.exports as unknown as Exports
    this.x = x
    state.memory = x.memory
    this.memory = x.memory
    if (x._initialize) x._initialize()
    this.size = {
      priv: x.fs2js_privkey_size(),
      pub: x.fs2js_pubkey_size(),
      sm4: x.fs2js_sm4_key_size ? x.fs2js_sm4_key_size() : 0,
      ctx: x.fs2js_sm4_ctx_size ? x.fs2js_sm4_ctx_size() : 0,
      gcm: x.fs2js_sm4_gcm_size ? x.fs2js_sm4_gcm_size() : 0
    }
    this.KX = x.fs2js_kx_size()
    this.registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((h) => this.freeHandle(h)) : null
  }

  private mem (): Uint8Array { return new Uint8Array(this.x.memory.buffer) }

  private cstr (p: Ptr): string {
    const m = this.mem()
    let e = p
    while (m[e]) e++
    return new TextDecoder().decode(m.subarray(p, e))
  }

  private check (st: number): void {
    if (st !== 1) throw new FastSM2Error(st, this.cstr(this.x.fastsm2_error_name(st)), this.cstr(this.x.fastsm2_strerror(st)))
  }

  // A call with scratch buffers: alloc(n) returns a pointer (zeroed memory
  // of n bytes, never 0 even for n = 0), all wiped and freed at the end.
  private call<T> (fn: (alloc: Alloc, put: Put) => T): T {
    const x = this.x
    const ptrs: Array<[Ptr, number]> = []
    const sp = x.stackSave()
    const alloc: Alloc = (n) => {
      const size = n > 0 ? n : 1
      const p = x.malloc(size)
      if (!p) fail('NO_MEMORY')
      this.mem().fill(0, p, p + size)
      ptrs.push([p, size])
      return p
    }
    const put: Put = (u8) => { const p = alloc(u8.length); this.mem().set(u8, p); return p }
    try {
      return fn(alloc, put)
    } catch (e) {
      if (!(e instanceof FastSM2Error)) x.stackRestore(sp) // a trap: leave the stack as it was
      throw e
    } finally {
      const m = this.mem()
      for (const [p, n] of ptrs) { m.fill(0, p, p + n); x.free(p) }
    }
  }

  private read (p: Ptr, n: number): Uint8Array { return this.mem().slice(p, p + n) }
  private readSize (p: Ptr): number { return new DataView(this.x.memory.buffer).getUint32(p, true) }
  private writeSize (p: Ptr, v: number): void { new DataView(this.x.memory.buffer).setUint32(p, v, true) }

  // ---- keys ----------------------------------------------------------------
  private release (k: WasmKey): void {
    if (--k.uses > 0) return
    const x = this.x
    if (k.kind === 'priv') x.fastsm2_privkey_clear(k.ptr)
    else if (k.kind === 'sm4') x.fastsm2_sm4_key_clear(k.ptr)
    else if (k.kind === 'ctx') x.fastsm2_sm4_ctx_clear(k.ptr)
    else if (k.kind === 'gcm') x.fastsm2_sm4_gcm_clear(k.ptr)
    this.mem().fill(0, k.ptr, k.ptr + this.size[k.kind])
    x.free(k.ptr)
    k.ptr = 0
  }

  private freeHandle (h: WasmHandle): void {
    const k = h.key
    if (!k) return
    h.key = null
    this.release(k)
  }

  private newKey (kind: Kind | boolean, init: (p: Ptr) => number): KeyHandle {
    const kd: Kind = kind === true ? 'priv' : kind === false ? 'pub' : kind
    const size = this.size[kd]
    const p = this.x.malloc(size)
    if (!p) fail('NO_MEMORY')
    this.mem().fill(0, p, p + size)
    const k: WasmKey = { ptr: p, kind: kd, uses: 1 }
    try {
      this.check(init(p))
    } catch (e) {
      this.release(k)
      throw e
    }
    return { key: k } as WasmHandle as unknown as KeyHandle
  }

  private ptrOf (h: KeyHandle, kind: Kind): Ptr {
    const k = (h as unknown as WasmHandle | null)?.key
    if (!k || k.kind !== kind) fail('ARG', 'not a key of this kind (' + kind + ')')
    return k.ptr
  }

  private priv (h: KeyHandle): Ptr { return this.ptrOf(h, 'priv') }
  private pub (h: KeyHandle): Ptr { return this.ptrOf(h, 'pub') }

  private id (put: Put, v: Uint8Array | null): [Ptr, number] { return v === null ? [0, 0] : [put(v), v.length] }

  version (): string { return this.cstr(this.x.fastsm2_version()) }
  backend (): string { return this.cstr(this.x.fastsm2_backend_name()) }
  errorName (st: number): string { return this.cstr(this.x.fastsm2_error_name(st)) }

  track (owner: object, h: KeyHandle): void { if (this.registry) this.registry.register(owner, h as unknown as WasmHandle, owner) }
  keyFree (h: KeyHandle): void { this.freeHandle(h as unknown as WasmHandle) }
  keyShare (h: KeyHandle): KeyHandle {
    const k = (h as unknown as WasmHandle | null)?.key
    if (!k) fail('ARG', 'not a key')
    k.uses++
    return { key: k } as WasmHandle as unknown as KeyHandle
  }

  privGenerate (): KeyHandle { return this.newKey(true, (p) => this.x.fastsm2_privkey_generate(p)) }
  privFromBytes (d: Uint8Array): KeyHandle {
    if (d.length !== 32) this.check(-5)
    return this.call((alloc, put) => this.newKey(true, (p) => this.x.fastsm2_privkey_from_bytes(p, put(d))))
  }

  privParse (bytes: Uint8Array, pw: Uint8Array | null): KeyHandle {
    return this.call((alloc, put) => {
      const inp = put(bytes)
      if (pw === null) return this.newKey(true, (p) => this.x.fastsm2_privkey_parse(p, inp, bytes.length))
      const pwp = put(pw)
      return this.newKey(true, (p) => this.x.fastsm2_privkey_parse_encrypted(p, inp, bytes.length, pwp, pw.length))
    })
  }

  privToBytes (h: KeyHandle): Uint8Array {
    return this.call((alloc) => { const o = alloc(32); this.check(this.x.fastsm2_privkey_to_bytes(o, this.priv(h))); return this.read(o, 32) })
  }

  privSerialize (h: KeyHandle, fmt: number): Uint8Array {
    return this.call((alloc) => {
      const o = alloc(1024)
      const l = alloc(4)
      this.writeSize(l, 1024)
      this.check(this.x.fastsm2_privkey_serialize(o, l, this.priv(h), fmt))
      return this.read(o, this.readSize(l))
    })
  }

  privPub (h: KeyHandle): KeyHandle { return this.newKey(false, (p) => this.x.fastsm2_privkey_pubkey(p, this.priv(h))) }

  pubFromBytes (bytes: Uint8Array, parse: boolean): KeyHandle {
    return this.call((alloc, put) => {
      const inp = put(bytes)
      return this.newKey(false, (p) => parse ? this.x.fastsm2_pubkey_parse(p, inp, bytes.length) : this.x.fastsm2_pubkey_from_bytes(p, inp, bytes.length))
    })
  }

  pubToBytes (h: KeyHandle, compressed: boolean): Uint8Array {
    return this.call((alloc) => {
      const o = alloc(65)
      const l = alloc(4)
      this.writeSize(l, 65)
      this.check(this.x.fastsm2_pubkey_to_bytes(o, l, this.pub(h), compressed ? 1 : 0))
      return this.read(o, this.readSize(l))
    })
  }

  pubSerialize (h: KeyHandle, fmt: number): Uint8Array {
    return this.call((alloc) => {
      const o = alloc(512)
      const l = alloc(4)
      this.writeSize(l, 512)
      this.check(this.x.fastsm2_pubkey_serialize(o, l, this.pub(h), fmt))
      return this.read(o, this.readSize(l))
    })
  }

  pubPrecompute (h: KeyHandle): void { this.check(this.x.fastsm2_pubkey_precompute(this.pub(h))) }

  // ---- SM2 -------------------------------------------------------------------
  computeZ (h: KeyHandle, idv: Uint8Array | null): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(32)
      const [ip, il] = this.id(put, idv)
      this.check(this.x.fastsm2_compute_z(o, this.pub(h), ip, il))
      return this.read(o, 32)
    })
  }

  sign (h: KeyHandle, idv: Uint8Array | null, msg: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(64)
      const [ip, il] = this.id(put, idv)
      this.check(this.x.fastsm2_sign(o, this.priv(h), ip, il, put(msg), msg.length))
      return this.read(o, 64)
    })
  }

  signDigest (h: KeyHandle, e: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      if (e.length !== 32) this.check(-5)
      const o = alloc(64)
      this.check(this.x.fastsm2_sign_digest(o, this.priv(h), put(e)))
      return this.read(o, 64)
    })
  }

  signDigestWithNonce (h: KeyHandle, e: Uint8Array, k: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      if (e.length !== 32 || k.length !== 32) this.check(-5)
      const o = alloc(64)
      this.check(this.x.fastsm2_sign_digest_with_nonce(o, this.priv(h), put(e), put(k)))
      return this.read(o, 64)
    })
  }

  verify (h: KeyHandle, idv: Uint8Array | null, msg: Uint8Array, sig: Uint8Array): number {
    return this.call((alloc, put) => {
      if (sig.length !== 64) return -5
      const [ip, il] = this.id(put, idv)
      return this.x.fastsm2_verify_status(this.pub(h), ip, il, put(msg), msg.length, put(sig))
    })
  }

  verifyDigest (h: KeyHandle, e: Uint8Array, sig: Uint8Array): number {
    return this.call((alloc, put) => {
      if (e.length !== 32 || sig.length !== 64) return -5
      return this.x.fastsm2_verify_digest_status(this.pub(h), put(e), put(sig))
    })
  }

  private encryptCall (h: KeyHandle, msg: Uint8Array, flags: number, k: Uint8Array | null): Uint8Array {
    return this.call((alloc, put) => {
      const cap = this.x.fastsm2_ciphertext_size(msg.length, flags)
      if (!cap) this.check(-1)
      const o = alloc(cap)
      const l = alloc(4)
      this.writeSize(l, cap)
      const p = this.pub(h)
      if (k === null) {
        this.check(this.x.fastsm2_encrypt(o, l, p, put(msg), msg.length, flags))
      } else {
        if (k.length !== 32) this.check(-5)
        this.check(this.x.fastsm2_encrypt_with_nonce(o, l, p, put(msg), msg.length, flags, put(k)))
      }
      return this.read(o, this.readSize(l))
    })
  }

  encrypt (h: KeyHandle, msg: Uint8Array, flags: number): Uint8Array { return this.encryptCall(h, msg, flags, null) }
  encryptWithNonce (h: KeyHandle, msg: Uint8Array, flags: number, k: Uint8Array): Uint8Array { return this.encryptCall(h, msg, flags, k) }

  decrypt (h: KeyHandle, ct: Uint8Array, flags: number): Uint8Array {
    return this.call((alloc, put) => {
      const cap = ct.length || 1
      const o = alloc(cap)
      const l = alloc(4)
      this.writeSize(l, cap)
      this.check(this.x.fastsm2_decrypt(o, l, this.priv(h), put(ct), ct.length, flags))
      return this.read(o, this.readSize(l))
    })
  }

  ecdh (h: KeyHandle, peer: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(32)
      this.check(this.x.fastsm2_ecdh(o, this.priv(h), put(peer), peer.length))
      return this.read(o, 32)
    })
  }

  keyExchange (role: number, h: KeyHandle, idv: Uint8Array | null, peer: KeyHandle, peerId: Uint8Array | null,
    r: Uint8Array, peerR: Uint8Array, klen: number): Uint8Array {
    return this.call((alloc, put) => {
      if (r.length !== 32) this.check(-5)
      const ctx = alloc(this.KX)
      try {
        const [ip, il] = this.id(put, idv)
        const [pp, pl] = this.id(put, peerId)
        this.check(this.x.fastsm2_kx_init(ctx, role, this.priv(h), ip, il, this.pub(peer), pp, pl))
        this.check(this.x.fastsm2_kx_start_with_nonce(ctx, alloc(65), put(r)))
        const k = alloc(klen)
        this.check(this.x.fastsm2_kx_compute(ctx, k, klen, put(peerR), peerR.length))
        return this.read(k, klen)
      } finally {
        this.x.fastsm2_kx_clear(ctx)
      }
    })
  }

  sigToDer (sig: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      if (sig.length !== 64) this.check(-5)
      const o = alloc(72)
      const l = alloc(4)
      this.writeSize(l, 72)
      this.check(this.x.fastsm2_sig_to_der(o, l, put(sig)))
      return this.read(o, this.readSize(l))
    })
  }

  sigFromDer (der: Uint8Array): Uint8Array {
    return this.call((alloc, put) => { const o = alloc(64); this.check(this.x.fastsm2_sig_from_der(o, put(der), der.length)); return this.read(o, 64) })
  }

  async signDigestBatch (h: KeyHandle, digests: Uint8Array): Promise<Uint8Array> {
    if (digests.length % 32) this.check(-5)
    await nextTask()
    const n = digests.length / 32
    return this.call((alloc, put) => {
      const o = alloc(64 * n)
      this.check(this.x.fastsm2_sign_digest_batch(o, this.priv(h), 1, put(digests), n, 0))
      return this.read(o, 64 * n)
    })
  }

  async verifyDigestBatch (h: KeyHandle, digests: Uint8Array, sigs: Uint8Array): Promise<Uint8Array> {
    if (digests.length % 32 || sigs.length !== 2 * digests.length) this.check(-5)
    await nextTask()
    const n = digests.length / 32
    return this.call((alloc, put) => {
      const o = alloc(4 * n)
      this.check(this.x.fastsm2_verify_digest_batch(o, this.pub(h), 1, put(digests), put(sigs), n, 0))
      const r = new Int32Array(this.x.memory.buffer, o, n)
      return Uint8Array.from(r, (v) => (v === 1 ? 1 : 0))
    })
  }

  // ---- SM4 -------------------------------------------------------------------
  sm4Backend (): string { return this.cstr(this.x.fastsm2_sm4_backend_name()) }

  sm4Key (raw: Uint8Array): KeyHandle {
    if (raw.length !== 16) this.check(-5)
    return this.call((alloc, put) => this.newKey('sm4', (p) => this.x.fastsm2_sm4_key_init(p, put(raw))))
  }

  sm4Ecb (h: KeyHandle, enc: boolean, data: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(data.length)
      const k = this.ptrOf(h, 'sm4')
      this.check(enc ? this.x.fastsm2_sm4_ecb_encrypt(o, k, put(data), data.length) : this.x.fastsm2_sm4_ecb_decrypt(o, k, put(data), data.length))
      return this.read(o, data.length)
    })
  }

  sm4Cbc (h: KeyHandle, enc: boolean, padding: number, iv: Uint8Array, data: Uint8Array): Uint8Array {
    if (iv.length !== 16) this.check(-30)
    return this.call((alloc, put) => {
      const cap = data.length + (enc ? 16 : 0)
      const o = alloc(cap)
      const l = alloc(4)
      this.writeSize(l, cap)
      const k = this.ptrOf(h, 'sm4')
      this.check(enc ? this.x.fastsm2_sm4_cbc_encrypt(o, l, k, put(iv), padding, put(data), data.length)
        : this.x.fastsm2_sm4_cbc_decrypt(o, l, k, put(iv), padding, put(data), data.length))
      return this.read(o, this.readSize(l))
    })
  }

  sm4Ctr (h: KeyHandle, iv: Uint8Array, data: Uint8Array): Uint8Array {
    if (iv.length !== 16) this.check(-30)
    return this.call((alloc, put) => {
      const o = alloc(data.length)
      this.check(this.x.fastsm2_sm4_ctr(o, this.ptrOf(h, 'sm4'), put(iv), put(data), data.length))
      return this.read(o, data.length)
    })
  }

  sm4AeadEncrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, taglen: number): Uint8Array {
    return this.call((alloc, put) => {
      if (!(taglen >= 0 && taglen <= 16)) this.check(-5)
      const o = alloc(data.length + taglen)
      const f = ccm ? this.x.fastsm2_sm4_ccm_encrypt : this.x.fastsm2_sm4_gcm_encrypt
      this.check(f(o, o + data.length, taglen, this.ptrOf(h, 'sm4'), put(iv), iv.length, put(aad), aad.length, put(data), data.length))
      return this.read(o, data.length + taglen)
    })
  }

  sm4AeadDecrypt (ccm: boolean, h: KeyHandle, iv: Uint8Array, aad: Uint8Array, data: Uint8Array, tag: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(data.length)
      const f = ccm ? this.x.fastsm2_sm4_ccm_decrypt : this.x.fastsm2_sm4_gcm_decrypt
      this.check(f(o, this.ptrOf(h, 'sm4'), put(iv), iv.length, put(aad), aad.length, put(data), data.length, put(tag), tag.length))
      return this.read(o, data.length)
    })
  }

  sm4Xts (h1: KeyHandle, h2: KeyHandle, standard: number, enc: boolean, tweak: Uint8Array, data: Uint8Array): Uint8Array {
    if (tweak.length !== 16) this.check(-30)
    return this.call((alloc, put) => {
      const o = alloc(data.length)
      const f = enc ? this.x.fastsm2_sm4_xts_encrypt : this.x.fastsm2_sm4_xts_decrypt
      this.check(f(o, this.ptrOf(h1, 'sm4'), this.ptrOf(h2, 'sm4'), standard, put(tweak), put(data), data.length))
      return this.read(o, data.length)
    })
  }

  sm4StreamInit (mode: number, enc: boolean, padding: number, h: KeyHandle, iv: Uint8Array | null): KeyHandle {
    return this.call((alloc, put) => {
      const [ip, il] = this.id(put, iv)
      const k = this.ptrOf(h, 'sm4')
      return this.newKey('ctx', (c) => this.x.fastsm2_sm4_init(c, mode, enc ? 1 : 0, padding, k, ip, il))
    })
  }

  sm4StreamUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const cap = data.length + 15
      const o = alloc(cap)
      const l = alloc(4)
      this.writeSize(l, cap)
      this.check(this.x.fastsm2_sm4_update(this.ptrOf(ctx, 'ctx'), o, l, put(data), data.length))
      return this.read(o, this.readSize(l))
    })
  }

  sm4StreamFinal (ctx: KeyHandle): Uint8Array {
    return this.call((alloc) => {
      const o = alloc(16)
      const l = alloc(4)
      this.writeSize(l, 16)
      this.check(this.x.fastsm2_sm4_final(this.ptrOf(ctx, 'ctx'), o, l))
      return this.read(o, this.readSize(l))
    })
  }

  sm4GcmInit (enc: boolean, h: KeyHandle, iv: Uint8Array): KeyHandle {
    return this.call((alloc, put) => {
      const k = this.ptrOf(h, 'sm4')
      const ivp = put(iv)
      return this.newKey('gcm', (c) => this.x.fastsm2_sm4_gcm_init(c, enc ? 1 : 0, k, ivp, iv.length))
    })
  }

  sm4GcmAad (ctx: KeyHandle, aad: Uint8Array): void {
    this.call((alloc, put) => this.check(this.x.fastsm2_sm4_gcm_aad(this.ptrOf(ctx, 'gcm'), put(aad), aad.length)))
  }

  sm4GcmUpdate (ctx: KeyHandle, data: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(data.length)
      this.check(this.x.fastsm2_sm4_gcm_update(this.ptrOf(ctx, 'gcm'), o, put(data), data.length))
      return this.read(o, data.length)
    })
  }

  sm4GcmFinal (ctx: KeyHandle, tagOrLength: number | Uint8Array): Uint8Array | undefined {
    return this.call((alloc, put) => {
      const c = this.ptrOf(ctx, 'gcm')
      if (typeof tagOrLength === 'number') {
        if (!(tagOrLength >= 0 && tagOrLength <= 16)) this.check(-5)
        const t = alloc(tagOrLength)
        this.check(this.x.fastsm2_sm4_gcm_encrypt_final(c, t, tagOrLength))
        return this.read(t, tagOrLength)
      }
      this.check(this.x.fastsm2_sm4_gcm_decrypt_final(c, put(tagOrLength), tagOrLength.length))
      return undefined
    })
  }

  // ---- SM3 -------------------------------------------------------------------
  sm3 (data: Uint8Array): Uint8Array {
    return this.call((alloc, put) => { const o = alloc(32); this.x.fastsm2_sm3(o, put(data), data.length); return this.read(o, 32) })
  }

  hmac (key: Uint8Array, data: Uint8Array): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(32)
      this.check(this.x.fastsm2_hmac_sm3(o, put(key), key.length, put(data), data.length))
      return this.read(o, 32)
    })
  }

  kdf (z: Uint8Array, outlen: number): Uint8Array {
    return this.call((alloc, put) => {
      const o = alloc(outlen)
      this.check(this.x.fastsm2_kdf(o, outlen, put(z), z.length))
      return this.read(o, outlen)
    })
  }
}

export type { WasmEngine }

/** From the module's bytes, synchronously (Node, workers). */
export function instantiateSync (bytes: BufferSource, getRandomValues: RandomFill = defaultRandom()): WasmEngine {
  const state: State = {}
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), wasmImports(state, getRandomValues))
  return new WasmEngine(instance, state)
}

/** From a URL, a Response, or bytes. */
export async function instantiate (source: string | URL | Response | Promise<Response> | BufferSource,
  getRandomValues: RandomFill = defaultRandom()): Promise<WasmEngine> {
  const state: State = {}
  const imports = wasmImports(state, getRandomValues)
  let src: unknown = source
  if (src instanceof URL || typeof src === 'string') src = fetch(src)
  if (src && typeof (src as Promise<unknown>).then === 'function') src = await src
  let instance: WebAssembly.Instance
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) fail('UNSUPPORTED', 'fetching ' + src.url + ': HTTP ' + src.status)
    if (WebAssembly.instantiateStreaming && src.headers.get('content-type') === 'application/wasm') {
      instance = (await WebAssembly.instantiateStreaming(src, imports)).instance
    } else {
      instance = (await WebAssembly.instantiate(await src.arrayBuffer(), imports)).instance
    }
  } else {
    instance = (await WebAssembly.instantiate(src as BufferSource, imports)).instance
  }
  return new WasmEngine(instance, state)
}
