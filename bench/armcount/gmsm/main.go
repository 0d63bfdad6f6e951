// SPDX-License-Identifier: Apache-2.0

// Command gmsmcount runs one gmsm operation N times, for executed-instruction
// counts under qemu-aarch64 (bench/armcount/count.sh builds it with
// GOARCH=arm64, which uses gmsm's arm64 assembly):
//
//	gmsmcount OP N     OP: sign, verify, verify-fresh, kg, kp, sm3 (N 64-byte blocks)
//
// sign and verify use one key object throughout, already used once in the
// set-up (gmsm caches the key's internal form and (1 + d)^-1 by object):
// the steady state. verify-fresh makes a new public key object from its 65
// bytes for each verification (sm2.NewPublicKey, then VerifyASN1): a key
// seen for the first time.
//
// The instructions of one operation are (count(N) - count(0)) / N: every
// run does the same set-up (a fixed key, digest and scalar), so the
// difference is the N operations alone.
package main

import (
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"os"
	"strconv"

	"github.com/emmansun/gmsm/sm2"
	"github.com/emmansun/gmsm/sm3"
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
	buf := make([]byte, 64*n)
	var sink int
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
