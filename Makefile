# md5sum: a drop-in GNU md5sum with a fast MD5 core.  See README.md.
#
#   make                    build build/md5sum
#   make check              build and run every test layer (tests/run/check.sh)
#   make IMPL=portable      force the portable C core on every target
#   make NLS=0              no translated messages (no gettext from the C library)
#   make LOCALEDIR=DIR      where GNU coreutils' catalogues are (/usr/share/locale)
#   make B=DIR CC=...       build out of tree (cross builds use this)
#   make install / uninstall  (PREFIX, BINDIR, MANDIR, DESTDIR)
#   make bench              performance figures (scripts/bench.sh; not a test)
#   make check SANITIZE=1   the native leg with ASan and UBSan (built in build-san)
#   make fuzz FUZZ_SECONDS=N  build the libFuzzer targets, run each N seconds
#   make check-valgrind     the CLI tests with every md5sum run under valgrind
#   make lint               cppcheck and clang-tidy (scripts/lint.sh)

CFLAGS ?= -O2
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INSTALL ?= install
# GNU md5sum's translations come from GNU coreutils' own catalogues (text
# domain "coreutils"), wherever that package installed them; see src/i18n.h.
NLS ?= 1
LOCALEDIR ?= /usr/share/locale
# SANITIZE=1: AddressSanitizer and UndefinedBehaviorSanitizer in every C object
# and link (the x86 lane kernels: ASan only, below), in a tree of its own (make
# does not rebuild objects for new flags).
# make check then runs the native leg on that build; the build checks and the
# cross legs stay plain (see tests/run/check.sh).
# SANITIZE=thread: ThreadSanitizer, in build-tsan (the tsan leg of check).
# SANITIZE=fuzzer, set by tests/run/fuzz.sh: the same plus libFuzzer coverage.
SAN_COMMON = -fno-omit-frame-pointer -fno-sanitize-recover=all
ifeq ($(SANITIZE),1)
B ?= build-san
SAN_FLAGS = -fsanitize=address,undefined $(SAN_COMMON)
endif
ifeq ($(SANITIZE),thread)
B ?= build-tsan
SAN_FLAGS = -fsanitize=thread $(SAN_COMMON)
endif
ifeq ($(SANITIZE),fuzzer)
SAN_FLAGS = -fsanitize=fuzzer-no-link,address,undefined $(SAN_COMMON)
endif
B ?= build
# The x86 lane kernels under ASan and UBSan together took clang 14 90-200 s
# to compile (mb_avx512.c; 12 s with ASan alone, 2 s with neither), twice in
# CI: they keep ASan, and the portable core they are tested against keeps
# both.
ifneq ($(filter 1 fuzzer,$(SANITIZE)),)
$(B)/compress/mb_avx512.o $(B)/compress/mb_avx2.o: SAN_FLAGS += -fno-sanitize=undefined
endif

WARN = -Wall -Wextra -Wpedantic -Wshadow -Wmissing-prototypes -Wstrict-prototypes
ifeq ($(IMPL),portable)
IMPL_CPPFLAGS = -DMD5_PORTABLE_ONLY
endif
ifeq ($(NLS),0)
NLS_CPPFLAGS = -DMD5SUM_NLS=0
else
NLS_CPPFLAGS = -DLOCALEDIR='"$(LOCALEDIR)"'
endif
# Each object's header dependencies, written by the compiler beside it
# ($(B)/x.d for $(B)/x.o; -MP: a header since deleted is no error).
DEP_FLAGS = -MMD -MP
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 $(IMPL_CPPFLAGS) $(NLS_CPPFLAGS) \
	$(DEP_FLAGS) $(CPPFLAGS)
ALL_CFLAGS = -std=c99 -pthread $(WARN) $(SAN_FLAGS) $(CFLAGS)

CORE_OBJ = $(B)/md5.o $(B)/compress/md5_portable.o $(B)/compress/md5_aarch64.o $(MB_OBJ)
# Multi-buffer lane kernels: all built on every target (see src/compress/mb.h).
MB_OBJ = $(B)/compress/mb_dispatch.o $(B)/compress/mb_scalar.o $(B)/compress/mb_avx2.o \
	$(B)/compress/mb_avx512.o $(B)/compress/mb_neon.o
CLI_OBJ = $(B)/main.o $(B)/operands.o $(B)/hash.o $(B)/check.o $(B)/checkline.o $(B)/lines.o $(B)/input.o \
          $(B)/codec.o $(B)/format.o $(B)/quote.o $(B)/output.o $(B)/fdio.o $(B)/fdview.o $(B)/i18n.o $(B)/diag.o $(B)/xalloc.o $(B)/lowmem.o \
          $(B)/progress.o $(B)/before_write.o $(ENGINE_OBJ)
# The engine: jobs in order, the reading stage and the hashers, their buffers, lanes, threads.
ENGINE_OBJ = $(B)/engine.o $(B)/flow.o $(B)/hasher.o $(B)/source.o $(B)/stream.o $(B)/lanes.o \
          $(B)/threads.o $(B)/cgroup.o
TEST_OBJ = $(B)/tests/md5test.o $(B)/tests/testlib.o $(B)/tests/backends.o $(B)/tests/mb_tests.o \
           $(B)/tests/lanes_tests.o $(B)/lanes.o $(B)/tests/hasher_tests.o $(B)/hasher.o \
           $(B)/tests/cgroup_tests.o $(B)/cgroup.o $(B)/fdio.o
# The AArch64 ABI probe: no-ops on other targets.
TEST_OBJ += $(B)/tests/abi.o $(B)/tests/abi_aarch64.o
# The flow with the real one (md5test's hasher tests make their own up).
FLOW_TEST_OBJ = $(B)/tests/flowtest.o $(B)/tests/testlib.o $(B)/flow.o

# Integer widths matter in the core: warn on every implicit narrowing there.
$(CORE_OBJ): WARN += -Wconversion

.PHONY: all check bench clean install uninstall lint-man fuzz fuzz-build fuzz-gnu check-valgrind lint
all: $(B)/md5sum

$(B)/md5sum: $(CLI_OBJ) $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(CORE_OBJ) $(LDLIBS)

$(B)/md5test: $(TEST_OBJ) $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(CORE_OBJ) $(LDLIBS)

$(B)/flowtest: $(FLOW_TEST_OBJ) $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(FLOW_TEST_OBJ) $(CORE_OBJ) $(LDLIBS)

$(B)/%.o: src/%.c $(B)/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/%.o: src/%.S $(B)/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ASFLAGS) $(CFLAGS) -c -o $@ $<

# Tests also use MAP_ANONYMOUS, which POSIX 2008 lacks.
$(B)/tests/%.o: tests/core/%.c $(B)/tests/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -D_DEFAULT_SOURCE $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/%.o: tests/core/%.S $(B)/tests/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ASFLAGS) $(CFLAGS) -c -o $@ $<

# A measurement of the lane kernels, never part of check.  bench/clock.c is
# the calibration every in-process bench shares (scripts/bench.sh builds
# blockbench).
MB_BENCH_OBJ = $(B)/bench/mb_bench.o $(B)/bench/clock.o
$(B)/mb_bench: $(MB_BENCH_OBJ) $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MB_BENCH_OBJ) $(CORE_OBJ) $(LDLIBS)

$(B)/bench/%.o: bench/%.c $(B)/bench/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# Reference code (tests/ref), independent of src/: the fuzzers' oracle.
$(B)/ref/%.o: tests/ref/%.c $(B)/ref/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

check: $(B)/md5sum $(B)/md5test $(B)/flowtest $(B)/fault_preload.so $(B)/evict
	B=$(B) MAKE="$(MAKE)" IMPL=$(IMPL) SANITIZE=$(SANITIZE) tests/run/check.sh

# libFuzzer targets (tests/fuzz): everything but main.c, plus the textbook
# block function (tests/ref) as an independent oracle.  tests/run/fuzz.sh
# builds them with SANITIZE=fuzzer in build-fuzz and runs them.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = checkline escape quote split
FUZZ_BIN = $(FUZZ_TARGETS:%=$(B)/fuzz/%)
FUZZ_LIB = $(filter-out $(B)/main.o,$(CLI_OBJ)) $(CORE_OBJ) $(B)/ref/md5_rfc1321.o

fuzz-build: $(FUZZ_BIN)

$(FUZZ_BIN): $(B)/fuzz/%: $(B)/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/fuzz/%.o: tests/fuzz/%.c $(B)/fuzz/%.d
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

fuzz:
	MAKE="$(MAKE)" FUZZ_CC="$(FUZZ_CC)" FUZZ_SECONDS="$(FUZZ_SECONDS)" \
		tests/run/fuzz.sh $(FUZZ_TARGETS)

# Random cases against GNU md5sum, output compared byte for byte (a minute
# a few hundred; FUZZ_SEED repeats a run).
FUZZ_CASES = 500
fuzz-gnu: $(B)/md5sum $(B)/evict
	MD5SUM=$(B)/md5sum tests/run/difffuzz.sh $(FUZZ_CASES) $(FUZZ_SEED)

# The CLI and conformance suites with every run of md5sum under valgrind
# memcheck, full leak check (minutes; not part of check).
check-valgrind: $(B)/md5sum
	B=$(B) tests/run/check-valgrind.sh

# A measurement, not a test: it builds its own binaries into $(B)/bench.
bench:
	B=$(B) CFLAGS="$(CFLAGS)" scripts/bench.sh $(BENCH)

lint-man:
	mandoc -Tlint -W warning man/md5sum.1

# Static analysis: cppcheck and clang-tidy, suppressions with reasons in
# scripts/lint/cppcheck.supp, .clang-tidy and scripts/lint.sh.
lint:
	scripts/lint.sh

install: $(B)/md5sum
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 $(B)/md5sum $(DESTDIR)$(BINDIR)/md5sum
	$(INSTALL) -m 644 man/md5sum.1 $(DESTDIR)$(MANDIR)/man1/md5sum.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/md5sum $(DESTDIR)$(MANDIR)/man1/md5sum.1

clean:
	rm -rf build build-*

# The header dependencies of every object family (a new object list goes
# here too): src/ and src/compress/, tests/core, bench, tests/ref and the
# fuzz targets.  Each object also depends on its .d, which no rule makes
# (the compiler writes it): an object built before dependencies were
# generated has none, and is rebuilt once.
DEP = $(patsubst %.o,%.d,$(sort $(CLI_OBJ) $(CORE_OBJ) $(TEST_OBJ) $(FLOW_TEST_OBJ) $(MB_BENCH_OBJ) $(FUZZ_LIB) \
	$(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%.o)))
$(DEP):
-include $(wildcard $(DEP))

# Fault injection for tests/cli/resize.bats and faults.bats (native builds only).
$(B)/fault_preload.so: tests/fault/fault_preload.c
	$(CC) -shared -fPIC -pthread $(CFLAGS) -o $@ $< -ldl

# Files out of the page cache, many in one process (tests/cli/mechanisms.bats,
# faults.bats; built for the tsan leg too).
$(B)/evict: tests/fault/evict.c
	$(CC) $(CFLAGS) -o $@ $<
