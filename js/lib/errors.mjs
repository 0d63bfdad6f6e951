// SPDX-License-Identifier: Apache-2.0
// The one error class of the package: `code` is the C library's status name
// (FASTSM2_ERR_POINT, FASTSM2_ERR_DECRYPT, ...), `status` its number.
class FastSM2Error extends Error {
  constructor (status, code, message) {
    super(message || code)
    this.name = 'FastSM2Error'
    this.status = status
    this.code = code
  }
}

// The status codes of include/fastsm2.h that JavaScript raises itself.
const ERR = {
  ARG: [-1, 'FASTSM2_ERR_ARG', 'FASTSM2_ERR_ARG: meaningless argument'],
  LENGTH: [-5, 'FASTSM2_ERR_LENGTH', 'FASTSM2_ERR_LENGTH: input of a wrong length'],
  PRIVATE_KEY: [-7, 'FASTSM2_ERR_PRIVATE_KEY', 'FASTSM2_ERR_PRIVATE_KEY: d = 0 or d >= n - 1'],
  UNSUPPORTED: [-19, 'FASTSM2_ERR_UNSUPPORTED', 'FASTSM2_ERR_UNSUPPORTED: not provided'],
  NO_MEMORY: [-16, 'FASTSM2_ERR_NO_MEMORY', 'FASTSM2_ERR_NO_MEMORY: allocation failed']
}

function fail (which, detail) {
  const [status, code, message] = ERR[which]
  throw new FastSM2Error(status, code, detail ? message + ' (' + detail + ')' : message)
}

export { FastSM2Error, fail }
