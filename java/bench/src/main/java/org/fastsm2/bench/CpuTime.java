// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.*;
import java.security.spec.ECGenParameterSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.fastsm2.FastSM2Provider;

/**
 * The per-CPU-second companion of the JMH benchmarks: each operation of
 * both providers timed by the CPU clock of the thread that runs it (as the
 * user's figures of issue 44 were), so that the waiting of a loaded
 * machine does not count, and neither do the JIT compiler's and the
 * garbage collector's threads. Both providers are warmed up the same way,
 * each operation for {@code warm} seconds of its thread's CPU, before any
 * measurement; then FastSM2 and BouncyCastle take turns, twice, {@code
 * secs} seconds each, and the mean of the two is printed.
 * <p>
 * usage: CpuTime [warm s (3)] [measure s (1)] [thread|process] [ops,...]
 * Prints "impl op ops_per_cpu_second" lines. "process" times the whole
 * process's CPU instead (the JIT's and GC's threads included): with a warm
 * up of 0.25 s it reproduces the older method, whose ratios came out too
 * high (docs/JAVA.md, "Speed").
 */
public final class CpuTime {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static boolean processClock;
    static volatile Object sink;

    static long now() {
        return processClock ? OS.getProcessCpuTime() : THREADS.getCurrentThreadCpuTime();
    }

    static void warm(Callable<Object> op, double secs) throws Exception {
        long end = now() + (long) (secs * 1e9);
        while (now() < end) for (int i = 0; i < 10; i++) sink = op.call();
    }

    static double measure(Callable<Object> op, double secs) throws Exception {
        long n = 0, t0 = now(), t;
        do {
            for (int i = 0; i < 10; i++) sink = op.call();
            n += 10;
            t = now() - t0;
        } while (t < secs * 1e9);
        return n / (t / 1e9);
    }

    public static void main(String[] args) throws Exception {
        double warm = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        double secs = args.length > 1 ? Double.parseDouble(args[1]) : 1;
        processClock = args.length > 2 && args[2].equals("process");
        String only = args.length > 3 ? "," + args[3] + "," : null;
        Security.addProvider(new BouncyCastleProvider());
        Security.addProvider(new FastSM2Provider());
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", "BC");
        g.initialize(new ECGenParameterSpec("sm2p256v1"));
        KeyPair bc = g.generateKeyPair();
        KeyFactory f = KeyFactory.getInstance("SM2", "FastSM2");
        KeyPair fs = new KeyPair((PublicKey) f.translateKey(bc.getPublic()), (PrivateKey) f.translateKey(bc.getPrivate()));
        byte[] msg = new byte[32], big = new byte[8192];
        SecureRandom r = new SecureRandom();
        r.nextBytes(msg);
        r.nextBytes(big);
        byte[] kb = new byte[16];
        r.nextBytes(kb);
        SecretKeySpec sk = new SecretKeySpec(kb, "SM4");
        byte[] k1 = new byte[1024], k16 = new byte[16384];
        r.nextBytes(k1);
        r.nextBytes(k16);

        System.out.printf("# fastsm2 %s, backend %s, SM4 %s; %s CPU clock, %.2f s of warm-up per operation and"
                + " provider, turns of %.2f s%n", org.fastsm2.SM2.libraryVersion(), org.fastsm2.SM2.backend(),
                org.fastsm2.SM4.backend(), processClock ? "process" : "thread", warm, secs);
        Map<String, Callable<Object>[]> ops = new LinkedHashMap<>();
        for (int w = 0; w < 2; w++) {
            String prov = w == 0 ? "FastSM2" : "BC";
            KeyPair kp = w == 0 ? fs : bc;
            Signature s = Signature.getInstance("SM3withSM2", prov), v = Signature.getInstance("SM3withSM2", prov);
            s.initSign(kp.getPrivate());
            v.initVerify(kp.getPublic());
            s.update(msg);
            byte[] sig = s.sign();
            // SM2 encryption: the provider's Cipher for FastSM2, BouncyCastle's SM2Engine (C1C3C2) for BC
            Cipher e = Cipher.getInstance("SM2/C1C3C2/NoPadding", "FastSM2"), d = Cipher.getInstance("SM2/C1C3C2/NoPadding", "FastSM2");
            e.init(Cipher.ENCRYPT_MODE, fs.getPublic());
            d.init(Cipher.DECRYPT_MODE, fs.getPrivate());
            byte[] ct = e.doFinal(msg);
            org.bouncycastle.crypto.engines.SM2Engine be = new org.bouncycastle.crypto.engines.SM2Engine(
                    org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
            be.init(true, new org.bouncycastle.crypto.params.ParametersWithRandom(
                    org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePublicKeyParameter(bc.getPublic()), r));
            org.bouncycastle.crypto.engines.SM2Engine bd = new org.bouncycastle.crypto.engines.SM2Engine(
                    org.bouncycastle.crypto.engines.SM2Engine.Mode.C1C3C2);
            bd.init(false, org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil.generatePrivateKeyParameter(bc.getPrivate()));
            MessageDigest md = MessageDigest.getInstance("SM3", prov);
            KeyPairGenerator kg = w == 0 ? KeyPairGenerator.getInstance("SM2", "FastSM2") : g;
            boolean isFs = w == 0;
            put(ops, w, "sign", () -> { s.update(msg); return s.sign(); });
            put(ops, w, "verify", () -> { v.update(msg); return v.verify(sig); });
            put(ops, w, "encrypt-32", isFs ? () -> e.doFinal(msg) : () -> be.processBlock(msg, 0, 32));
            put(ops, w, "decrypt-32", isFs ? () -> d.doFinal(ct) : () -> bd.processBlock(ct, 0, ct.length));
            put(ops, w, "keygen", kg::generateKeyPair);
            put(ops, w, "sm3-8192", () -> md.digest(big));
            // SM4: as java/bench SM4Bench, a Cipher initialised per message (a fresh IV for GCM
            // encryption), but doFinal into an output array made once, as the C side writes into one
            byte[] outBuf = new byte[16384 + 32];
            for (byte[] m : new byte[][] {k1, k16}) {
                Cipher ge = Cipher.getInstance("SM4/GCM/NoPadding", prov), gd = Cipher.getInstance("SM4/GCM/NoPadding", prov);
                Cipher ce = Cipher.getInstance("SM4/CBC/PKCS5Padding", prov), cd = Cipher.getInstance("SM4/CBC/PKCS5Padding", prov);
                byte[] iv = new byte[12], civ = new byte[16];
                long[] ctr = {0};
                ge.init(Cipher.ENCRYPT_MODE, sk, new GCMParameterSpec(128, iv.clone()));
                byte[] gct = ge.doFinal(m);
                ce.init(Cipher.ENCRYPT_MODE, sk, new IvParameterSpec(civ));
                byte[] cct = ce.doFinal(m);
                String n = m.length == 1024 ? "1024" : "16384";
                put(ops, w, "sm4-gcm-enc-" + n, () -> {
                    long c = ++ctr[0];
                    for (int i = 0; i < 8; i++) iv[i] = (byte) (c >>> (8 * i));
                    iv[8] = 1; // never the IV of gct
                    ge.init(Cipher.ENCRYPT_MODE, sk, new GCMParameterSpec(128, iv));
                    return ge.doFinal(m, 0, m.length, outBuf, 0);
                });
                put(ops, w, "sm4-gcm-dec-" + n, () -> {
                    gd.init(Cipher.DECRYPT_MODE, sk, new GCMParameterSpec(128, new byte[12]));
                    return gd.doFinal(gct, 0, gct.length, outBuf, 0);
                });
                put(ops, w, "sm4-cbc-enc-" + n, () -> {
                    ce.init(Cipher.ENCRYPT_MODE, sk, new IvParameterSpec(civ));
                    return ce.doFinal(m, 0, m.length, outBuf, 0);
                });
                put(ops, w, "sm4-cbc-dec-" + n, () -> {
                    cd.init(Cipher.DECRYPT_MODE, sk, new IvParameterSpec(civ));
                    return cd.doFinal(cct, 0, cct.length, outBuf, 0);
                });
            }
        }
        for (Map.Entry<String, Callable<Object>[]> op : ops.entrySet()) {
            if (only != null && !only.contains("," + op.getKey() + ",")) continue;
            Callable<Object>[] c = op.getValue();
            warm(c[0], warm); // the same warm-up for both, before either is measured
            warm(c[1], warm);
            double a = 0, b = 0;
            for (int round = 0; round < 2; round++) {
                a += measure(c[0], secs) / 2;
                b += measure(c[1], secs) / 2;
            }
            System.out.printf("fastsm2 %s %.1f%nbc %s %.1f%n", op.getKey(), a, op.getKey(), b);
        }
    }

    @SuppressWarnings("unchecked")
    static void put(Map<String, Callable<Object>[]> ops, int which, String name, Callable<Object> op) {
        ops.computeIfAbsent(name, k -> new Callable[2])[which] = op;
    }
}
