// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.io.IOException;
import java.io.InputStream;
import java.security.Provider;
import java.util.Properties;
import org.fastsm2.jca.HmacSM3Spi;
import org.fastsm2.jca.SM2CipherSpi;
import org.fastsm2.jca.SM2KeyAgreementSpi;
import org.fastsm2.jca.SM2KeyFactorySpi;
import org.fastsm2.jca.SM2KeyPairGeneratorSpi;
import org.fastsm2.jca.SM2SignatureSpi;
import org.fastsm2.jca.SM3DigestSpi;
import org.fastsm2.jca.SM4CipherSpi;
import org.fastsm2.jca.SM4KeyGeneratorSpi;
import org.fastsm2.jca.SM4ParametersSpi;
import org.fastsm2.jca.SM4SecretKeyFactorySpi;

/**
 * The JCA/JCE provider "FastSM2": SM2 and SM3 over libfastsm2 (docs/JAVA.md).
 * Found by ServiceLoader (META-INF/services/java.security.Provider), so both
 * {@code Security.addProvider(new FastSM2Provider())} and a
 * {@code security.provider.N=FastSM2} line in java.security work. The
 * services are the classes of {@code org.fastsm2.jca}, registered by their
 * Class.getName().
 */
public final class FastSM2Provider extends Provider {
    private static final long serialVersionUID = 1L;
    public static final String NAME = "FastSM2";

    /** The version of this build (the pom's, filtered into the jar). */
    static String version() {
        try (InputStream in = FastSM2Provider.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "0");
        } catch (IOException e) {
            return "0";
        }
    }

    public FastSM2Provider() {
        super(NAME, version(), "FastSM2: SM2 signatures, encryption, key exchange, SM3 and SM4"
                + " (GB/T 32918, GB/T 32905, GB/T 32907) over libfastsm2");
        service("Signature", "SM3withSM2", SM2SignatureSpi.class, "SM2", "SM3WITHSM2", "1.2.156.10197.1.501",
                "OID.1.2.156.10197.1.501");
        service("Signature", "SM3withSM2/raw", SM2SignatureSpi.Raw.class, "SM3withSM2inP1363Format");
        service("Cipher", "SM2", SM2CipherSpi.class, "1.2.156.10197.1.301.3");
        put("Cipher.SM2 SupportedModes", "NONE|ECB|C1C2C3|C1C3C2|DER|ASN1|C1C3C2_DER|C1C3C2_ASN1");
        put("Cipher.SM2 SupportedPaddings", "NOPADDING");
        put("Cipher.SM2 SupportedKeyClasses", "java.security.interfaces.ECPublicKey|java.security.interfaces.ECPrivateKey");
        service("KeyPairGenerator", "SM2", SM2KeyPairGeneratorSpi.class);
        service("KeyPairGenerator", "EC", SM2KeyPairGeneratorSpi.EC.class);
        service("KeyFactory", "SM2", SM2KeyFactorySpi.class);
        service("MessageDigest", "SM3", SM3DigestSpi.class, "1.2.156.10197.1.401", "OID.1.2.156.10197.1.401");
        service("Mac", "HmacSM3", HmacSM3Spi.class, "HMACSM3", "HMAC-SM3");
        service("KeyAgreement", "SM2", SM2KeyAgreementSpi.class);
        // SM4 (GB/T 32907), with BouncyCastle's names and OIDs
        service("Cipher", "SM4", SM4CipherSpi.class);
        put("Cipher.SM4 SupportedModes", "ECB|CBC|CTR|SIC|OFB|CFB|GCM|CCM");
        put("Cipher.SM4 SupportedPaddings", "NOPADDING|PKCS5PADDING|PKCS7PADDING");
        put("Cipher.SM4 SupportedKeyFormats", "RAW");
        service("Cipher", "SM4-GCM", SM4CipherSpi.GCM.class, "1.2.156.10197.1.104.8", "OID.1.2.156.10197.1.104.8");
        service("Cipher", "SM4-CCM", SM4CipherSpi.CCM.class, "1.2.156.10197.1.104.9", "OID.1.2.156.10197.1.104.9");
        service("KeyGenerator", "SM4", SM4KeyGeneratorSpi.class, "1.2.156.10197.1.104.8", "1.2.156.10197.1.104.9");
        service("SecretKeyFactory", "SM4", SM4SecretKeyFactorySpi.class);
        service("AlgorithmParameters", "SM4", SM4ParametersSpi.class, "1.2.156.10197.1.104.2");
        service("AlgorithmParameters", "GCM", SM4ParametersSpi.AEAD.class, "SM4-GCM", "1.2.156.10197.1.104.8");
        service("AlgorithmParameters", "CCM", SM4ParametersSpi.AEAD.class, "SM4-CCM", "1.2.156.10197.1.104.9");
    }

    private void service(String type, String name, Class<?> spi, String... aliases) {
        put(type + "." + name, spi.getName());
        for (String a : aliases) put("Alg.Alias." + type + "." + a, name);
    }
}
