// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.bench;

import java.security.SecureRandom;
import java.security.Security;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.fastsm2.FastSM2Provider;
import org.openjdk.jmh.annotations.*;

/**
 * SM4-GCM and SM4-CBC (PKCS#7) through the FastSM2 provider and through
 * BouncyCastle's, the same calls on both: a Cipher made once, initialised
 * for every message with the same key object (a new IV for each
 * encryption, as GCM requires), doFinal of the whole message into a new
 * array. Messages of 1 KiB and 16 KiB. Throughput in messages/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
public class SM4Bench {
    static final String FS = "FastSM2", BC = "BC";

    static {
        Security.addProvider(new BouncyCastleProvider());
        Security.addProvider(new FastSM2Provider());
    }

    @Param({"1024", "16384"})
    public int size;

    SecretKey key;
    byte[] msg, gcmCt, cbcCt, gcmIv, iv12 = new byte[12], iv16 = new byte[16];
    Cipher fsGcmE, bcGcmE, fsGcmD, bcGcmD, fsCbcE, bcCbcE, fsCbcD, bcCbcD;
    long counter;

    @Setup
    public void setup() throws Exception {
        SecureRandom r = new SecureRandom();
        byte[] k = new byte[16];
        r.nextBytes(k);
        key = new SecretKeySpec(k, "SM4");
        msg = new byte[size];
        r.nextBytes(msg);
        r.nextBytes(iv12);
        r.nextBytes(iv16);
        fsGcmE = Cipher.getInstance("SM4/GCM/NoPadding", FS);
        bcGcmE = Cipher.getInstance("SM4/GCM/NoPadding", BC);
        fsGcmD = Cipher.getInstance("SM4/GCM/NoPadding", FS);
        bcGcmD = Cipher.getInstance("SM4/GCM/NoPadding", BC);
        fsCbcE = Cipher.getInstance("SM4/CBC/PKCS5Padding", FS);
        bcCbcE = Cipher.getInstance("SM4/CBC/PKCS5Padding", BC);
        fsCbcD = Cipher.getInstance("SM4/CBC/PKCS5Padding", FS);
        bcCbcD = Cipher.getInstance("SM4/CBC/PKCS5Padding", BC);
        gcmIv = iv12.clone();
        bcGcmE.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, gcmIv));
        gcmCt = bcGcmE.doFinal(msg);
        bcCbcE.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv16));
        cbcCt = bcCbcE.doFinal(msg);
    }

    /** A fresh 12-byte IV: a counter in the first 8 bytes (cheap, never repeated). */
    GCMParameterSpec nextIv() {
        long c = ++counter;
        for (int i = 0; i < 8; i++) iv12[i] = (byte) (c >>> (8 * i));
        return new GCMParameterSpec(128, iv12);
    }

    @Benchmark
    public byte[] gcm_encrypt_fastsm2() throws Exception {
        fsGcmE.init(Cipher.ENCRYPT_MODE, key, nextIv());
        return fsGcmE.doFinal(msg);
    }

    @Benchmark
    public byte[] gcm_encrypt_bc() throws Exception {
        bcGcmE.init(Cipher.ENCRYPT_MODE, key, nextIv());
        return bcGcmE.doFinal(msg);
    }

    @Benchmark
    public byte[] gcm_decrypt_fastsm2() throws Exception {
        fsGcmD.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, gcmIv));
        return fsGcmD.doFinal(gcmCt);
    }

    @Benchmark
    public byte[] gcm_decrypt_bc() throws Exception {
        bcGcmD.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, gcmIv));
        return bcGcmD.doFinal(gcmCt);
    }

    @Benchmark
    public byte[] cbc_encrypt_fastsm2() throws Exception {
        fsCbcE.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv16));
        return fsCbcE.doFinal(msg);
    }

    @Benchmark
    public byte[] cbc_encrypt_bc() throws Exception {
        bcCbcE.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv16));
        return bcCbcE.doFinal(msg);
    }

    @Benchmark
    public byte[] cbc_decrypt_fastsm2() throws Exception {
        fsCbcD.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(iv16));
        return fsCbcD.doFinal(cbcCt);
    }

    @Benchmark
    public byte[] cbc_decrypt_bc() throws Exception {
        bcCbcD.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(iv16));
        return bcCbcD.doFinal(cbcCt);
    }
}
