// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.bench;

import java.security.*;
import java.security.spec.ECGenParameterSpec;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.fastsm2.FastSM2Provider;
import org.openjdk.jmh.annotations.*;

/**
 * The same work through the FastSM2 provider and through BouncyCastle's:
 * 32-byte messages, the default ID, DER signatures, C1C3C2 ciphertexts;
 * SM3 of 8 KiB. "reused": one Signature initialised once (as a careful
 * program does); "hutool": initialised on every call (Hutool's SmUtil
 * pattern, which re-creates the signer each time). Throughput in ops/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class SM2Bench {
    static final String FS = "FastSM2", BC = "BC";

    /** The keys and inputs, shared by the threads (as one service key is). */
    @State(Scope.Benchmark)
    public static class Keys {
        KeyPair bcKeys, fsKeys;
        byte[] msg = new byte[32], big = new byte[8192];
        byte[] fsSig, bcSig, fsCt, bcCt;

        static {
            Security.addProvider(new BouncyCastleProvider());
            Security.addProvider(new FastSM2Provider());
        }

        @Setup
        public void setup() throws Exception {
            new SecureRandom().nextBytes(msg);
            new SecureRandom().nextBytes(big);
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
            g.initialize(new ECGenParameterSpec("sm2p256v1"));
            bcKeys = g.generateKeyPair();
            // the same key for both providers: ours converted from BC's
            KeyFactory f = KeyFactory.getInstance("SM2", FS);
            fsKeys = new KeyPair((PublicKey) f.translateKey(bcKeys.getPublic()),
                    (PrivateKey) f.translateKey(bcKeys.getPrivate()));
            Signature s = Signature.getInstance("SM3withSM2", BC);
            s.initSign(bcKeys.getPrivate());
            s.update(msg);
            bcSig = fsSig = s.sign();
            Cipher c = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
            c.init(Cipher.ENCRYPT_MODE, fsKeys.getPublic());
            fsCt = bcCt = c.doFinal(msg);
        }
    }

    Signature fsSign, fsVerify, bcSign, bcVerify;
    Cipher fsEnc, fsDec;
    org.bouncycastle.crypto.engines.SM2Engine bcEnc, bcDec;
    MessageDigest fsSm3, bcSm3;
    KeyPairGenerator fsGen, bcGen;

    @Setup
    public void setup(Keys k) throws Exception {
        fsSign = Signature.getInstance("SM3withSM2", FS);
        fsSign.initSign(k.fsKeys.getPrivate());
        fsVerify = Signature.getInstance("SM3withSM2", FS);
        fsVerify.initVerify(k.fsKeys.getPublic());
        bcSign = Signature.getInstance("SM3withSM2", BC);
        bcSign.initSign(k.bcKeys.getPrivate());
        bcVerify = Signature.getInstance("SM3withSM2", BC);
        bcVerify.initVerify(k.bcKeys.getPublic());
        fsEnc = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
        fsEnc.init(Cipher.ENCRYPT_MODE, k.fsKeys.getPublic());
        fsDec = Cipher.getInstance("SM2/C1C3C2/NoPadding", FS);
        fsDec.init(Cipher.DECRYPT_MODE, k.fsKeys.getPrivate());
        bcEnc = new org.bouncycastle.crypto.engines.SM2Engine(org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
        bcEnc.init(true, new org.bouncycastle.crypto.params.ParametersWithRandom(
                org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePublicKeyParameter(k.bcKeys.getPublic()),
                new SecureRandom()));
        bcDec = new org.bouncycastle.crypto.engines.SM2Engine(org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
        bcDec.init(false, org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePrivateKeyParameter(k.bcKeys.getPrivate()));
        fsSm3 = MessageDigest.getInstance("SM3", FS);
        bcSm3 = MessageDigest.getInstance("SM3", BC);
        fsGen = KeyPairGenerator.getInstance("SM2", FS);
        bcGen = KeyPairGenerator.getInstance("EC", BC);
        bcGen.initialize(new ECGenParameterSpec("sm2p256v1"));
    }

    // ---- sign --------------------------------------------------------------
    @Benchmark
    public byte[] sign_fastsm2(Keys k) throws Exception {
        fsSign.update(k.msg);
        return fsSign.sign();
    }

    @Benchmark
    public byte[] sign_fastsm2_hutool(Keys k) throws Exception {
        Signature s = Signature.getInstance("SM3withSM2", FS);
        s.initSign(k.bcKeys.getPrivate()); // BC's key object, converted each call
        s.update(k.msg);
        return s.sign();
    }

    @Benchmark
    public byte[] sign_bc_reused(Keys k) throws Exception {
        bcSign.update(k.msg);
        return bcSign.sign();
    }

    @Benchmark
    public byte[] sign_bc_hutool(Keys k) throws Exception {
        Signature s = Signature.getInstance("SM3withSM2", BC);
        s.initSign(k.bcKeys.getPrivate());
        s.update(k.msg);
        return s.sign();
    }

    // ---- verify ------------------------------------------------------------
    @Benchmark
    public boolean verify_fastsm2(Keys k) throws Exception {
        fsVerify.update(k.msg);
        return fsVerify.verify(k.fsSig);
    }

    @Benchmark
    public boolean verify_bc_reused(Keys k) throws Exception {
        bcVerify.update(k.msg);
        return bcVerify.verify(k.bcSig);
    }

    @Benchmark
    public boolean verify_bc_hutool(Keys k) throws Exception {
        Signature s = Signature.getInstance("SM3withSM2", BC);
        s.initVerify(k.bcKeys.getPublic());
        s.update(k.msg);
        return s.verify(k.bcSig);
    }

    // ---- encryption, 32 bytes -------------------------------------------------
    @Benchmark
    public byte[] encrypt32_fastsm2(Keys k) throws Exception {
        return fsEnc.doFinal(k.msg);
    }

    @Benchmark
    public byte[] encrypt32_bc(Keys k) throws Exception {
        return bcEnc.processBlock(k.msg, 0, 32);
    }

    @Benchmark
    public byte[] decrypt32_fastsm2(Keys k) throws Exception {
        return fsDec.doFinal(k.fsCt);
    }

    @Benchmark
    public byte[] decrypt32_bc(Keys k) throws Exception {
        return bcDec.processBlock(k.bcCt, 0, k.bcCt.length);
    }

    // ---- key generation, SM3 --------------------------------------------------
    @Benchmark
    public KeyPair keygen_fastsm2() {
        return fsGen.generateKeyPair();
    }

    @Benchmark
    public KeyPair keygen_bc() {
        return bcGen.generateKeyPair();
    }

    @Benchmark
    public byte[] sm3_8192_fastsm2(Keys k) {
        return fsSm3.digest(k.big);
    }

    @Benchmark
    public byte[] sm3_8192_bc(Keys k) {
        return bcSm3.digest(k.big);
    }
}
