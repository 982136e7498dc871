# interbench - Linux interactivity benchmark.  GNU make (4.2 or later: .SHELLSTATUS).
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/interbench
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONDIR ?= $(PREFIX)/share/zsh/site-functions
PKG_CONFIG ?= pkg-config
VERSION := 1.0.0

# Debian packages: what the build and the unit tests need (BUILD_PKGS: debian/control's
# Build-Depends, the one list of them, less debhelper, version constraints and build
# profiles), what the end-to-end tests use besides (TEST_PKGS; both removed by
# tests/fresh-machine.sh to prove `make deps` installs them), and the toolchain and the base
# tools the tests run (BASE_PKGS: git for tests/e2e_make.sh's throwaway repository, procps
# for pgrep; not removed there, as apt would take the machine's own tools with them).
BUILD_PKGS := $(shell awk '/^Build-Depends:/ { sub(/^Build-Depends:/, ""); on = 1 } \
	on && /^[^ \t]/ && !/^Build-Depends:/ { on = 0 } on' debian/control | tr ',' '\n' | \
	sed -e 's/(.*)//' -e 's/<[^>]*>//g' -e 's/\[[^]]*\]//g' -e 's/[[:space:]]//g' \
	-e '/^$$/d' -e '/^debhelper-compat$$/d')
TEST_PKGS  := rt-tests rt-app python3-jsonschema python3-yaml gnuplot-nox zsh
BASE_PKGS  := build-essential util-linux git procps
DEBIAN_PKGS := $(BASE_PKGS) $(BUILD_PKGS) $(TEST_PKGS)

# $(call pkg_config,ARGS): pkg-config's output; when pkg-config fails (a package missing, or
# pkg-config itself) make stops, below pkg-config's own message naming the package.
pkg_config = $(shell $(PKG_CONFIG) $(1))$(if $(filter 0,$(.SHELLSTATUS)),,$(error $(PKG_CONFIG) $(1) failed; 'make deps' installs the packages))
# Each is computed when a recipe first uses it (after `make deps` has run, in `make deps
# check`), then kept for the rest of the invocation.
PKGS = jansson libcap libbpf yajl
PKG_CFLAGS = $(eval PKG_CFLAGS := $(call pkg_config,--cflags $(PKGS)))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $(call pkg_config,--libs $(PKGS)))$(PKG_LIBS)
# Debian's libyajl-dev names its static archive libyajl_s.a, which -lyajl does not find.
PKG_STATIC_LIBS = $(eval PKG_STATIC_LIBS := $(patsubst -lyajl,-l:libyajl_s.a,$(call pkg_config,--static --libs $(PKGS))))$(PKG_STATIC_LIBS)
CHECK_CFLAGS = $(eval CHECK_CFLAGS := $(call pkg_config,--cflags check))$(CHECK_CFLAGS)
CHECK_LIBS = $(eval CHECK_LIBS := $(call pkg_config,--libs check))$(CHECK_LIBS)

# The version the binary reports: `git describe` of a checkout of this tree (a tag v1.2.3
# gives 1.2.3, else VERSION-g<commit>, -dirty with local changes), else the version `make dist`
# wrote into its tarball, else VERSION.  A tag name or .tarball-version may hold quotes, $, ( or
# #, and the version is a shell word in recipes and a C string: make stops unless it holds only
# [0-9A-Za-z.+~_-].  VERSION_CMD prints it, or '!' and it with every other character as '?';
# its output is assigned as it is (the $$ below), never read as makefile text.
VERSION_CMD = \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
	   d=$$(git describe --tags --always --dirty --match 'v[0-9]*' 2>/dev/null); then \
		case $$d in (v[0-9]*) v="$${d\#v}" ;; (*) v="$(VERSION)-g$$d" ;; esac; \
	elif [ -f .tarball-version ]; then v=$$(cat .tarball-version); \
	else v="$(VERSION)"; fi; \
	case $$v in ('' | *[!0-9A-Za-z.+~_-]*) printf '!'; printf '%s' "$$v" | tr -c '0-9A-Za-z.+~_-' '?' ;; \
	(*) printf '%s' "$$v" ;; esac
version_checked = $(if $(filter !%,$(1)),$(error version '$(patsubst !%,%,$(1))' refused (from git describe \
	or .tarball-version; accepted: the characters 0-9 A-Z a-z . + ~ _ -, '?' marks the others)),$(1))
FULL_VERSION = $(eval FULL_VERSION := $$(call version_checked,$$(shell $$(VERSION_CMD))))$(FULL_VERSION)

# $(call shell_quote,TEXT): TEXT as one single-quoted shell word, whatever it holds (spaces,
# quotes, $): DESTDIR and the install paths, ARGS.
shell_quote = '$(subst ','\'',$(1))'

CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra
ALL_CFLAGS = -std=gnu11 $(WARN) -pthread -I. -MMD -MP $(PKG_CFLAGS) $(CPPFLAGS) $(CFLAGS)
SYS_LIBS := -pthread -lrt -lm
LIBS     = $(PKG_LIBS) $(SYS_LIBS)

FOLDERS := lib host calibrate explain engine decide loadkit taskfile workloads run report tools
LIB_SRCS := $(sort $(foreach d,$(FOLDERS),$(wildcard $(d)/*.c)))
LIB_OBJS := $(LIB_SRCS:.c=.o)
TEST_SRCS := $(sort $(wildcard tests/check_*.c))
TEST_BINS := $(patsubst tests/%.c,tests/bin/%,$(TEST_SRCS))

.PHONY: all check unit e2e install uninstall clean deps run demo static lint kernel-matrix kernel-matrix-check bench dist FORCE
all: interbench

# With `make deps <targets>`, even under -j, nothing is built or linted before deps has run.
$(LIB_OBJS) explain/bpf/explain.bpf.o interbench.o $(TEST_BINS) lint: | $(filter deps,$(MAKECMDGOALS))

# Made afresh: ar r keeps the members of removed sources (a moved file's old object would
# define its functions twice).
libinterbench.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

interbench: interbench.o libinterbench.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ interbench.o libinterbench.a $(LIBS)

%.o: %.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The --explain tracer (explain/bpf/explain.bpf.c): compiled for BPF with clang (CO-RE: -g keeps
# the BTF its relocations need, llvm-strip then drops the DWARF), and embedded into
# explain/tracer.o through the skeleton bpftool generates from it.
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
BPFTOOL ?= bpftool
BPF_ARCH = $(eval BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/'))$(BPF_ARCH)
BPF_INCLUDE = $(eval BPF_INCLUDE := $(addprefix -idirafter ,$(shell $(CC) -print-multiarch | sed 's,^,/usr/include/,') /usr/include))$(BPF_INCLUDE)
explain/bpf/explain.bpf.o: explain/bpf/explain.bpf.c explain/bpf/kernel_types.h explain/abi.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -I. $(BPF_INCLUDE) -c -o $@ $<
	$(LLVM_STRIP) -g $@
explain/bpf/explain.skel.h: explain/bpf/explain.bpf.o
	$(BPFTOOL) gen skeleton $< name explain_bpf > $@.tmp && mv $@.tmp $@
explain/tracer.o: explain/bpf/explain.skel.h

# The version is compiled into lib/version.o alone, rebuilt only when it changes.
.version: FORCE
	@echo '$(FULL_VERSION)' | cmp -s - $@ || echo '$(FULL_VERSION)' > $@
lib/version.o: .version
lib/version.o: ALL_CFLAGS += -DIB_VERSION='"$(FULL_VERSION)"'

# A statically linked binary, for a test box or an initramfs without the libraries.
static: interbench-static
interbench-static: interbench.o libinterbench.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -static -o $@ interbench.o libinterbench.a $(PKG_STATIC_LIBS) $(SYS_LIBS)

tests/bin/%: tests/%.c libinterbench.a
	@mkdir -p tests/bin
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -o $@ $< libinterbench.a $(CHECK_LIBS) $(LIBS)

# Unit tests (check), then end-to-end runs of the binary; tests/untouched.sh fails the suite if
# it changed /dev/null or another path no test may touch.
check: | $(filter deps,$(MAKECMDGOALS))
	@bash tests/untouched.sh $(MAKE) --no-print-directory lint unit e2e

# Unit tests: the suites side by side, one per CPU, each one's output whole (tests/run-unit.sh).
unit: $(TEST_BINS)
	@bash tests/run-unit.sh $(TEST_BINS)

# The end-to-end scripts (tests/NAME.sh), each run on the binary, then the closing line over all
# (tests/run-e2e.sh); E2E=... runs some of them.  E2E_SKIP_FAILS=1 counts a skip as a failure
# (tests/lib/e2e.sh).
E2E ?= e2e e2e_loads e2e_results e2e_faults e2e_hardening_files e2e_hardening_env e2e_outputs e2e_tabular e2e_tables \
	e2e_sweep e2e_decisions e2e_stutter e2e_audit e2e_plot e2e_disturb e2e_window e2e_golden e2e_explain e2e_pipeline e2e_trace e2e_framelog \
	e2e_completion e2e_man e2e_frontdoor e2e_pts e2e_make e2e_autopkgtest e2e_kernel_matrix e2e_threshold e2e_cgroup e2e_taskfile \
	e2e_taskfile_docs
e2e: interbench
	@bash tests/untouched.sh bash tests/run-e2e.sh ./interbench $(E2E)

# The man page must be clean above style level; the include layers hold
# (doc/adding-a-workload.md); the JSON keys are typed once (tests/jsonkeys.sh).
lint:
	mandoc -Tlint -W warning man/interbench.8
	bash tests/layers.sh
	bash tests/jsonkeys.sh

# Installs the Debian packages that are missing (as root), or prints the line to run.
deps:
	@missing=""; for p in $(DEBIAN_PKGS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	else echo "deps: run as root: apt-get update && apt-get install -y$$missing"; exit 1; fi

# The full default benchmark: every task against every load, about 30 minutes on 2 CPUs.
# ARGS passes options: make run ARGS="-t 10 -W Audio".
run: interbench
	./interbench $(ARGS)

# A short tour: Audio and Video against every load, 2 s each (about a minute).
demo: interbench
	./interbench -t 2 -W Audio -W Video $(ARGS)

# The benchmark suite (bench/run.sh, as root, about 12 minutes on 2 CPUs; not part of check):
# interbench beside cyclictest and interbench 0.31 (built from IB031_SRC, a git URL or clone,
# default its GitHub repository), written to bench/RESULTS.md.
bench: interbench
	IB031_SRC="$(IB031_SRC)" bash bench/run.sh ./interbench

# The kernel matrix (ci/kernels/, README "CI across kernel builds"): each kernel booted in turn
# in qemu through LAVA's lava-run with the static binary in an initramfs, then compared with
# the first.  KERNELS="a.deb b.deb" (default: Debian's generic and PREEMPT_RT kernels);
# ARGS replaces interbench's arguments in the guests; SCX="scx_simple" builds the kernel's own
# sched_ext schedulers for debian:SUITE kernels into their guests (--scx).  Installs its packages
# when root.
kernel-matrix: interbench interbench-static
	bash ci/kernels/matrix.sh $(if $(SCX),--scx $(call shell_quote,$(SCX))) $(if $(ARGS),--args $(call shell_quote,$(ARGS))) $(KERNELS)

# Its check (CI): the job and test definition validated by LAVA, one -t 1 boot of each kernel.
kernel-matrix-check: interbench interbench-static
	bash ci/kernels/check.sh

print-%:
	@echo '$($*)'

# The bash and zsh completion scripts, generated from the option tables (interbench
# completion bash|zsh).
interbench.%-completion: interbench
	./interbench completion $* >$@.tmp && mv $@.tmp $@

# Every path quoted (shell_quote): DESTDIR="dir with space" installs there and nowhere else.
q_bin = $(call shell_quote,$(DESTDIR)$(BINDIR))
q_man = $(call shell_quote,$(DESTDIR)$(MANDIR)/man8)
q_bash = $(call shell_quote,$(DESTDIR)$(COMPLETIONDIR))
q_zsh = $(call shell_quote,$(DESTDIR)$(ZSH_COMPLETIONDIR))
q_data = $(call shell_quote,$(DESTDIR)$(DATADIR))
install: interbench interbench.bash-completion interbench.zsh-completion
	install -d $(q_bin) $(q_man) $(q_bash) $(q_zsh) $(q_data)
	install -m 0755 interbench $(q_bin)/interbench
	install -m 0644 man/interbench.8 $(q_man)/interbench.8
	install -m 0644 interbench.bash-completion $(q_bash)/interbench
	install -m 0644 interbench.zsh-completion $(q_zsh)/_interbench
	install -m 0644 doc/interbench-result.schema.json $(q_data)/interbench-result.schema.json

uninstall:
	rm -f $(q_bin)/interbench $(q_man)/interbench.8 $(q_bash)/interbench $(q_zsh)/_interbench \
		$(q_data)/interbench-result.schema.json
	-rmdir $(q_data)

# A source tarball of the files git tracks, interbench-VERSION.tar.gz (VERSION as --version
# says it, which the tarball keeps in .tarball-version), reproducible: entries in git's
# order, owned by root, modes 644/755, every mtime the last commit's time, gzip without a
# name or time stamp (the practices of reproducible-builds.org/docs/archives), so two runs on
# one commit give the same bytes (tests/package.sh).  The Debian package builds from it.
DIST = interbench-$(FULL_VERSION)
dist:
	@set -e; git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
		{ echo "make dist: not a git checkout: the tarball holds the files git tracks" >&2; exit 2; }; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	mtime=$$(git log -1 --format=%ct); \
	echo '$(FULL_VERSION)' > "$$tmp/.tarball-version"; \
	git ls-files -z > "$$tmp/files"; \
	tar --create --format=gnu --owner=0 --group=0 --numeric-owner --mode=a+rX,u+w,go-w \
		--mtime=@$$mtime --transform 's,^,$(DIST)/,' --no-recursion \
		--null --files-from="$$tmp/files" -C "$$tmp" .tarball-version | gzip -9 -n > "$$tmp/out"; \
	mv "$$tmp/out" $(DIST).tar.gz; echo "$(DIST).tar.gz"

clean:
	rm -f crash-* leak-* timeout-* oom-*
	rm -f interbench interbench-static interbench.*-completion interbench.*-completion.tmp .version interbench.o libinterbench.a $(LIB_OBJS) $(LIB_OBJS:.o=.d) interbench.d
	rm -f explain/bpf/explain.bpf.o explain/bpf/explain.skel.h
	rm -rf tests/bin kernel-matrix

-include $(LIB_OBJS:.o=.d) interbench.d
FORCE:
