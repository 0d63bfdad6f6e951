// SPDX-License-Identifier: Apache-2.0
// The WebAssembly engine: libfastsm2 built by emscripten as a standalone
// module (the portable C backend, "generic"), called through the public C
// API. The same functions as the Node-API addon (src/addon.c), so that
// lib/api.mjs sits on either.
//
// Memory: every call copies its inputs into buffers it allocates in the
// module's memory and copies the outputs out; every such buffer is zeroed
// before it is freed, so no message, plaintext, key byte or nonce-derived
// value stays in WebAssembly memory after the call. Keys live in the
// module's memory until destroy() or the garbage collector frees them
// (fastsm2_privkey_clear wipes a private key first).
//
// Randomness: the module's getentropy import is crypto.getRandomValues.
// Errors: a negative status becomes a FastSM2Error; if the module ever traps,
// its stack pointer is restored, so the instance stays usable.
import { FastSM2Error, fail } from './errors.mjs'

function wasmImports (state, getRandomValues) {
  return {
    env: {
      getentropy (ptr, len) {
        try {
          getRandomValues(new Uint8Array(state.memory.buffer, ptr, len))
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
      environ_sizes_get (countPtr, sizePtr) {
        const dv = new DataView(state.memory.buffer)
        dv.setUint32(countPtr, 0, true)
        dv.setUint32(sizePtr, 0, true)
        return 0
      },
      environ_get () { return 0 }
    }
  }
}

// Lets the event loop run (other tasks, rendering) between chunks of a batch.
function nextTask () {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)))
}

function defaultRandom () {
  const c = globalThis.crypto
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new FastSM2Error(-13, 'FASTSM2_ERR_RANDOM', 'FASTSM2_ERR_RANDOM: crypto.getRandomValues is not available')
  }
  // getRandomValues takes at most 65536 bytes a call
  return (u8) => { for (let o = 0; o < u8.length; o += 65536) c.getRandomValues(u8.subarray(o, Math.min(u8.length, o + 65536))) }
}

function makeEngine (instance, state) {
  const x = instance.exports
  state.memory = x.memory
  if (x._initialize) x._initialize()
  const mem = () => new Uint8Array(x.memory.buffer)
  const PRIV = x.fs2js_privkey_size()
  const PUB = x.fs2js_pubkey_size()

  function cstr (p) {
    const m = mem()
    let e = p
    while (m[e]) e++
    return new TextDecoder().decode(m.subarray(p, e))
  }

  function check (st) {
    if (st !== 1) throw new FastSM2Error(st, cstr(x.fastsm2_error_name(st)), cstr(x.fastsm2_strerror(st)))
  }

  // A call with scratch buffers: alloc(n) returns a pointer (zeroed memory
  // of n bytes, never 0 even for n = 0), all freed and wiped at the end.
  function call (fn) {
    const ptrs = []
    const sp = x.stackSave()
    const alloc = (n) => {
      const p = x.malloc(n > 0 ? n : 1)
      if (!p) fail('NO_MEMORY')
      mem().fill(0, p, p + (n > 0 ? n : 1))
      ptrs.push([p, n > 0 ? n : 1])
      return p
    }
    const put = (u8) => { const p = alloc(u8.length); mem().set(u8, p); return p }
    try {
      return fn(alloc, put)
    } catch (e) {
      if (!(e instanceof FastSM2Error)) x.stackRestore(sp) // a trap: leave the stack as it was
      throw e
    } finally {
      const m = mem()
      for (const [p, n] of ptrs) { m.fill(0, p, p + n); x.free(p) }
    }
  }

  const read = (p, n) => mem().slice(p, p + n)
  const readSize = (p) => new DataView(x.memory.buffer).getUint32(p, true)
  const writeSize = (p, v) => new DataView(x.memory.buffer).setUint32(p, v, true)

  // A key: { ptr, priv, uses } in the module's memory, with a count of
  // its uses (the handle's, one per running batch), as the addon's keys.
  // A handle: { key } (null once freed). The last use wipes and frees the key.
  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((h) => freeHandle(h))
    : null

  function release (k) {
    if (--k.uses > 0) return
    if (k.priv) x.fastsm2_privkey_clear(k.ptr)
    mem().fill(0, k.ptr, k.ptr + (k.priv ? PRIV : PUB))
    x.free(k.ptr)
    k.ptr = 0
  }

  function freeHandle (h) {
    const k = h.key
    if (!k) return
    h.key = null
    release(k)
  }

  function newKey (priv, init) {
    const size = priv ? PRIV : PUB
    const p = x.malloc(size)
    if (!p) fail('NO_MEMORY')
    mem().fill(0, p, p + size)
    const k = { ptr: p, priv, uses: 1 }
    try {
      check(init(p))
    } catch (e) {
      release(k)
      throw e
    }
    return { key: k }
  }

  function priv (h) {
    const k = h && h.key
    if (!k || !k.priv) fail('ARG', 'not a private key')
    return k.ptr
  }

  function pub (h) {
    const k = h && h.key
    if (!k || k.priv !== false) fail('ARG', 'not a public key')
    return k.ptr
  }

  function id (alloc, put, v) { return v === null ? [0, 0] : [put(v), v.length] }

  const engine = {
    name: 'wasm',
    memory: x.memory, // for the tests that look for secrets left behind
    version: () => cstr(x.fastsm2_version()),
    backend: () => cstr(x.fastsm2_backend_name()),
    track (obj, h) { if (registry) registry.register(obj, h, h) },
    keyFree (h) { if (registry) registry.unregister(h); freeHandle(h) },
    keyShare (h) {
      if (!h || !h.key) fail('ARG', 'not a key')
      h.key.uses++
      return { key: h.key }
    },

    privGenerate: () => newKey(true, (p) => x.fastsm2_privkey_generate(p)),
    privFromBytes (d) {
      if (d.length !== 32) check(-5)
      return call((alloc, put) => newKey(true, (p) => x.fastsm2_privkey_from_bytes(p, put(d))))
    },
    privParse (bytes, pw) {
      return call((alloc, put) => {
        const inp = put(bytes)
        if (pw === null) return newKey(true, (p) => x.fastsm2_privkey_parse(p, inp, bytes.length))
        const pwp = put(pw)
        return newKey(true, (p) => x.fastsm2_privkey_parse_encrypted(p, inp, bytes.length, pwp, pw.length))
      })
    },
    privToBytes: (k) => call((alloc) => { const o = alloc(32); check(x.fastsm2_privkey_to_bytes(o, priv(k))); return read(o, 32) }),
    privSerialize: (k, fmt) => call((alloc) => {
      const o = alloc(1024)
      const l = alloc(4)
      writeSize(l, 1024)
      check(x.fastsm2_privkey_serialize(o, l, priv(k), fmt))
      return read(o, readSize(l))
    }),
    privPub: (k) => newKey(false, (p) => x.fastsm2_privkey_pubkey(p, priv(k))),

    pubFromBytes: (bytes, parse) => call((alloc, put) => {
      const inp = put(bytes)
      return newKey(false, (p) => parse ? x.fastsm2_pubkey_parse(p, inp, bytes.length) : x.fastsm2_pubkey_from_bytes(p, inp, bytes.length))
    }),
    pubToBytes: (k, compressed) => call((alloc) => {
      const o = alloc(65)
      const l = alloc(4)
      writeSize(l, 65)
      check(x.fastsm2_pubkey_to_bytes(o, l, pub(k), compressed ? 1 : 0))
      return read(o, readSize(l))
    }),
    pubSerialize: (k, fmt) => call((alloc) => {
      const o = alloc(512)
      const l = alloc(4)
      writeSize(l, 512)
      check(x.fastsm2_pubkey_serialize(o, l, pub(k), fmt))
      return read(o, readSize(l))
    }),
    pubPrecompute: (k) => check(x.fastsm2_pubkey_precompute(pub(k))),
    computeZ: (k, idv) => call((alloc, put) => {
      const o = alloc(32)
      const [ip, il] = id(alloc, put, idv)
      check(x.fastsm2_compute_z(o, pub(k), ip, il))
      return read(o, 32)
    }),

    sign: (k, idv, msg) => call((alloc, put) => {
      const o = alloc(64)
      const [ip, il] = id(alloc, put, idv)
      check(x.fastsm2_sign(o, priv(k), ip, il, put(msg), msg.length))
      return read(o, 64)
    }),
    signDigest: (k, e) => call((alloc, put) => {
      if (e.length !== 32) check(-5)
      const o = alloc(64)
      check(x.fastsm2_sign_digest(o, priv(k), put(e)))
      return read(o, 64)
    }),
    verify: (k, idv, msg, sig) => call((alloc, put) => {
      if (sig.length !== 64) return -5
      const [ip, il] = id(alloc, put, idv)
      return x.fastsm2_verify_status(pub(k), ip, il, put(msg), msg.length, put(sig))
    }),
    verifyDigest: (k, e, sig) => call((alloc, put) => {
      if (e.length !== 32 || sig.length !== 64) return -5
      return x.fastsm2_verify_digest_status(pub(k), put(e), put(sig))
    }),
    encrypt: (k, msg, flags) => call((alloc, put) => {
      const cap = x.fastsm2_ciphertext_size(msg.length, flags)
      if (!cap) check(-1)
      const o = alloc(cap)
      const l = alloc(4)
      writeSize(l, cap)
      check(x.fastsm2_encrypt(o, l, pub(k), put(msg), msg.length, flags))
      return read(o, readSize(l))
    }),
    decrypt: (k, ct, flags) => call((alloc, put) => {
      const cap = ct.length || 1
      const o = alloc(cap)
      const l = alloc(4)
      writeSize(l, cap)
      check(x.fastsm2_decrypt(o, l, priv(k), put(ct), ct.length, flags))
      return read(o, readSize(l))
    }),
    sm3: (data) => call((alloc, put) => { const o = alloc(32); x.fastsm2_sm3(o, put(data), data.length); return read(o, 32) }),
    hmac: (key, data) => call((alloc, put) => {
      const o = alloc(32)
      check(x.fastsm2_hmac_sm3(o, put(key), key.length, put(data), data.length))
      return read(o, 32)
    }),
    sigToDer: (sig) => call((alloc, put) => {
      if (sig.length !== 64) check(-5)
      const o = alloc(72)
      const l = alloc(4)
      writeSize(l, 72)
      check(x.fastsm2_sig_to_der(o, l, put(sig)))
      return read(o, readSize(l))
    }),
    sigFromDer: (der) => call((alloc, put) => { const o = alloc(64); check(x.fastsm2_sig_from_der(o, put(der), der.length)); return read(o, 64) }),

    // No threads in this build: a batch runs in the calling thread, a
    // chunk (batchChunk items) at a time, letting other tasks run between
    // chunks (lib/api.mjs splits batches into chunks).
    batchChunk: 4096,
    async signDigestBatch (k, digests) {
      if (digests.length % 32) check(-5)
      await nextTask()
      const n = digests.length / 32
      return call((alloc, put) => {
        const o = alloc(64 * n)
        check(x.fastsm2_sign_digest_batch(o, priv(k), 1, put(digests), n, 0))
        return read(o, 64 * n)
      })
    },
    async verifyDigestBatch (k, digests, sigs) {
      if (digests.length % 32 || sigs.length !== 2 * digests.length) check(-5)
      await nextTask()
      const n = digests.length / 32
      return call((alloc, put) => {
        const o = alloc(4 * n)
        check(x.fastsm2_verify_digest_batch(o, pub(k), 1, put(digests), put(sigs), n, 0))
        const r = new Int32Array(x.memory.buffer, o, n)
        return Uint8Array.from(r, (v) => (v === 1 ? 1 : 0))
      })
    }
  }
  return engine
}

/** From the module's bytes, synchronously (Node, workers). */
function instantiateSync (bytes, getRandomValues = defaultRandom()) {
  const state = {}
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), wasmImports(state, getRandomValues))
  return makeEngine(instance, state)
}

/** From a URL, a Response, or bytes. */
async function instantiate (source, getRandomValues = defaultRandom()) {
  const state = {}
  const imports = wasmImports(state, getRandomValues)
  let result
  if (source instanceof URL || typeof source === 'string') source = fetch(source)
  if (source && typeof source.then === 'function') source = await source
  if (typeof Response !== 'undefined' && source instanceof Response) {
    if (WebAssembly.instantiateStreaming && source.headers.get('content-type') === 'application/wasm') {
      result = await WebAssembly.instantiateStreaming(source, imports)
    } else {
      result = await WebAssembly.instantiate(await source.arrayBuffer(), imports)
    }
  } else {
    result = await WebAssembly.instantiate(source, imports)
  }
  return makeEngine(result.instance, state)
}

export { instantiate, instantiateSync }
