// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.jca;

import java.security.Provider;
import java.security.Security;
import org.fastsm2.FastSM2Provider;

/** The provider whose AlgorithmParameters the SPI classes hand out. */
final class Providers {
    private Providers() {}

    private static volatile Provider own;

    static Provider get() {
        Provider p = Security.getProvider(FastSM2Provider.NAME);
        if (p != null) return p;
        p = own;
        if (p == null) own = p = new FastSM2Provider();
        return p;
    }
}
