// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.bench;

import java.lang.management.ManagementFactory;
import java.security.*;
import java.security.spec.ECGenParameterSpec;
import java.util.concurrent.Callable;
import javax.crypto.Cipher;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.fastsm2.FastSM2Provider;

/**
 * The per-CPU-second companion of SM2Bench: each operation timed by the
 * process's CPU clock (GC and JIT threads included), so that the waiting of
 * a loaded machine does not count; the C side is java/tools/cpu-bench.c. Same work as
 * SM2Bench (signers reused). usage: CpuTime [seconds per operation]
 * Prints "impl op ops_per_cpu_second" lines.
 */
public final class CpuTime {
    // the process's CPU time: the JVM's GC and compiler threads count too
    static final com.sun.management.OperatingSystemMXBean MX =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static volatile Object sink;

    static double run(Callable<Object> op, double secs) throws Exception {
        long t0 = MX.getProcessCpuTime(), end = t0 + (long) (secs * 0.5e9);
        while (MX.getProcessCpuTime() < end) sink = op.call(); // warm-up: half the time
        long n = 0;
        t0 = MX.getProcessCpuTime();
        long t;
        do {
            for (int i = 0; i < 10; i++) sink = op.call();
            n += 10;
            t = MX.getProcessCpuTime() - t0;
        } while (t < secs * 1e9);
        return n / (t / 1e9);
    }

    public static void main(String[] args) throws Exception {
        double secs = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        Security.addProvider(new BouncyCastleProvider());
        Security.addProvider(new FastSM2Provider());
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", "BC");
        g.initialize(new ECGenParameterSpec("sm2p256v1"));
        KeyPair bc = g.generateKeyPair();
        KeyFactory f = KeyFactory.getInstance("SM2", "FastSM2");
        KeyPair fs = new KeyPair((PublicKey) f.translateKey(bc.getPublic()), (PrivateKey) f.translateKey(bc.getPrivate()));
        byte[] msg = new byte[32], big = new byte[8192];
        new SecureRandom().nextBytes(msg);
        for (String prov : new String[] {"FastSM2", "BC"}) {
            KeyPair kp = prov.equals("BC") ? bc : fs;
            Signature s = Signature.getInstance("SM3withSM2", prov), v = Signature.getInstance("SM3withSM2", prov);
            s.initSign(kp.getPrivate());
            v.initVerify(kp.getPublic());
            s.update(msg);
            byte[] sig = s.sign();
            Cipher e, d;
            org.bouncycastle.crypto.engines.SM2Engine be = null, bd = null;
            e = Cipher.getInstance("SM2/C1C3C2/NoPadding", "FastSM2");
            d = Cipher.getInstance("SM2/C1C3C2/NoPadding", "FastSM2");
            e.init(Cipher.ENCRYPT_MODE, fs.getPublic());
            d.init(Cipher.DECRYPT_MODE, fs.getPrivate());
            byte[] ct = e.doFinal(msg);
            if (prov.equals("BC")) {
                be = new org.bouncycastle.crypto.engines.SM2Engine(org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
                be.init(true, new org.bouncycastle.crypto.params.ParametersWithRandom(
                        org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePublicKeyParameter(bc.getPublic()),
                        new SecureRandom()));
                bd = new org.bouncycastle.crypto.engines.SM2Engine(org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
                bd.init(false, org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePrivateKeyParameter(bc.getPrivate()));
            }
            MessageDigest md = MessageDigest.getInstance("SM3", prov);
            KeyPairGenerator kg = prov.equals("BC") ? g : KeyPairGenerator.getInstance("SM2", "FastSM2");
            final org.bouncycastle.crypto.engines.SM2Engine fbe = be, fbd = bd;
            String p = prov.equals("BC") ? "bc" : "fastsm2";
            System.out.printf("%s sign %.1f%n", p, run(() -> { s.update(msg); return s.sign(); }, secs));
            System.out.printf("%s verify %.1f%n", p, run(() -> { v.update(msg); return v.verify(sig); }, secs));
            System.out.printf("%s encrypt-32 %.1f%n", p, run(fbe != null ? () -> fbe.processBlock(msg, 0, 32) : () -> e.doFinal(msg), secs));
            System.out.printf("%s decrypt-32 %.1f%n", p, run(fbd != null ? () -> fbd.processBlock(ct, 0, ct.length) : () -> d.doFinal(ct), secs));
            System.out.printf("%s keygen %.1f%n", p, run(kg::generateKeyPair, secs));
            System.out.printf("%s sm3-8192 %.1f%n", p, run(() -> md.digest(big), secs));
        }
    }
}
