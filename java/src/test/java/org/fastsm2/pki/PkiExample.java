// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.pki;

// docs/PKI.md, "Java": this class is the page's example, compiled and run by PkiTest.
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Security;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.spec.X509EncodedKeySpec;
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

public final class PkiExample {
    public static void main(String[] args) throws Exception {
        // FastSM2 (found on the class path) signs; BouncyCastle builds the ASN.1 and validates
        for (Provider p : ServiceLoader.load(Provider.class))
            if (p.getName().equals("FastSM2") && Security.getProvider("FastSM2") == null) Security.addProvider(p);
        Security.addProvider(new BouncyCastleProvider());
        KeyPairGenerator kpg = KeyPairGenerator.getInstance("SM2", "FastSM2");
        KeyPair caKeys = kpg.generateKeyPair(), leafKeys = kpg.generateKeyPair();
        Date from = new Date(System.currentTimeMillis() - 60_000), to = new Date(from.getTime() + 86_400_000L * 365);

        // a self-signed CA, signed by FastSM2 (SM3withSM2, signer ID 1234567812345678)
        X500Name caName = new X500Name("C=CN,O=Example,CN=Example CA");
        ContentSigner caSigner = new JcaContentSignerBuilder("SM3withSM2").setProvider("FastSM2").build(caKeys.getPrivate());
        X509CertificateHolder ca = new X509v3CertificateBuilder(caName, BigInteger.valueOf(0x1234567890L), from, to,
                caName, SubjectPublicKeyInfo.getInstance(caKeys.getPublic().getEncoded()))
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .build(caSigner);

        // a request for the leaf, signed by FastSM2, its signature checked by FastSM2
        PKCS10CertificationRequest csr = new PKCS10CertificationRequestBuilder(
                new X500Name("C=CN,O=Example,CN=www.example.com"),
                SubjectPublicKeyInfo.getInstance(leafKeys.getPublic().getEncoded()))
                .build(new JcaContentSignerBuilder("SM3withSM2").setProvider("FastSM2").build(leafKeys.getPrivate()));
        PublicKey requested = KeyFactory.getInstance("SM2", "FastSM2")
                .generatePublic(new X509EncodedKeySpec(csr.getSubjectPublicKeyInfo().getEncoded()));
        if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder().setProvider("FastSM2").build(requested)))
            throw new IllegalStateException("the request's signature");

        // the leaf, issued by the CA for the request
        X509CertificateHolder leaf = new X509v3CertificateBuilder(caName, BigInteger.valueOf(0x1234567891L), from, to,
                csr.getSubject(), csr.getSubjectPublicKeyInfo())
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .build(caSigner);

        // BouncyCastle's PKIX validator accepts the chain
        JcaX509CertificateConverter conv = new JcaX509CertificateConverter().setProvider("BC");
        X509Certificate caCert = conv.getCertificate(ca), leafCert = conv.getCertificate(leaf);
        PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(caCert, null)));
        params.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX", "BC").validate(
                CertificateFactory.getInstance("X.509", "BC").generateCertPath(List.of(leafCert)), params);

        // CMS SignedData: signed by FastSM2, verified by BouncyCastle
        byte[] content = "hello CMS".getBytes("UTF-8");
        CMSSignedDataGenerator gen = new CMSSignedDataGenerator();
        gen.addSignerInfoGenerator(new JcaSignerInfoGeneratorBuilder(
                new JcaDigestCalculatorProviderBuilder().setProvider("BC").build())
                .build(new JcaContentSignerBuilder("SM3withSM2").setProvider("FastSM2").build(leafKeys.getPrivate()),
                        leafCert));
        gen.addCertificate(new JcaX509CertificateHolder(leafCert));
        CMSSignedData signed = gen.generate(new CMSProcessableByteArray(content), true);
        for (SignerInformation si : signed.getSignerInfos().getSigners())
            if (!si.verify(new JcaSimpleSignerInfoVerifierBuilder().setProvider("BC").build(leafCert)))
                throw new IllegalStateException("the CMS signature");
        System.out.println("chain valid, CMS verified: " + signed.getEncoded().length + " bytes");
    }
}
