// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.internal;

import org.fastsm2.SM2PrivateKey;
import org.fastsm2.SM2PublicKey;

/**
 * How the provider's SPI classes (org.fastsm2.jca) reach the native handle
 * of the public key classes and make keys from handles, without a public
 * method on SM2PrivateKey or SM2PublicKey: the key classes install the one
 * implementation when they are initialised.
 */
public abstract class KeyAccess {
    private static volatile KeyAccess instance;

    /** Called once, by org.fastsm2.SM2PrivateKey's static initialiser. */
    public static void install(KeyAccess a) {
        if (instance != null) throw new IllegalStateException("fastsm2: KeyAccess installed twice");
        instance = a;
    }

    public static KeyAccess get() {
        KeyAccess a = instance;
        if (a == null) {
            try {
                Class.forName(SM2PrivateKey.class.getName(), true, KeyAccess.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = instance;
        }
        return a;
    }

    public abstract PrivateKeyRef ref(SM2PrivateKey k);

    public abstract PublicKeyRef ref(SM2PublicKey k);

    /** A Java key owning this native private key (which it frees). */
    public abstract SM2PrivateKey privateKey(long address);

    /** A Java key owning this native public key. */
    public abstract SM2PublicKey publicKey(long address);
}
