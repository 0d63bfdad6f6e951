// SPDX-License-Identifier: Apache-2.0
/**
 * Internal: the JNI entry points ({@link org.fastsm2.internal.Native}) and
 * the typed handles of native objects they take. Not an API: these classes
 * are public only so that the provider's two packages, {@code org.fastsm2}
 * (what applications call) and {@code org.fastsm2.jca} (what the JCA
 * calls), can share them; they change without notice.
 */
package org.fastsm2.internal;
