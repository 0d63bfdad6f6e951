// SPDX-License-Identifier: Apache-2.0
//! The library's status codes as a Rust error type.
use core::fmt;
use fastsm2_sys as sys;

/// Why a call failed: one variant per `FASTSM2_ERR_*` code of fastsm2.h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A meaningless argument.
    Argument,
    /// An output buffer too small.
    BufferTooSmall,
    /// Malformed or non-strict DER.
    Der,
    /// Malformed PEM.
    Pem,
    /// An input of a wrong length.
    Length,
    /// A signature's r or s out of range.
    SignatureRange,
    /// A private key out of [1, n-2].
    PrivateKey,
    /// A point off the curve, at infinity, or badly encoded.
    Point,
    /// A well-formed signature that does not verify.
    BadSignature,
    /// Decryption failed (C3 mismatch): no plaintext is released.
    Decrypt,
    /// A truncated or malformed ciphertext.
    Ciphertext,
    /// A signer ID empty or over 8191 bytes.
    Id,
    /// The OS random generator failed.
    Random,
    /// A key file of another algorithm or curve encoding.
    KeyFormat,
    /// The KDF output was all zero.
    KdfZero,
    /// An allocation failed.
    NoMemory,
    /// The peer's key-exchange confirmation did not match.
    Confirm,
    /// A call out of order.
    State,
    /// A feature not built in.
    Unsupported,
    /// A scalar out of range.
    Scalar,
    /// An encrypted key file (a password is needed).
    EncryptedKey,
    /// A wrong password.
    Password,
    /// A key file encrypted with a scheme not read.
    KeyCipher,
    /// A key on another curve than sm2p256v1.
    Curve,
    /// A certificate where a key was expected.
    Certificate,
    /// An input larger than any key file.
    TooLarge,
    /// An encrypted key file asks for more PBKDF2 iterations than the
    /// reader's limit.
    Iterations,
    /// An authentication tag that does not match (SM4-GCM, SM4-CCM): no
    /// plaintext is released.
    Tag,
    /// Bad padding after decryption (SM4-CBC or -ECB with PKCS#7).
    Padding,
    /// An IV or nonce of a wrong length.
    Iv,
    /// A public key where a private key was expected.
    PublicKey,
    /// A certificate not valid yet at the time checked.
    NotYetValid,
    /// A certificate expired at the time checked.
    Expired,
    /// An issuer without basicConstraints cA.
    NotCa,
    /// More CAs below an issuer than its pathLenConstraint allows.
    PathLength,
    /// keyUsage or extendedKeyUsage does not allow this use.
    KeyUsage,
    /// No issuer found, or a chain that ends at a certificate not trusted.
    Issuer,
    /// A chain that comes back to a certificate already in it.
    ChainLoop,
    /// A critical extension that is not understood.
    Critical,
    /// A malformed name, subjectAltName or OID string.
    Name,
    /// An algorithm other than SM2, SM3 or SM4 where one is needed.
    Algorithm,
    /// The content's digest differs from the signed one (CMS).
    Digest,
    /// No recipient of an enveloped message matches the key.
    Recipient,
    /// A code this crate does not know (a newer library).
    Other(i32),
}

/// `Result<T, fastsm2::Error>`.
pub type Result<T> = core::result::Result<T, Error>;

impl Error {
    /// The error of a library status code (anything but FASTSM2_OK).
    pub fn from_code(code: i32) -> Self {
        match code {
            sys::FASTSM2_ERR_ARG => Error::Argument,
            sys::FASTSM2_ERR_BUFFER_TOO_SMALL => Error::BufferTooSmall,
            sys::FASTSM2_ERR_DER => Error::Der,
            sys::FASTSM2_ERR_PEM => Error::Pem,
            sys::FASTSM2_ERR_LENGTH => Error::Length,
            sys::FASTSM2_ERR_SIG_RANGE => Error::SignatureRange,
            sys::FASTSM2_ERR_PRIVATE_KEY => Error::PrivateKey,
            sys::FASTSM2_ERR_POINT => Error::Point,
            sys::FASTSM2_ERR_BAD_SIGNATURE => Error::BadSignature,
            sys::FASTSM2_ERR_DECRYPT => Error::Decrypt,
            sys::FASTSM2_ERR_CIPHERTEXT => Error::Ciphertext,
            sys::FASTSM2_ERR_ID => Error::Id,
            sys::FASTSM2_ERR_RANDOM => Error::Random,
            sys::FASTSM2_ERR_KEY_FORMAT => Error::KeyFormat,
            sys::FASTSM2_ERR_KDF_ZERO => Error::KdfZero,
            sys::FASTSM2_ERR_NO_MEMORY => Error::NoMemory,
            sys::FASTSM2_ERR_CONFIRM => Error::Confirm,
            sys::FASTSM2_ERR_STATE => Error::State,
            sys::FASTSM2_ERR_UNSUPPORTED => Error::Unsupported,
            sys::FASTSM2_ERR_SCALAR => Error::Scalar,
            sys::FASTSM2_ERR_ENCRYPTED_KEY => Error::EncryptedKey,
            sys::FASTSM2_ERR_PASSWORD => Error::Password,
            sys::FASTSM2_ERR_KEY_CIPHER => Error::KeyCipher,
            sys::FASTSM2_ERR_CURVE => Error::Curve,
            sys::FASTSM2_ERR_CERTIFICATE => Error::Certificate,
            sys::FASTSM2_ERR_TOO_LARGE => Error::TooLarge,
            sys::FASTSM2_ERR_ITERATIONS => Error::Iterations,
            sys::FASTSM2_ERR_TAG => Error::Tag,
            sys::FASTSM2_ERR_PADDING => Error::Padding,
            sys::FASTSM2_ERR_IV => Error::Iv,
            sys::FASTSM2_ERR_PUBLIC_KEY => Error::PublicKey,
            sys::FASTSM2_ERR_NOT_YET_VALID => Error::NotYetValid,
            sys::FASTSM2_ERR_EXPIRED => Error::Expired,
            sys::FASTSM2_ERR_NOT_CA => Error::NotCa,
            sys::FASTSM2_ERR_PATH_LENGTH => Error::PathLength,
            sys::FASTSM2_ERR_KEY_USAGE => Error::KeyUsage,
            sys::FASTSM2_ERR_ISSUER => Error::Issuer,
            sys::FASTSM2_ERR_CHAIN_LOOP => Error::ChainLoop,
            sys::FASTSM2_ERR_CRITICAL => Error::Critical,
            sys::FASTSM2_ERR_NAME => Error::Name,
            sys::FASTSM2_ERR_ALGORITHM => Error::Algorithm,
            sys::FASTSM2_ERR_DIGEST => Error::Digest,
            sys::FASTSM2_ERR_RECIPIENT => Error::Recipient,
            other => Error::Other(other),
        }
    }

    /// The library's status code for this error.
    pub fn code(&self) -> i32 {
        match *self {
            Error::Argument => sys::FASTSM2_ERR_ARG,
            Error::BufferTooSmall => sys::FASTSM2_ERR_BUFFER_TOO_SMALL,
            Error::Der => sys::FASTSM2_ERR_DER,
            Error::Pem => sys::FASTSM2_ERR_PEM,
            Error::Length => sys::FASTSM2_ERR_LENGTH,
            Error::SignatureRange => sys::FASTSM2_ERR_SIG_RANGE,
            Error::PrivateKey => sys::FASTSM2_ERR_PRIVATE_KEY,
            Error::Point => sys::FASTSM2_ERR_POINT,
            Error::BadSignature => sys::FASTSM2_ERR_BAD_SIGNATURE,
            Error::Decrypt => sys::FASTSM2_ERR_DECRYPT,
            Error::Ciphertext => sys::FASTSM2_ERR_CIPHERTEXT,
            Error::Id => sys::FASTSM2_ERR_ID,
            Error::Random => sys::FASTSM2_ERR_RANDOM,
            Error::KeyFormat => sys::FASTSM2_ERR_KEY_FORMAT,
            Error::KdfZero => sys::FASTSM2_ERR_KDF_ZERO,
            Error::NoMemory => sys::FASTSM2_ERR_NO_MEMORY,
            Error::Confirm => sys::FASTSM2_ERR_CONFIRM,
            Error::State => sys::FASTSM2_ERR_STATE,
            Error::Unsupported => sys::FASTSM2_ERR_UNSUPPORTED,
            Error::Scalar => sys::FASTSM2_ERR_SCALAR,
            Error::EncryptedKey => sys::FASTSM2_ERR_ENCRYPTED_KEY,
            Error::Password => sys::FASTSM2_ERR_PASSWORD,
            Error::KeyCipher => sys::FASTSM2_ERR_KEY_CIPHER,
            Error::Curve => sys::FASTSM2_ERR_CURVE,
            Error::Certificate => sys::FASTSM2_ERR_CERTIFICATE,
            Error::TooLarge => sys::FASTSM2_ERR_TOO_LARGE,
            Error::Iterations => sys::FASTSM2_ERR_ITERATIONS,
            Error::Tag => sys::FASTSM2_ERR_TAG,
            Error::Padding => sys::FASTSM2_ERR_PADDING,
            Error::Iv => sys::FASTSM2_ERR_IV,
            Error::PublicKey => sys::FASTSM2_ERR_PUBLIC_KEY,
            Error::NotYetValid => sys::FASTSM2_ERR_NOT_YET_VALID,
            Error::Expired => sys::FASTSM2_ERR_EXPIRED,
            Error::NotCa => sys::FASTSM2_ERR_NOT_CA,
            Error::PathLength => sys::FASTSM2_ERR_PATH_LENGTH,
            Error::KeyUsage => sys::FASTSM2_ERR_KEY_USAGE,
            Error::Issuer => sys::FASTSM2_ERR_ISSUER,
            Error::ChainLoop => sys::FASTSM2_ERR_CHAIN_LOOP,
            Error::Critical => sys::FASTSM2_ERR_CRITICAL,
            Error::Name => sys::FASTSM2_ERR_NAME,
            Error::Algorithm => sys::FASTSM2_ERR_ALGORITHM,
            Error::Digest => sys::FASTSM2_ERR_DIGEST,
            Error::Recipient => sys::FASTSM2_ERR_RECIPIENT,
            Error::Other(c) => c,
        }
    }
}

/// Ok for FASTSM2_OK, else the error.
pub(crate) fn check(code: i32) -> Result<()> {
    if code == sys::FASTSM2_OK {
        Ok(())
    } else {
        Err(Error::from_code(code))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: fastsm2_strerror returns a static NUL-terminated string for every int.
        let s = unsafe { std::ffi::CStr::from_ptr(sys::fastsm2_strerror(self.code())) };
        f.write_str(&s.to_string_lossy())
    }
}

impl std::error::Error for Error {}

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        signature::Error::from_source(e)
    }
}

impl From<Error> for pkcs8::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Der | Error::Pem => pkcs8::Error::Asn1(pkcs8::der::ErrorKind::Failed.into()),
            Error::Curve | Error::KeyFormat | Error::PublicKey => pkcs8::Error::ParametersMalformed,
            _ => pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid),
        }
    }
}

impl From<Error> for spki::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Curve | Error::KeyFormat => spki::Error::KeyMalformed,
            Error::Der | Error::Pem => spki::Error::Asn1(spki::der::ErrorKind::Failed.into()),
            _ => spki::Error::KeyMalformed,
        }
    }
}

impl From<Error> for sec1::Error {
    fn from(e: Error) -> Self {
        match e {
            Error::Der | Error::Pem => sec1::Error::Asn1(sec1::der::ErrorKind::Failed.into()),
            Error::Point => sec1::Error::PointEncoding,
            _ => sec1::Error::Crypto,
        }
    }
}
