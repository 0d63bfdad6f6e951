// SPDX-License-Identifier: Apache-2.0
// The one error class of the package: `code` is the C library's status name
// (FASTSM2_ERR_POINT, FASTSM2_ERR_DECRYPT, ...), `status` its number, as
// include/fastsm2.h defines them (a test checks this table against the
// library's fastsm2_error_name for every code).

/** Every status code of include/fastsm2.h, by name. */
export const ERROR_CODES = Object.freeze({
  FASTSM2_ERR_ARG: -1,
  FASTSM2_ERR_BUFFER_TOO_SMALL: -2,
  FASTSM2_ERR_DER: -3,
  FASTSM2_ERR_PEM: -4,
  FASTSM2_ERR_LENGTH: -5,
  FASTSM2_ERR_SIG_RANGE: -6,
  FASTSM2_ERR_PRIVATE_KEY: -7,
  FASTSM2_ERR_POINT: -8,
  FASTSM2_ERR_BAD_SIGNATURE: -9,
  FASTSM2_ERR_DECRYPT: -10,
  FASTSM2_ERR_CIPHERTEXT: -11,
  FASTSM2_ERR_ID: -12,
  FASTSM2_ERR_RANDOM: -13,
  FASTSM2_ERR_KEY_FORMAT: -14,
  FASTSM2_ERR_KDF_ZERO: -15,
  FASTSM2_ERR_NO_MEMORY: -16,
  FASTSM2_ERR_CONFIRM: -17,
  FASTSM2_ERR_STATE: -18,
  FASTSM2_ERR_UNSUPPORTED: -19,
  FASTSM2_ERR_SCALAR: -20,
  FASTSM2_ERR_ENCRYPTED_KEY: -21,
  FASTSM2_ERR_PASSWORD: -22,
  FASTSM2_ERR_KEY_CIPHER: -23,
  FASTSM2_ERR_CURVE: -24,
  FASTSM2_ERR_CERTIFICATE: -25,
  FASTSM2_ERR_TOO_LARGE: -26,
  FASTSM2_ERR_ITERATIONS: -27,
  FASTSM2_ERR_TAG: -28,
  FASTSM2_ERR_PADDING: -29,
  FASTSM2_ERR_IV: -30,
  FASTSM2_ERR_PUBLIC_KEY: -31,
  FASTSM2_ERR_NOT_YET_VALID: -32,
  FASTSM2_ERR_EXPIRED: -33,
  FASTSM2_ERR_NOT_CA: -34,
  FASTSM2_ERR_PATH_LENGTH: -35,
  FASTSM2_ERR_KEY_USAGE: -36,
  FASTSM2_ERR_ISSUER: -37,
  FASTSM2_ERR_CHAIN_LOOP: -38,
  FASTSM2_ERR_CRITICAL: -39,
  FASTSM2_ERR_NAME: -40,
  FASTSM2_ERR_ALGORITHM: -41,
  FASTSM2_ERR_DIGEST: -42,
  FASTSM2_ERR_RECIPIENT: -43
} as const)

/** A status name: 'FASTSM2_ERR_POINT', 'FASTSM2_ERR_TAG', ... */
export type FastSM2ErrorCode = keyof typeof ERROR_CODES
type Short = FastSM2ErrorCode extends `FASTSM2_ERR_${infer S}` ? S : never

// The descriptions of the codes JavaScript raises itself (the engines give
// the library's own text for the others).
const TEXT: Partial<Record<Short, string>> = {
  ARG: 'meaningless argument',
  LENGTH: 'input of a wrong length',
  PRIVATE_KEY: 'd = 0 or d >= n - 1',
  UNSUPPORTED: 'not provided',
  NO_MEMORY: 'allocation failed',
  RANDOM: 'no random source',
  TAG: 'authentication tag mismatch: no plaintext released',
  PADDING: 'bad padding after decryption',
  IV: 'IV or nonce of a wrong length',
  STATE: 'call out of order',
  SCALAR: 'a nonce or scalar out of [1, n-1]',
  POINT: 'bad encoding, off the curve, infinity'
}

export class FastSM2Error extends Error {
  /** The library's status name, e.g. 'FASTSM2_ERR_POINT'. */
  readonly code: FastSM2ErrorCode
  /** Its number (negative). */
  readonly status: number
  constructor (status: number, code: string, message?: string) {
    super(message || code)
    this.name = 'FastSM2Error'
    this.status = status
    this.code = code as FastSM2ErrorCode
  }
}

/** Throws the FastSM2Error of a status name (ARG, LENGTH, ...), with a detail. */
export function fail (which: Short, detail?: string): never {
  const code = ('FASTSM2_ERR_' + which) as FastSM2ErrorCode
  const message = code + ': ' + (TEXT[which] || which.toLowerCase())
  throw new FastSM2Error(ERROR_CODES[code], code, detail ? message + ' (' + detail + ')' : message)
}
