/* redact.c -- replace identifying strings in report text. */
#include "redact.h"

#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Length of the UUID at s (8-4-4-4-12 hex digits), or 0. */
static size_t uuid_at(const char *s)
{
    static const int groups[] = {8, 4, 4, 4, 12};
    size_t i = 0;
    for (int g = 0; g < 5; g++) {
        for (int k = 0; k < groups[g]; k++, i++)
            if (!isxdigit((unsigned char)s[i])) return 0;
        if (g < 4 && s[i++] != '-') return 0;
    }
    return isxdigit((unsigned char)s[i]) ? 0 : i;
}

static int word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Replaces every occurrence of needle in buf (in place, bounded). With
 * whole_word, only where it is not part of a longer name: a host called
 * "vm" must not turn "nvml" into "n<host>l". */
static void replace_all(char *buf, size_t size, const char *needle, const char *with,
                        int whole_word)
{
    size_t nlen = strlen(needle), wlen = strlen(with);
    if (nlen < 2) return; /* a one-letter name would shred the text */
    char *tmp = malloc(size);
    if (!tmp) return;
    size_t out = 0;
    for (const char *p = buf; *p && out + 1 < size;) {
        int match = !strncmp(p, needle, nlen);
        if (match && whole_word)
            match = (p == buf || !word_char(p[-1])) && !word_char(p[nlen]);
        if (match && out + wlen + 1 < size) {
            memcpy(tmp + out, with, wlen);
            out += wlen;
            p += nlen;
        } else {
            tmp[out++] = *p++;
        }
    }
    tmp[out] = '\0';
    memcpy(buf, tmp, out + 1);
    free(tmp);
}

static void replace_uuids(char *buf, size_t size)
{
    char *tmp = malloc(size);
    if (!tmp) return;
    size_t out = 0;
    for (size_t i = 0; buf[i] && out + 1 < size;) {
        size_t n = (i == 0 || !isxdigit((unsigned char)buf[i - 1])) ? uuid_at(buf + i) : 0;
        if (n && out + 7 < size) {
            memcpy(tmp + out, "<uuid>", 6);
            out += 6;
            i += n;
        } else {
            tmp[out++] = buf[i++];
        }
    }
    tmp[out] = '\0';
    memcpy(buf, tmp, out + 1);
    free(tmp);
}

void gpl_redact(const char *in, char *out, size_t size)
{
    if (!size) return;
    snprintf(out, size, "%s", in ? in : "");
    const char *home = getenv("HOME");
    if (home && strlen(home) > 1) replace_all(out, size, home, "~", 0);
    struct passwd *pw = getpwuid(getuid());
    if (pw && pw->pw_dir && strlen(pw->pw_dir) > 1) replace_all(out, size, pw->pw_dir, "~", 0);
    const char *user = getenv("USER");
    if (user) replace_all(out, size, user, "<user>", 1);
    if (pw && pw->pw_name) replace_all(out, size, pw->pw_name, "<user>", 1);
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = '\0';
        replace_all(out, size, host, "<host>", 1);
        char *dot = strchr(host, '.');
        if (dot) {
            *dot = '\0';
            replace_all(out, size, host, "<host>", 1);
        }
    }
    replace_uuids(out, size);
}
