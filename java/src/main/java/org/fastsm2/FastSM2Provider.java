// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.security.Provider;

/**
 * The JCA/JCE provider "FastSM2": SM2 and SM3 over libfastsm2 (docs/JAVA.md).
 * Found by ServiceLoader (META-INF/services/java.security.Provider), so both
 * {@code Security.addProvider(new FastSM2Provider())} and a
 * {@code security.provider.N=FastSM2} line in java.security work.
 */
public final class FastSM2Provider extends Provider {
    private static final long serialVersionUID = 1L;
    public static final String NAME = "FastSM2";

    /** The version of this build (the pom's, filtered into the jar). */
    static String version() {
        try (java.io.InputStream in = FastSM2Provider.class.getResourceAsStream("version.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "0");
        } catch (java.io.IOException e) {
            return "0";
        }
    }

    public FastSM2Provider() {
        super(NAME, version(), "FastSM2: SM2 signatures, encryption, key exchange and SM3 (GB/T 32918, GB/T 32905) over libfastsm2");
        String p = "org.fastsm2.";
        put("Signature.SM3withSM2", p + "SM2Signature");
        put("Alg.Alias.Signature.SM2", "SM3withSM2");
        put("Alg.Alias.Signature.SM3WITHSM2", "SM3withSM2");
        put("Alg.Alias.Signature.1.2.156.10197.1.501", "SM3withSM2");
        put("Alg.Alias.Signature.OID.1.2.156.10197.1.501", "SM3withSM2");
        put("Signature.SM3withSM2/raw", p + "SM2Signature$Raw");
        put("Alg.Alias.Signature.SM3withSM2inP1363Format", "SM3withSM2/raw");
        put("Cipher.SM2", p + "SM2Cipher");
        put("Cipher.SM2 SupportedModes", "NONE|ECB|C1C2C3|C1C3C2|DER|ASN1|C1C3C2_DER|C1C3C2_ASN1");
        put("Cipher.SM2 SupportedPaddings", "NOPADDING");
        put("Cipher.SM2 SupportedKeyClasses", "java.security.interfaces.ECPublicKey|java.security.interfaces.ECPrivateKey");
        put("Alg.Alias.Cipher.1.2.156.10197.1.301.3", "SM2");
        put("KeyPairGenerator.SM2", p + "SM2KeyPairGenerator");
        put("KeyPairGenerator.EC", p + "SM2KeyPairGenerator$EC");
        put("KeyFactory.SM2", p + "SM2KeyFactory");
        put("MessageDigest.SM3", p + "SM3Digest");
        put("Alg.Alias.MessageDigest.1.2.156.10197.1.401", "SM3");
        put("Alg.Alias.MessageDigest.OID.1.2.156.10197.1.401", "SM3");
        put("Mac.HmacSM3", p + "HmacSM3");
        put("Alg.Alias.Mac.HMACSM3", "HmacSM3");
        put("Alg.Alias.Mac.HMAC-SM3", "HmacSM3");
        put("KeyAgreement.SM2", p + "SM2KeyAgreement");
    }
}
