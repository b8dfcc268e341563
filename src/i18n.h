/* Translated messages: GNU md5sum 9.1's words from GNU coreutils' catalogues.
 *
 * Every message GNU md5sum 9.1 translates is looked up in the text domain
 * "coreutils" under its English text, the message id, so the catalogues
 * installed for GNU coreutils give ours the same words in the same charset.
 * The ids must therefore stay 9.1's byte for byte (PRIuMAX forms included).
 * The d- forms leave the program's default text domain alone.
 *
 * make NLS=0 (MD5SUM_NLS defined as 0) builds without the C library's
 * gettext: no <libintl.h>, no calls, every message its English id. */
#ifndef MD5SUM_I18N_H
#define MD5SUM_I18N_H

#include <limits.h>
#include <stdint.h>

#ifndef MD5SUM_NLS
# define MD5SUM_NLS 1
#endif

/* GNU's select_plural: a count too large for gettext's unsigned long keeps
 * its last six digits, moved away from 0 and 1, for the plural rules. */
static inline unsigned long plural_count(uintmax_t n)
{
    return n <= ULONG_MAX ? (unsigned long)n : (unsigned long)(n % 1000000 + 1000000);
}

#if MD5SUM_NLS
# include <libintl.h>
# ifndef LOCALEDIR
#  define LOCALEDIR "/usr/share/locale"
# endif
# define TEXT_DOMAIN "coreutils"
/* tr: the translation of MSGID; trn: of ONE or MANY as the language's plural
 * rules say for the count N (reduced as GNU does). */
# define tr(msgid) dgettext(TEXT_DOMAIN, msgid)
# define trn(one, many, n) dngettext(TEXT_DOMAIN, one, many, plural_count(n))
/* Where the catalogues are: call once, after setlocale. */
# define i18n_bind() ((void)bindtextdomain(TEXT_DOMAIN, LOCALEDIR))
#else
# define tr(msgid) (msgid)
# define trn(one, many, n) (plural_count(n) == 1 ? (one) : (many))
# define i18n_bind() ((void)0)
#endif

/* setlocale(LC_ALL, "") for what md5sum uses, and the catalogues bound:
 * first thing in main. */
void i18n_start(void);

#endif
