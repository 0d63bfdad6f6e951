// SPDX-License-Identifier: Apache-2.0

// Command gmsm-speed times the SM2 and SM3 of gmsm (github.com/emmansun/gmsm,
// Go with amd64/arm64 assembly) on the operations of `fastsm2 speed`, and
// its SM4 on those of `fastsm2 speed --sm4` (sm4-MODE-SIZE: gmsm's own GCM,
// which crypto/cipher.NewGCM hands to, its CCM and GB/T 17964 XTS from
// gmsm/cipher, ECB, CBC and CTR through the block's own bulk code), and
// prints them in the JSON shape of `fastsm2 speed --json` with impl "gmsm",
// for bench/peers/speed-gmsm.sh and speed-peers-sm4.sh to set beside
// fastsm2's figures:
//
//	gmsm-speed [--seconds S] [--rounds R] [--ops a,b,c] [--json]
//
// Each operation runs R slices of S seconds; the best slice counts. Every
// result is checked (a signature verifies, a ciphertext decrypts to its
// plaintext) before it is timed; a failed check exits 1.
package main

import (
	"bytes"
	stdcipher "crypto/cipher"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	gmcipher "github.com/emmansun/gmsm/cipher"
	"github.com/emmansun/gmsm/sm2"
	"github.com/emmansun/gmsm/sm3"
	"github.com/emmansun/gmsm/sm4"
)

type result struct {
	Impl  string  `json:"impl"`
	Op    string  `json:"op"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

type op struct {
	bytes int          // > 0: report MB/s of this many bytes per call
	setup func() error // checks the operation once, prepares its inputs
	run   func() error
}

var allOps = "keygen,keygen-sign,sign,verify,sign-digest,verify-digest,encrypt-32,decrypt-32,encrypt-4096,decrypt-4096," +
	"encrypt-1048576,decrypt-1048576,sm3-8192"

func fail(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "gmsm-speed: "+format+"\n", a...)
	os.Exit(1)
}

func main() {
	seconds := flag.Float64("seconds", 1.0, "timed seconds per slice")
	rounds := flag.Int("rounds", 5, "slices per operation; the best counts")
	opsFlag := flag.String("ops", allOps, "comma-separated operations")
	asJSON := flag.Bool("json", false, "print one JSON object")
	flag.Parse()
	if *seconds <= 0 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "gmsm-speed: --seconds must be > 0 and --rounds >= 1")
		os.Exit(2)
	}

	priv, err := sm2.GenerateKey(rand.Reader)
	if err != nil {
		fail("keygen: %v", err)
	}
	pub := &priv.PublicKey
	msg := bytes.Repeat([]byte{0x61}, 32) // the 32-byte message of fastsm2 speed
	digest := sm3.Sum(msg)
	var sig, sigDigest []byte
	cts := map[int][]byte{}
	plains := map[int][]byte{}
	buf := make([]byte, 8192)

	ops := map[string]*op{
		"keygen": {run: func() error { _, err := sm2.GenerateKey(rand.Reader); return err }},
		// a new key and its first signature of a digest (SignASN1)
		"keygen-sign": {
			setup: func() error {
				k, err := sm2.GenerateKey(rand.Reader)
				if err != nil {
					return err
				}
				s, err := sm2.SignASN1(rand.Reader, k, digest[:], nil)
				if err != nil {
					return err
				}
				if !sm2.VerifyASN1(&k.PublicKey, digest[:], s) {
					return fmt.Errorf("signature does not verify")
				}
				return nil
			},
			run: func() error {
				k, err := sm2.GenerateKey(rand.Reader)
				if err != nil {
					return err
				}
				_, err = sm2.SignASN1(rand.Reader, k, digest[:], nil)
				return err
			},
		},
		"sign": {
			setup: func() error {
				var err error
				if sig, err = priv.SignWithSM2(rand.Reader, nil, msg); err != nil {
					return err
				}
				if !sm2.VerifyASN1WithSM2(pub, nil, msg, sig) {
					return fmt.Errorf("signature does not verify")
				}
				return nil
			},
			run: func() error { _, err := priv.SignWithSM2(rand.Reader, nil, msg); return err },
		},
		"sign-digest": {
			setup: func() error {
				var err error
				if sigDigest, err = sm2.SignASN1(rand.Reader, priv, digest[:], nil); err != nil {
					return err
				}
				if !sm2.VerifyASN1(pub, digest[:], sigDigest) {
					return fmt.Errorf("signature does not verify")
				}
				return nil
			},
			run: func() error { _, err := sm2.SignASN1(rand.Reader, priv, digest[:], nil); return err },
		},
		"sm3-8192": {bytes: len(buf), run: func() error { h := sm3.Sum(buf); buf[0] ^= h[0]; return nil }},
	}
	ops["verify"] = &op{
		setup: ops["sign"].setup,
		run: func() error {
			if !sm2.VerifyASN1WithSM2(pub, nil, msg, sig) {
				return fmt.Errorf("verify failed")
			}
			return nil
		},
	}
	ops["verify-digest"] = &op{
		setup: ops["sign-digest"].setup,
		run: func() error {
			if !sm2.VerifyASN1(pub, digest[:], sigDigest) {
				return fmt.Errorf("verify failed")
			}
			return nil
		},
	}
	for _, n := range []int{32, 4096, 1048576} {
		n := n
		encSetup := func() error {
			p := make([]byte, n)
			if _, err := rand.Read(p); err != nil {
				return err
			}
			ct, err := sm2.Encrypt(rand.Reader, pub, p, nil) // C1C3C2, uncompressed C1
			if err != nil {
				return err
			}
			back, err := sm2.Decrypt(priv, ct)
			if err != nil || !bytes.Equal(back, p) {
				return fmt.Errorf("ciphertext does not decrypt to its plaintext")
			}
			plains[n], cts[n] = p, ct
			return nil
		}
		per := 0
		if n == 1048576 {
			per = n
		}
		ops[fmt.Sprintf("encrypt-%d", n)] = &op{bytes: per, setup: encSetup, run: func() error {
			_, err := sm2.Encrypt(rand.Reader, pub, plains[n], nil)
			return err
		}}
		ops[fmt.Sprintf("decrypt-%d", n)] = &op{bytes: per, setup: encSetup, run: func() error {
			_, err := sm2.Decrypt(priv, cts[n])
			return err
		}}
	}

	addSM4(ops)

	var results []result
	for _, name := range strings.Split(*opsFlag, ",") {
		o, ok := ops[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "gmsm-speed: unknown operation %q (known: %s)\n", name, allOps)
			os.Exit(2)
		}
		if o.setup != nil {
			if err := o.setup(); err != nil {
				fail("%s: %v", name, err)
			}
		}
		best := 0.0
		for r := 0; r < *rounds; r++ {
			calls := 0
			start := time.Now()
			deadline := start.Add(time.Duration(*seconds * float64(time.Second)))
			for time.Now().Before(deadline) {
				if err := o.run(); err != nil {
					fail("%s: %v", name, err)
				}
				calls++
			}
			rate := float64(calls) / time.Since(start).Seconds()
			if rate > best {
				best = rate
			}
		}
		res := result{Impl: "gmsm", Op: name, Value: best, Unit: "ops/s"}
		if o.bytes > 0 {
			res.Value, res.Unit = best*float64(o.bytes)/1e6, "MB/s"
		}
		results = append(results, res)
	}
	if *asJSON {
		out, _ := json.MarshalIndent(map[string]interface{}{"impl": "gmsm", "version": gmsmVersion(), "go": runtime.Version(), "results": results}, "", "  ")
		fmt.Println(string(out))
		return
	}
	for _, r := range results {
		fmt.Printf("%-18s %12.1f %s\n", r.Op, r.Value, r.Unit)
	}
}

// gmsmVersion is the gmsm module version this binary was built with.
func gmsmVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/emmansun/gmsm" {
				return d.Version
			}
		}
	}
	return "unknown"
}

// addSM4 adds the SM4 operations, sm4-MODE-SIZE as `fastsm2 speed --sm4`
// names them: each encrypts (or decrypts) SIZE bytes with a fixed key,
// IV and 13 bytes of AAD, after a check that it opens again (and, once,
// that gmsm's GCM gives RFC 8998's example).
func addSM4(ops map[string]*op) {
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(7*i + 1)
	}
	iv := make([]byte, 16)
	for i := range iv {
		iv[i] = byte(3*i + 5)
	}
	aad := make([]byte, 13)
	for i := range aad {
		aad[i] = byte(i)
	}
	block, err := sm4.NewCipher(key[:16])
	if err != nil {
		fail("sm4: %v", err)
	}
	// gmsm's own GCM: the block's NewGCM, which crypto/cipher.NewGCM calls
	type gcmAble interface {
		NewGCM(nonceSize, tagSize int) (stdcipher.AEAD, error)
	}
	newGCM := func() stdcipher.AEAD {
		if g, ok := block.(gcmAble); ok {
			a, err := g.NewGCM(12, 16)
			if err != nil {
				fail("sm4 gcm: %v", err)
			}
			return a
		}
		a, err := stdcipher.NewGCM(block)
		if err != nil {
			fail("sm4 gcm: %v", err)
		}
		return a
	}
	gcm := newGCM()
	ccm, err := gmcipher.NewCCMWithNonceAndTagSize(block, 12, 16)
	if err != nil {
		fail("sm4 ccm: %v", err)
	}
	checkGCM := func() error { // RFC 8998 A.1
		k, _ := hex.DecodeString("0123456789ABCDEFFEDCBA9876543210")
		n, _ := hex.DecodeString("00001234567800000000ABCD")
		a, _ := hex.DecodeString("FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2")
		p, _ := hex.DecodeString("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD" +
			"EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA")
		b, _ := sm4.NewCipher(k)
		g, _ := stdcipher.NewGCM(b)
		if hex.EncodeToString(g.Seal(nil, n, p, a)[64:]) != "83de3541e4c2b58177e065a9bf7b62ec" {
			return fmt.Errorf("gmsm's SM4-GCM does not give RFC 8998's tag")
		}
		return nil
	}
	for _, n := range []int{64, 1024, 16384} {
		n := n
		pt := make([]byte, n)
		for i := range pt {
			pt[i] = byte(i*131 + 17)
		}
		out := make([]byte, n+16)
		back := make([]byte, n+16)
		sealed := gcm.Seal(nil, iv[:12], pt, aad)
		roundTrip := func(enc, dec func(dst, src []byte)) error {
			enc(out[:n], pt)
			dec(back[:n], out[:n])
			if !bytes.Equal(back[:n], pt) {
				return fmt.Errorf("does not decrypt to its plaintext")
			}
			return nil
		}
		ecbEnc, ecbDec := gmcipher.NewECBEncrypter(block), gmcipher.NewECBDecrypter(block)
		ops[fmt.Sprintf("sm4-ecb-%d", n)] = &op{bytes: n,
			setup: func() error { return roundTrip(ecbEnc.CryptBlocks, ecbDec.CryptBlocks) },
			run:   func() error { ecbEnc.CryptBlocks(out[:n], pt); return nil }}
		ops[fmt.Sprintf("sm4-cbc-enc-%d", n)] = &op{bytes: n,
			setup: func() error {
				return roundTrip(stdcipher.NewCBCEncrypter(block, iv).CryptBlocks, stdcipher.NewCBCDecrypter(block, iv).CryptBlocks)
			},
			run: func() error { stdcipher.NewCBCEncrypter(block, iv).CryptBlocks(out[:n], pt); return nil }}
		ops[fmt.Sprintf("sm4-cbc-dec-%d", n)] = &op{bytes: n,
			setup: ops[fmt.Sprintf("sm4-cbc-enc-%d", n)].setup,
			run:   func() error { stdcipher.NewCBCDecrypter(block, iv).CryptBlocks(back[:n], out[:n]); return nil }}
		ops[fmt.Sprintf("sm4-ctr-%d", n)] = &op{bytes: n,
			setup: func() error {
				return roundTrip(stdcipher.NewCTR(block, iv).XORKeyStream, stdcipher.NewCTR(block, iv).XORKeyStream)
			},
			run: func() error { stdcipher.NewCTR(block, iv).XORKeyStream(out[:n], pt); return nil }}
		ops[fmt.Sprintf("sm4-gcm-enc-%d", n)] = &op{bytes: n,
			setup: func() error {
				if err := checkGCM(); err != nil {
					return err
				}
				p, err := gcm.Open(nil, iv[:12], sealed, aad)
				if err != nil || !bytes.Equal(p, pt) {
					return fmt.Errorf("does not open")
				}
				return nil
			},
			run: func() error { gcm.Seal(out[:0], iv[:12], pt, aad); return nil }}
		ops[fmt.Sprintf("sm4-gcm-dec-%d", n)] = &op{bytes: n,
			setup: ops[fmt.Sprintf("sm4-gcm-enc-%d", n)].setup,
			run:   func() error { _, err := gcm.Open(back[:0], iv[:12], sealed, aad); return err }}
		ops[fmt.Sprintf("sm4-ccm-%d", n)] = &op{bytes: n,
			setup: func() error {
				c := ccm.Seal(nil, iv[:12], pt, aad)
				p, err := ccm.Open(nil, iv[:12], c, aad)
				if err != nil || !bytes.Equal(p, pt) {
					return fmt.Errorf("does not open")
				}
				return nil
			},
			run: func() error { ccm.Seal(out[:0], iv[:12], pt, aad); return nil }}
		ops[fmt.Sprintf("sm4-xts-%d", n)] = &op{bytes: n,
			setup: func() error {
				e, err := gmcipher.NewGBXTSEncrypter(sm4.NewCipher, key[:16], key[16:], iv)
				if err != nil {
					return err
				}
				d, err := gmcipher.NewGBXTSDecrypter(sm4.NewCipher, key[:16], key[16:], iv)
				if err != nil {
					return err
				}
				return roundTrip(e.CryptBlocks, d.CryptBlocks)
			},
			run: func() error {
				// one data unit a call, as fastsm2's xts row: the tweak
				// starts again (its key schedules are part of gmsm's call)
				e, err := gmcipher.NewGBXTSEncrypter(sm4.NewCipher, key[:16], key[16:], iv)
				if err != nil {
					return err
				}
				e.CryptBlocks(out[:n], pt)
				return nil
			}}
	}
}
