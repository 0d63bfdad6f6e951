/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signatures of certificates and requests (GB/T 32918.2 clause 7.1 over
 * the DER of the signed part), and chains: RFC 5280 clause 6's basic path
 * validation, with the path built from the certificates given.
 */
#include <stdlib.h>
#include <time.h>

#include "x509/x509.h"

#include "keyfile/keyfile.h"

int fs2_x509_spki_key(fastsm2_pubkey *pub, const fs2_span *spki)
{
    return fs2_keyfile_parse_spki(pub, spki->p, spki->n);
}

void fs2_x509_key_id(unsigned char id[20], const fs2_span *spk)
{
    unsigned char h[32];
    fastsm2_sm3(h, spk->p, spk->n);
    memcpy(id, h, 20);
}

int fs2_x509_verify_bytes(const fs2_span *spki, const fs2_span *sig_alg, const fs2_span *sig, const unsigned char *msg,
                          size_t msglen, const void *id, size_t idlen)
{
    fastsm2_pubkey pub;
    unsigned char raw[64];
    int ret;

    if (sig_alg != NULL && !fs2_x509_alg_is_sm2(sig_alg, 1))
        return FASTSM2_ERR_ALGORITHM;
    if ((ret = fs2_x509_spki_key(&pub, spki)) != FASTSM2_OK)
        return ret == FASTSM2_ERR_KEY_FORMAT || ret == FASTSM2_ERR_CURVE ? FASTSM2_ERR_ALGORITHM : ret;
    /* a signature value that is no SM2 signature does not verify */
    if (fastsm2_sig_from_der(raw, sig->p, sig->n) != FASTSM2_OK)
        return FASTSM2_ERR_BAD_SIGNATURE;
    ret = fastsm2_verify_status(&pub, id, idlen, msg, msglen, raw);
    return ret == FASTSM2_ERR_SIG_RANGE ? FASTSM2_ERR_BAD_SIGNATURE : ret;
}

int fs2_x509_check_sig(const fs2_x509 *x, const fs2_span *spki, const void *id, size_t idlen)
{
    return fs2_x509_verify_bytes(spki, &x->sig_alg, &x->sig, x->tbs.p, x->tbs.n, id, idlen);
}

int fastsm2_x509_verify_request(const unsigned char *req, size_t reqlen, const void *id, size_t idlen)
{
    fs2_x509 x;
    unsigned char *buf;
    int ret = fs2_x509_load(&x, &buf, req, reqlen, FASTSM2_X509_REQUEST);
    if (ret == FASTSM2_OK)
        ret = fs2_x509_check_sig(&x, &x.spki, id, idlen);
    free(buf);
    return ret;
}

int fastsm2_x509_verify_signature(const unsigned char *cert, size_t certlen, const unsigned char *issuer,
                                  size_t issuerlen, const void *id, size_t idlen)
{
    fs2_x509 x, ix;
    unsigned char *buf, *ibuf = NULL;
    int ret = fs2_x509_load(&x, &buf, cert, certlen, FASTSM2_X509_CERTIFICATE);
    if (ret == FASTSM2_OK)
        ret = fs2_x509_load(&ix, &ibuf, issuer, issuerlen, FASTSM2_X509_CERTIFICATE);
    if (ret == FASTSM2_OK)
        ret = fs2_x509_check_sig(&x, &ix.spki, id, idlen);
    free(buf);
    free(ibuf);
    return ret;
}

void fastsm2_x509_verify_params_init(fastsm2_x509_verify_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->time = (int64_t)time(NULL);
    p->max_depth = 10;
}

/* ---- chains -------------------------------------------------------------- */

#define PATH_MAX_LEN  32
/* Candidates examined in one search at most: a bound on the work a bundle
 * of many certificates with one name can cause. */
#define SEARCH_BUDGET 2000

typedef struct {
    const fastsm2_x509_verify_params *p;
    const fs2_x509_set *untrusted, *trusted;
    const fs2_x509 *path[PATH_MAX_LEN];
    size_t max;
    unsigned budget;
    int first_err, first_depth; /* the first path's refusal */
} search;

static int trusted_has(const search *s, const fs2_x509 *x)
{
    for (size_t i = 0; i < s->trusted->n; i++)
        if (fs2_span_eq(&s->trusted->x[i].der, &x->der))
            return 1;
    return 0;
}

static int self_issued(const fs2_x509 *x)
{
    return fs2_span_eq(&x->issuer, &x->subject);
}

/* Whether cand can have issued x: names, and key identifiers where both
 * are present. */
static int may_issue(const fs2_x509 *cand, const fs2_x509 *x)
{
    if (!fs2_span_eq(&cand->subject, &x->issuer))
        return 0;
    if (x->akid.n != 0 && cand->skid.n != 0 && !fs2_span_eq(&x->akid, &cand->skid))
        return 0;
    return 1;
}

/* RFC 5280 6.1.3 and 6.1.4 on a complete path, leaf first, anchor last.
 * FASTSM2_OK or the reason, with *depth. */
static int check_path(const search *s, size_t n, int *depth)
{
    const fastsm2_x509_verify_params *p = s->p;
    for (size_t i = 0; i < n; i++) {
        const fs2_x509 *x = s->path[i];
        int ret;
        *depth = (int)i;
        /* the signature: by the next certificate's key; the anchor's own
         * when it is self-signed (a v1 or self-issued anchor's signature
         * by another key is not checked: its issuer is not here) */
        if (i + 1 < n)
            ret = fs2_x509_check_sig(x, &s->path[i + 1]->spki, p->id, p->idlen);
        else if (self_issued(x) && (x->akid.n == 0 || x->skid.n == 0 || fs2_span_eq(&x->akid, &x->skid)))
            ret = fs2_x509_check_sig(x, &x->spki, p->id, p->idlen);
        else
            ret = FASTSM2_OK;
        if (ret != FASTSM2_OK)
            return ret;
        if (!(p->flags & FASTSM2_X509_NO_TIME_CHECK)) {
            if (p->time < x->not_before)
                return FASTSM2_ERR_NOT_YET_VALID;
            if (p->time > x->not_after)
                return FASTSM2_ERR_EXPIRED;
        }
        if (x->unknown_critical)
            return FASTSM2_ERR_CRITICAL;
        if (i == 0) {
            if (x->has_ku && (x->ku & p->key_usage) != p->key_usage)
                return FASTSM2_ERR_KEY_USAGE;
            if (x->has_eku && p->ext_key_usage && !(x->eku & FASTSM2_EKU_ANY) &&
                (x->eku & p->ext_key_usage) != p->ext_key_usage)
                return FASTSM2_ERR_KEY_USAGE;
            continue;
        }
        /* an issuer: a CA (a version 1 anchor counts as one, RFC 5280
         * 6.1.4 (k) applies to the certificates below the anchor) */
        if (!(x->has_bc && x->ca) && !(i + 1 == n && x->version == 1))
            return FASTSM2_ERR_NOT_CA;
        if (x->has_ku && !(x->ku & FASTSM2_KU_KEY_CERT_SIGN))
            return FASTSM2_ERR_KEY_USAGE;
        if (x->has_bc && x->path_len >= 0) {
            /* CAs between this one and the leaf, self-issued ones not counted */
            int below = 0;
            for (size_t j = 1; j < i; j++)
                below += !self_issued(s->path[j]);
            if (below > x->path_len)
                return FASTSM2_ERR_PATH_LENGTH;
        }
    }
    *depth = 0;
    return FASTSM2_OK;
}

static void note(search *s, int err, int depth)
{
    if (s->first_err == FASTSM2_OK) {
        s->first_err = err;
        s->first_depth = depth;
    }
}

/* Extend the path of n certificates; FASTSM2_OK when one validates. */
static int extend(search *s, size_t n)
{
    const fs2_x509 *cur = s->path[n - 1];
    int depth, loop = 0, tried = 0;

    if (trusted_has(s, cur)) {
        int ret = check_path(s, n, &depth);
        if (ret != FASTSM2_OK)
            note(s, ret, depth);
        return ret;
    }
    if (n >= s->max) {
        note(s, FASTSM2_ERR_PATH_LENGTH, (int)n - 1);
        return FASTSM2_ERR_PATH_LENGTH;
    }
    for (int pass = 0; pass < 2; pass++) {
        const fs2_x509_set *set = pass == 0 ? s->trusted : s->untrusted;
        for (size_t i = 0; i < set->n; i++) {
            const fs2_x509 *c = &set->x[i];
            if (!may_issue(c, cur))
                continue;
            if (fs2_span_eq(&c->der, &cur->der)) /* self-signed: its own issuer, not trusted */
                continue;
            int seen = 0;
            for (size_t j = 0; j + 1 < n; j++)
                seen |= fs2_span_eq(&s->path[j]->der, &c->der);
            if (seen) {
                loop = 1;
                continue;
            }
            if (s->budget == 0)
                break;
            s->budget--;
            tried = 1;
            s->path[n] = c;
            if (extend(s, n + 1) == FASTSM2_OK)
                return FASTSM2_OK;
        }
    }
    if (!tried) {
        int err = loop ? FASTSM2_ERR_CHAIN_LOOP : FASTSM2_ERR_ISSUER;
        note(s, err, (int)n - 1);
        return err;
    }
    return FASTSM2_ERR_ISSUER;
}

int fastsm2_x509_verify_chain(int *depth, const unsigned char *cert, size_t certlen, const unsigned char *untrusted,
                              size_t untrustedlen, const unsigned char *trusted, size_t trustedlen,
                              const fastsm2_x509_verify_params *params)
{
    fastsm2_x509_verify_params defaults;
    fs2_x509_set u = {0, NULL, NULL}, t = {0, NULL, NULL};
    fs2_x509 leaf;
    unsigned char *buf = NULL;
    search s;
    int ret, d = -1;

    if (params == NULL) {
        fastsm2_x509_verify_params_init(&defaults);
        params = &defaults;
    }
    if (cert == NULL || trusted == NULL || (untrusted == NULL && untrustedlen != 0) ||
        params->max_depth > PATH_MAX_LEN || (params->id == NULL && params->idlen != 0)) {
        ret = FASTSM2_ERR_ARG;
        goto done;
    }
    if ((ret = fs2_x509_load(&leaf, &buf, cert, certlen, FASTSM2_X509_CERTIFICATE)) != FASTSM2_OK ||
        (ret = fs2_x509_set_load(&u, untrusted, untrustedlen)) != FASTSM2_OK ||
        (ret = fs2_x509_set_load(&t, trusted, trustedlen)) != FASTSM2_OK)
        goto done;
    if (t.n == 0) {
        ret = FASTSM2_ERR_ARG;
        goto done;
    }
    memset(&s, 0, sizeof s);
    s.p = params;
    s.untrusted = &u;
    s.trusted = &t;
    s.max = params->max_depth ? params->max_depth : 10;
    s.budget = SEARCH_BUDGET;
    s.first_err = FASTSM2_OK;
    s.path[0] = &leaf;
    ret = extend(&s, 1);
    if (ret == FASTSM2_OK) {
        d = 0;
    } else {
        ret = s.first_err != FASTSM2_OK ? s.first_err : ret;
        d = s.first_depth;
    }
done:
    if (depth != NULL)
        *depth = ret == FASTSM2_OK ? 0 : d;
    fs2_x509_set_free(&u);
    fs2_x509_set_free(&t);
    free(buf);
    return ret;
}
