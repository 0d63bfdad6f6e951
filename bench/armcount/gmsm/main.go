// SPDX-License-Identifier: Apache-2.0

// Command gmsmcount runs one gmsm operation N times, for executed-instruction
// counts under qemu-aarch64 (bench/armcount/count.sh builds it with
// GOARCH=arm64, which uses gmsm's arm64 assembly):
//
//	gmsmcount OP N     OP: sign, verify, verify-fresh, kg, kp, sm3 (N 64-byte blocks),
//	                   sm4-ctr, sm4-gcm (N 16-byte blocks)
//
// sign and verify use one key object throughout, already used once in the
// set-up (gmsm caches the key's internal form and (1 + d)^-1 by object):
// the steady state. verify-fresh makes a new public key object from its 65
// bytes for each verification (sm2.NewPublicKey, then VerifyASN1): a key
// seen for the first time.
//
// sm4-ctr and sm4-gcm encrypt N blocks in messages of 16 KiB (the last one
// shorter) with gmsm's SM4 through crypto/cipher's NewCTR and NewGCM, which
// hand over to gmsm's own CTR and GCM (its ctrAble and gcmAble methods: the
// SM4-instruction or AES-instruction assembly, with PMULL GHASH); GCM with a
// 12-byte nonce, no additional data, a 16-byte tag.
//
// The instructions of one operation are (count(N) - count(0)) / N: every
// run does the same set-up (a fixed key, digest and scalar), so the
// difference is the N operations alone.
package main

import (
	"crypto/cipher"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"os"
	"strconv"

	"github.com/emmansun/gmsm/sm2"
	"github.com/emmansun/gmsm/sm3"
	"github.com/emmansun/gmsm/sm4"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gmsmcount sign|verify|verify-fresh|kg|kp|sm3 N")
		os.Exit(2)
	}
	op := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "bad N")
		os.Exit(2)
	}
	dbytes := make([]byte, 32)
	for i := range dbytes {
		dbytes[i] = byte(0x11 + 7*i)
	}
	curve := sm2.P256()
	priv, err := sm2.NewPrivateKey(dbytes)
	if err != nil {
		panic(err)
	}
	pubBytes := elliptic.Marshal(curve, priv.X, priv.Y)
	digest := make([]byte, 32)
	for i := range digest {
		digest[i] = byte(0xa5 ^ i)
	}
	k := make([]byte, 32)
	for i := range k {
		k[i] = byte(0x3c + 5*i)
	}
	sig, err := sm2.SignASN1(rand.Reader, priv, digest, nil)
	if err != nil {
		panic(err)
	}
	if !sm2.VerifyASN1(&priv.PublicKey, digest, sig) {
		panic("verify failed")
	}
	var sink int
	if op == "sm4-ctr" || op == "sm4-gcm" {
		sink = runSM4(op, n)
		fmt.Println(op, n, sink)
		return
	}
	buf := make([]byte, 64*n)
	switch op {
	case "sign":
		for i := 0; i < n; i++ {
			s, err := sm2.SignASN1(rand.Reader, priv, digest, nil)
			if err != nil {
				panic(err)
			}
			sink += len(s)
		}
	case "verify":
		for i := 0; i < n; i++ {
			if !sm2.VerifyASN1(&priv.PublicKey, digest, sig) {
				panic("verify failed")
			}
		}
	case "verify-fresh":
		for i := 0; i < n; i++ {
			pub, err := sm2.NewPublicKey(pubBytes)
			if err != nil {
				panic(err)
			}
			if !sm2.VerifyASN1(pub, digest, sig) {
				panic("verify failed")
			}
		}
	case "kg":
		for i := 0; i < n; i++ {
			x, _ := curve.ScalarBaseMult(k)
			sink += int(x.Bit(0))
		}
	case "kp":
		px, py := priv.PublicKey.X, priv.PublicKey.Y
		for i := 0; i < n; i++ {
			x, _ := curve.ScalarMult(px, py, k)
			sink += int(x.Bit(0))
		}
	case "sm3":
		h := sm3.Sum(buf)
		sink += int(h[0])
	default:
		fmt.Fprintln(os.Stderr, "unknown op", op)
		os.Exit(2)
	}
	fmt.Println(op, n, sink)
}

// runSM4: N blocks of SM4-CTR or SM4-GCM in 16 KiB messages.
func runSM4(op string, n int) int {
	const msgLen = 16384
	key := make([]byte, 16)
	iv := make([]byte, 16)
	for i := range key {
		key[i] = byte(0x31 + 7*i)
		iv[i] = byte(0x90 ^ i)
	}
	msg := make([]byte, msgLen)
	for i := range msg {
		msg[i] = byte(i * 13)
	}
	ct := make([]byte, msgLen+16)
	block, err := sm4.NewCipher(key)
	if err != nil {
		panic(err)
	}
	var aead cipher.AEAD
	if op == "sm4-gcm" {
		if aead, err = cipher.NewGCM(block); err != nil {
			panic(err)
		}
	}
	for left := n; left > 0; {
		l := left * 16
		if l > msgLen {
			l = msgLen
		}
		if aead != nil {
			ct = aead.Seal(ct[:0], iv[:12], msg[:l], nil)
		} else {
			cipher.NewCTR(block, iv).XORKeyStream(ct[:l], msg[:l])
		}
		left -= l / 16
	}
	return int(ct[0] & 1)
}
