// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.pki;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.Security;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateHolder;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCS10CertificationRequestBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Certificates, requests and CMS made by BouncyCastle's builders and
 * generators with every signature made by the FastSM2 provider (issue 47:
 * no ASN.1 of our own in Java), checked by BouncyCastle's PKIX validator and
 * CMS verifier; the certificates and CMS messages fastsm2's CLI made
 * (tests/fixtures/pki/fastsm2) accepted by BouncyCastle; docs/PKI.md's Java
 * example as written. With -Dfastsm2.pki.fixtures=DIR the test writes what
 * BouncyCastle made there (tests/fixtures/pki/make-bc.sh), for the C tests.
 */
class PkiTest {
    static final String FS = "FastSM2", BC = "BC";
    static final Path FIX = Paths.get("..", "tests", "fixtures", "pki");

    @BeforeAll
    static void providers() {
        for (Provider p : ServiceLoader.load(Provider.class))
            if (p.getName().equals(FS) && Security.getProvider(FS) == null) Security.addProvider(p);
        if (Security.getProvider(BC) == null) Security.addProvider(new BouncyCastleProvider());
        assertTrue(Security.getProvider(FS) != null, "FastSM2 is not found through ServiceLoader");
    }

    static X509Certificate pem(Path p) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509", BC)
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(p)));
    }

    static byte[] unpem(Path p) throws Exception {
        String t = new String(Files.readAllBytes(p), StandardCharsets.US_ASCII);
        t = t.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(t);
    }

    static void validate(X509Certificate leaf, List<X509Certificate> chain, X509Certificate anchor, Date at)
            throws Exception {
        PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
        params.setRevocationEnabled(false);
        params.setDate(at);
        java.util.ArrayList<X509Certificate> path = new java.util.ArrayList<>();
        path.add(leaf);
        path.addAll(chain);
        CertPathValidator.getInstance("PKIX", BC)
                .validate(CertificateFactory.getInstance("X.509", BC).generateCertPath(path), params);
    }

    @Test
    void docExampleRunsAndIsThePagesText() throws Exception {
        PkiExample.main(new String[0]);
        String page = new String(Files.readAllBytes(Paths.get("..", "docs", "PKI.md")), StandardCharsets.UTF_8);
        String src = new String(Files.readAllBytes(
                Paths.get("src", "test", "java", "org", "fastsm2", "pki", "PkiExample.java")), StandardCharsets.UTF_8);
        String body = src.substring(src.indexOf("import java.math.BigInteger;"));
        int at = page.indexOf("```java\n" + body.substring(0, 40));
        assertTrue(at >= 0, "docs/PKI.md has no java block starting as PkiExample.java's imports");
        String block = page.substring(at + 8, page.indexOf("```\n", at + 8));
        assertEquals(body, block, "docs/PKI.md's Java example differs from PkiExample.java");
    }

    @Test
    void buildersSignThroughFastSM2() throws Exception {
        KeyPairGenerator kpg = KeyPairGenerator.getInstance("SM2", FS);
        KeyPair caKeys = kpg.generateKeyPair(), leafKeys = kpg.generateKeyPair();
        Date from = new Date(System.currentTimeMillis() - 60_000), to = new Date(from.getTime() + 86_400_000L * 36500);
        X500Name caName = new X500Name("C=CN,O=fastsm2 java,CN=Java CA");
        ContentSigner caSigner = new JcaContentSignerBuilder("SM3withSM2").setProvider(FS).build(caKeys.getPrivate());
        assertEquals("1.2.156.10197.1.501", caSigner.getAlgorithmIdentifier().getAlgorithm().getId());
        X509CertificateHolder ca = new X509v3CertificateBuilder(caName, BigInteger.valueOf(77), from, to, caName,
                SubjectPublicKeyInfo.getInstance(caKeys.getPublic().getEncoded()))
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign))
                .build(caSigner);
        // the signature made by FastSM2 verifies in BouncyCastle and in FastSM2
        assertTrue(ca.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider(BC).build(ca)));
        assertTrue(ca.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider(FS).build(caKeys.getPublic())));
        PKCS10CertificationRequest csr = new PKCS10CertificationRequestBuilder(new X500Name("CN=java leaf"),
                SubjectPublicKeyInfo.getInstance(leafKeys.getPublic().getEncoded()))
                .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(FS).build(leafKeys.getPrivate()));
        assertTrue(csr.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider(BC)
                .build(csr.getSubjectPublicKeyInfo())));
        X509CertificateHolder leaf = new X509v3CertificateBuilder(caName, BigInteger.valueOf(78), from, to,
                csr.getSubject(), csr.getSubjectPublicKeyInfo())
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .build(caSigner);
        JcaX509CertificateConverter conv = new JcaX509CertificateConverter().setProvider(BC);
        X509Certificate caCert = conv.getCertificate(ca), leafCert = conv.getCertificate(leaf);
        validate(leafCert, List.of(), caCert, new Date());
        // and the validator refuses what it should: expired, an untrusted issuer
        assertThrows(CertPathValidatorException.class,
                () -> validate(leafCert, List.of(), caCert, new Date(to.getTime() + 86_400_000L)));
        X509CertificateHolder other = new X509v3CertificateBuilder(new X500Name("CN=other"), BigInteger.ONE, from, to,
                new X500Name("CN=other"), SubjectPublicKeyInfo.getInstance(leafKeys.getPublic().getEncoded()))
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(FS).build(leafKeys.getPrivate()));
        assertThrows(CertPathValidatorException.class,
                () -> validate(leafCert, List.of(), conv.getCertificate(other), new Date()));
        // CMS, attached and detached
        byte[] content = "fastsm2 java CMS".getBytes(StandardCharsets.UTF_8);
        for (boolean attached : new boolean[] {true, false}) {
            CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
            gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(
                    new JcaDigestCalculatorProviderBuilder().setProvider(BC).build())
                    .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(FS).build(leafKeys.getPrivate()),
                            leafCert));
            gen.addCertificate(new JcaX509CertificateHolder(leafCert));
            CMSSignedData sd = gen.generate(new CMSProcessableByteArray(content), attached);
            CMSSignedData back = attached ? new CMSSignedData(sd.getEncoded())
                                          : new CMSSignedData(new CMSProcessableByteArray(content), sd.getEncoded());
            for (SignerInformation si : back.getSignerInfos().getSigners()) {
                assertTrue(si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(leafCert)));
                assertTrue(si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(FS).build(leafCert)));
            }
            CMSSignedData changed = new CMSSignedData(new CMSProcessableByteArray("another".getBytes()),
                    sd.getEncoded());
            if (!attached)
                for (SignerInformation si : changed.getSignerInfos().getSigners())
                    assertThrows(Exception.class, () -> si.verify(
                            new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(leafCert)));
        }
        String out = System.getProperty("fastsm2.pki.fixtures");
        if (out != null && !out.isEmpty()) {
            Path d = Paths.get(out);
            Files.createDirectories(d);
            Files.write(d.resolve("ca.der"), ca.getEncoded());
            Files.write(d.resolve("leaf.der"), leaf.getEncoded());
            Files.write(d.resolve("leaf-csr.der"), csr.getEncoded());
            CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
            gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(
                    new JcaDigestCalculatorProviderBuilder().setProvider(BC).build())
                    .build(new JcaContentSignerBuilder("SM3withSM2").setProvider(FS).build(leafKeys.getPrivate()),
                            leafCert));
            gen.addCertificate(new JcaX509CertificateHolder(leafCert));
            Files.write(d.resolve("msg.txt"), content);
            // BouncyCastle writes CMS in BER (indefinite lengths, the content a constructed OCTET STRING)
            Files.write(d.resolve("signed.cms"), gen.generate(new CMSProcessableByteArray(content), true).getEncoded());
            Files.write(d.resolve("detached.cms"), gen.generate(new CMSProcessableByteArray(content), false).getEncoded());
        }
    }

    @Test
    void fastsm2CliChainsValidateInBouncyCastle() throws Exception {
        Path d = FIX.resolve("fastsm2");
        X509Certificate ca = pem(d.resolve("ca.pem")), inter = pem(d.resolve("inter.pem")),
                        leaf = pem(d.resolve("leaf.pem"));
        Date at = new Date(1798761600000L); // 2027-01-01
        validate(leaf, List.of(inter), ca, at);
        // each signature, in BouncyCastle and in FastSM2 (the default signer ID)
        for (String prov : new String[] {BC, FS}) {
            leaf.verify(inter.getPublicKey(), Security.getProvider(prov));
            inter.verify(ca.getPublicKey(), Security.getProvider(prov));
        }
        PKCS10CertificationRequest csr = new PKCS10CertificationRequest(unpem(d.resolve("leaf.csr")));
        assertTrue(csr.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider(BC)
                .build(csr.getSubjectPublicKeyInfo())));
        assertEquals("C=CN,O=fastsm2 fixture,CN=leaf.example", csr.getSubject().toString());
        // the intermediate's path length of 0 as BouncyCastle reads it
        assertEquals(0, inter.getBasicConstraints());
        byte[] msg = Files.readAllBytes(d.resolve("msg.txt"));
        // (signed-gm.cms is not read here: BouncyCastle takes SignedData only under RFC 5652's OID)
        for (String f : new String[] {"signed.cms", "noattrs.cms", "detached.cms"}) {
            byte[] der = Files.readAllBytes(d.resolve(f));
            CMSSignedData sd = f.equals("detached.cms") ? new CMSSignedData(new CMSProcessableByteArray(msg), der)
                                                        : new CMSSignedData(der);
            if (!f.equals("detached.cms"))
                assertArrayEquals(msg, (byte[]) sd.getSignedContent().getContent());
            for (SignerInformation si : sd.getSignerInfos().getSigners())
                assertTrue(si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(leaf)), f);
        }
        // with another content the detached message is refused
        CMSSignedData wrong = new CMSSignedData(new CMSProcessableByteArray("x".getBytes()),
                Files.readAllBytes(d.resolve("detached.cms")));
        for (SignerInformation si : wrong.getSignerInfos().getSigners())
            assertThrows(Exception.class,
                    () -> si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider(BC).build(leaf)));
    }
}
