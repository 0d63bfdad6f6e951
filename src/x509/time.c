/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Times in certificates (RFC 5280 4.1.2.5): UTCTime YYMMDDHHMMSSZ for 1950
 * to 2049, GeneralizedTime YYYYMMDDHHMMSSZ otherwise, always in UTC with
 * seconds and no fraction. Read strictly in that form; converted to and
 * from seconds since 1970 by the proleptic Gregorian calendar.
 */
#include <stdio.h>

#include "x509/x509.h"

/* Days from 1970-01-01 to y-mo-d (proleptic Gregorian): count whole
 * 400-year eras from year 0 shifted to start in March, so that the leap
 * day falls at the end of the year. */
static int64_t days_from_civil(int64_t y, unsigned mo, unsigned d)
{
    y -= mo <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                         /* 0..399 */
    unsigned mp = mo > 2 ? mo - 3 : mo + 9;              /* March = 0 */
    int64_t doy = (153 * (int64_t)mp + 2) / 5 + d - 1;   /* 0..365 */
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; /* 0..146096 */
    return era * 146097 + doe - 719468;                  /* 719468: days from 0000-03-01 to 1970-01-01 */
}

/* The inverse: the civil date of a day count. */
static void civil_from_days(int64_t z, int64_t *y, unsigned *mo, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *mo = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*mo <= 2);
}

int64_t fs2_time_from_civil(int64_t y, unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s)
{
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

static int digits(const unsigned char *p, size_t n, unsigned *v)
{
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        *v = *v * 10 + (p[i] - '0');
    }
    return 1;
}

static int leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int fs2_time_get(fs2_der_in *in, int64_t *t)
{
    fs2_der_in save = *in, b;
    unsigned tag, y, mo, d, h, mi, s;
    int64_t year;
    if (!fs2_der_get_any(in, &tag, &b))
        return 0;
    size_t yl = tag == 0x17u ? 2 : 4;
    if ((tag != 0x17u && tag != 0x18u) || b.n != yl + 11 || b.p[b.n - 1] != 'Z' || !digits(b.p, yl, &y) ||
        !digits(b.p + yl, 2, &mo) || !digits(b.p + yl + 2, 2, &d) || !digits(b.p + yl + 4, 2, &h) ||
        !digits(b.p + yl + 6, 2, &mi) || !digits(b.p + yl + 8, 2, &s))
        goto bad;
    year = yl == 2 ? (y >= 50 ? 1900 + y : 2000 + y) : y;
    static const unsigned mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap(year)) || h > 23 || mi > 59 || s > 59)
        goto bad;
    *t = fs2_time_from_civil(year, mo, d, h, mi, s);
    return 1;
bad:
    *in = save;
    return 0;
}

static void split(int64_t t, int64_t *y, unsigned *mo, unsigned *d, unsigned *h, unsigned *mi, unsigned *s)
{
    int64_t days = (t >= 0 ? t : t - 86399) / 86400, r = t - days * 86400;
    civil_from_days(days, y, mo, d);
    *h = (unsigned)(r / 3600);
    *mi = (unsigned)(r / 60 % 60);
    *s = (unsigned)(r % 60);
}

int fs2_time_put(fs2_dbuf *b, int64_t t)
{
    int64_t y;
    unsigned mo, d, h, mi, s;
    char text[24];
    if (t < FS2_TIME_MIN || t > FS2_TIME_MAX)
        return 0;
    split(t, &y, &mo, &d, &h, &mi, &s);
    if (y >= 1950 && y < 2050) {
        snprintf(text, sizeof text, "%02u%02u%02u%02u%02u%02uZ", (unsigned)(y % 100), mo, d, h, mi, s);
        fs2_dbuf_tlv(b, 0x17u, text, 13);
    } else {
        snprintf(text, sizeof text, "%04u%02u%02u%02u%02u%02uZ", (unsigned)y, mo, d, h, mi, s);
        fs2_dbuf_tlv(b, 0x18u, text, 15);
    }
    return 1;
}

void fs2_time_text(fs2_dbuf *b, int64_t t)
{
    int64_t y;
    unsigned mo, d, h, mi, s;
    char text[40];
    split(t, &y, &mo, &d, &h, &mi, &s);
    snprintf(text, sizeof text, "%04lld-%02u-%02u %02u:%02u:%02u UTC", (long long)y, mo, d, h, mi, s);
    fs2_dbuf_str(b, text);
}
