/* md5sum: options, their validation in GNU's order, mode dispatch, exit status. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compress/mb.h"
#include "diag.h"
#include "engine.h"
#include "fdview.h"
#include "hash.h"
#include "i18n.h"
#include "input.h"
#include "md5.h"
#include "operands.h"
#include "output.h"
#include "quote.h"
#include "progress.h"

#define VERSION "1.0.0"

enum {
    OPT_IGNORE_MISSING = 256,
    OPT_STATUS,
    OPT_QUIET,
    OPT_STRICT,
    OPT_TAG,
    OPT_HELP,
    OPT_VERSION,
    OPT_FILES0_FROM,
    OPT_PROGRESS
};


/* The order is GNU's: getopt lists ambiguous candidates in table order. */
static const struct option long_options[] = {
    {"check", no_argument, NULL, 'c'},
    {"ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"status", no_argument, NULL, OPT_STATUS},
    {"warn", no_argument, NULL, 'w'},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"tag", no_argument, NULL, OPT_TAG},
    {"zero", no_argument, NULL, 'z'},
    {"binary", no_argument, NULL, 'b'},
    {"text", no_argument, NULL, 't'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    /* Ours, after GNU's: no abbreviation of theirs changes meaning. */
    {"jobs", required_argument, NULL, 'j'},
    {"files0-from", required_argument, NULL, OPT_FILES0_FROM},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {NULL, 0, NULL, 0},
};

/* Write TEXT and exit like GNU: status 0, or 1 with "write error" if stdout
 * could not take it. */
static void print_and_exit(const char *text)
{
    out_str(text);
    if (out_close() != 0) {
        diag(errno, "%s", tr("write error"));
        exit(EXIT_FAILURE);
    }
    exit(EXIT_SUCCESS);
}

static void help(void)
{
    out_str("Usage: ");
    out_str(program_name);
    print_and_exit(
        " [OPTION]... [FILE]...\n"
        "Print or verify MD5 (128-bit) checksums.\n"
        "\n"
        "With no FILE, or when FILE is -, read standard input.\n"
        "  -b, --binary          mark lines with '*' (binary mode)\n"
        "  -c, --check           read checksum lists from the FILEs and verify them\n"
        "      --tag             print BSD-style lines: MD5 (FILE) = CHECKSUM\n"
        "  -t, --text            mark lines with ' ' (text mode, the default)\n"
        "  -z, --zero            end each output line with NUL, not newline,\n"
        "                          and write file names unescaped\n"
        "\n"
        "Only meaningful with --check:\n"
        "      --ignore-missing  skip listed files that do not exist\n"
        "      --quiet           print nothing for files that verify\n"
        "      --status          print nothing on standard output; the exit status tells\n"
        "      --strict          fail if any checksum line is improperly formatted\n"
        "  -w, --warn            warn about each improperly formatted checksum line\n"
        "\n"
        "Not in GNU md5sum:\n"
        "  -j, --jobs=N          hash on N threads (default: one per CPU available)\n"
        "      --files0-from=F   read the FILEs from F, each ended by a NUL byte (as\n"
        "                          find -print0 writes them); if F is -, from stdin\n"
        "      --progress        show progress on standard error when it is a terminal\n"
        "\n"
        "      --help            show this help and exit\n"
        "      --version         show the version and the MD5 core, and exit\n"
        "\n"
        "Checksums are MD5 as defined in RFC 1321.  A line holds the checksum, a\n"
        "space, a mode character ('*' binary, ' ' text) and the file name; both\n"
        "modes read files the same way on POSIX systems.  A name holding a\n"
        "backslash, newline or carriage return is escaped (\\\\, \\n, \\r) and its\n"
        "line starts with a backslash.  --check reads such lines back, and BSD\n"
        "'MD5 (FILE) = CHECKSUM' lines.\n"
        "\n"
        "Exit status: 0 if everything succeeded, 1 otherwise.\n");
}

static void version(void)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels();
    char lanes[256] = "";
    static char text[1024];

    /* The lane kernels this CPU runs, widest first (scalar is always last). */
    for (; k[1]; k++) {
        strncat(lanes, lanes[0] ? ", " : "", sizeof lanes - strlen(lanes) - 1);
        strncat(lanes, (*k)->name, sizeof lanes - strlen(lanes) - 1);
    }
    snprintf(text, sizeof text,
             "md5sum (md5sum-fast) " VERSION "\n"
             "MD5 core: %s\n"
             "Many-file lane kernels: %s\n"
             "Compatible with GNU coreutils md5sum 9.1.\n"
             "Copyright (C) 2026 the md5sum-fast authors.  License: MIT.\n"
             "This is free software: you are free to change and redistribute it.\n"
             "There is NO WARRANTY, to the extent permitted by law.\n",
             md5_core_name(), lanes[0] ? lanes : "none (the MD5 core alone)");
    print_and_exit(text);
}

static void usage_error(const char *msg)
{
    diag(0, "%s", msg);
    try_help_and_exit();
}

/* GNU wc's refusal of operands given with --files0-from, in its words. */
static void extra_operand(const char *operand)
{
    char *q = quote_name_always(operand);

    diag(0, tr("extra operand %s"), q);
    free(q);
    diag_plain(tr("file operands cannot be combined with --files0-from"));
    try_help_and_exit();
}

/* -j N: a number of threads, 1 to ENGINE_MAX_JOBS. */
static unsigned parse_jobs(const char *arg)
{
    char *end;
    unsigned long n;

    errno = 0;
    n = strtoul(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 || n < 1 || n > ENGINE_MAX_JOBS) {
        diag(0, "invalid number of jobs: '%s' (1 to %d)", arg, ENGINE_MAX_JOBS);
        try_help_and_exit();
    }
    return (unsigned)n;
}

/* Verify each operand as a checksum list with COPTS, or, with COPTS NULL,
 * hash it and print its line in STYLE.  Returns 1 if all went well. */
static int run(struct operands *ops, const struct check_opts *copts,
               const struct line_style *style)
{
    const char *name;
    int ok = 1;

    if (!copts)
        hash_begin(style);
    while ((name = operands_next(ops)) != NULL) {
        if (copts)
            ok &= check_list(name, copts);
        else
            hash_operand(name);
    }
    if (!copts)
        ok &= hash_end();
    return operands_end(ops) && ok;
}

int main(int argc, char **argv)
{
    struct line_style style_ = {0, 0, '\n'}, *style = &style_;
    struct check_opts copts = {0, 0, 0, 0, 0};
    struct operands ops;
    const char *files0_from = NULL;
    int binary = -1, tag = 0, check = 0, progress = 0, ok = 1, opt;
    /* Under POSIXLY_CORRECT options end at the first operand: glibc's
     * getopt_long sees to it itself, musl's only when told by the "+". */
    static const char short_options[] = "+bcj:twz";
    const char *shorts = short_options + !getenv("POSIXLY_CORRECT");

    fdview_init();
    set_program_name(argv[0]);
    i18n_start();
    diag_load_messages();
    input_hold_stdin();
    out_hold_stdout();
    diag_hold_stderr();

    /* Acted on in command-line order, as GNU does: --help or --version wins
     * over anything after it, an invalid option before it wins over it. */
    while ((opt = getopt_long(argc, argv, shorts, long_options, NULL)) != -1) {
        switch (opt) {
        case 'b': binary = 1; break;
        case 't': binary = 0; break;
        case 'c': check = 1; break;
        case 'z': style->eol = '\0'; break;
        case 'j': engine_set_jobs(parse_jobs(optarg)); break;
        case OPT_PROGRESS: progress = 1; break;
        case OPT_TAG: tag = 1; binary = 1; break;
        /* --status, --warn and --quiet: the last one wins. */
        case OPT_STATUS: copts.status_only = 1; copts.warn = 0; copts.quiet = 0; break;
        case 'w': copts.status_only = 0; copts.warn = 1; copts.quiet = 0; break;
        case OPT_QUIET: copts.status_only = 0; copts.warn = 0; copts.quiet = 1; break;
        case OPT_STRICT: copts.strict = 1; break;
        case OPT_IGNORE_MISSING: copts.ignore_missing = 1; break;
        case OPT_HELP: help(); break;
        case OPT_VERSION: version(); break;
        case OPT_FILES0_FROM: files0_from = optarg; break;
        default: try_help_and_exit();
        }
    }

    /* GNU 9.1's checks, in its order. */
    if (tag && binary == 0)
        usage_error(tr("--tag does not support --text mode"));
    if (style->eol != '\n' && check)
        usage_error(tr("the --zero option is not supported when verifying checksums"));
    if (tag && check)
        usage_error(tr("the --tag option is meaningless when verifying checksums"));
    if (binary >= 0 && check)
        usage_error(
            tr("the --binary and --text options are meaningless when verifying checksums"));
    if (copts.ignore_missing && !check)
        usage_error(tr("the --ignore-missing option is meaningful only when verifying checksums"));
    if (copts.status_only && !check)
        usage_error(tr("the --status option is meaningful only when verifying checksums"));
    if (copts.warn && !check)
        usage_error(tr("the --warn option is meaningful only when verifying checksums"));
    if (copts.quiet && !check)
        usage_error(tr("the --quiet option is meaningful only when verifying checksums"));
    if (copts.strict && !check)
        usage_error(tr("the --strict option is meaningful only when verifying checksums"));

    /* Then wc's, as du also checks its options first. */
    if (files0_from && optind < argc)
        extra_operand(argv[optind]);

    style->tag = tag;
    style->binary = binary == 1;
    if (style->eol == '\0')
        out_records_nul();
    if (progress)
        progress_start();

    /* With -c each list is verified, and its lines out, before the next
     * name is read; hashing, the engine holds the names read so far. */
    if (files0_from)
        ok = operands_from_list(&ops, files0_from, check ? NULL : engine_wait) == 0;
    else
        operands_from_argv(&ops, argv + optind, argc - optind);
    if (ok)
        ok = run(&ops, check ? &copts : NULL, style);

    if (input_used_stdin() && input_close_stdin() != 0) {
        diag(errno, "%s", tr("standard input"));
        ok = 0;
    }
    if (out_close() != 0) {
        diag(errno, "%s", tr("write error"));
        ok = 0;
    }
    if (stderr_failed())
        ok = 0;
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
