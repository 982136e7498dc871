# interbench - Linux interactivity benchmark.  GNU make.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
PKG_CONFIG ?= pkg-config

PKGS       := jansson libcap
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra
ALL_CFLAGS := -std=gnu11 $(WARN) -pthread -I. -MMD -MP $(PKG_CFLAGS) $(CFLAGS)
LIBS    := $(PKG_LIBS) -pthread -lrt -lm

LIB_SRCS := $(sort $(wildcard core/*.c sims/*.c loads/*.c calibrate/*.c results/*.c))
LIB_OBJS := $(LIB_SRCS:.c=.o)
TEST_SRCS := $(sort $(wildcard tests/check_*.c))
TEST_BINS := $(patsubst tests/%.c,tests/bin/%,$(TEST_SRCS))

DEBIAN_PKGS := build-essential pkg-config check libjansson-dev libcap-dev mandoc rt-tests util-linux python3-jsonschema

.PHONY: all check unit e2e install uninstall clean deps run lint
all: interbench

libinterbench.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

interbench: interbench.o libinterbench.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ interbench.o libinterbench.a $(LIBS)

%.o: %.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

tests/bin/%: tests/%.c libinterbench.a
	@mkdir -p tests/bin
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(LDFLAGS) -o $@ $< libinterbench.a $(CHECK_LIBS) $(LIBS)

# Unit tests (check), then end-to-end runs of the binary.
check: lint unit e2e

unit: $(TEST_BINS)
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; CK_FORK=yes ./$$t; done

e2e: interbench
	bash tests/e2e.sh ./interbench
	bash tests/e2e_loads.sh ./interbench
	bash tests/e2e_results.sh ./interbench
	bash tests/e2e_faults.sh ./interbench
	bash tests/e2e_hardening_env.sh ./interbench

# The man page must be clean above style level.
lint:
	mandoc -Tlint -W warning man/interbench.8

# Installs the Debian packages that are missing (as root), or prints the line to run.
deps:
	@missing=""; for p in $(DEBIAN_PKGS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	else echo "deps: run as root: apt-get update && apt-get install -y$$missing"; exit 1; fi

run: interbench
	./interbench

install: interbench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8
	install -m 0755 interbench $(DESTDIR)$(BINDIR)/interbench
	install -m 0644 man/interbench.8 $(DESTDIR)$(MANDIR)/man8/interbench.8

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interbench $(DESTDIR)$(MANDIR)/man8/interbench.8

clean:
	rm -f crash-* leak-* timeout-* oom-*
	rm -f interbench interbench.o libinterbench.a $(LIB_OBJS) $(LIB_OBJS:.o=.d) interbench.d
	rm -rf tests/bin

-include $(LIB_OBJS:.o=.d) interbench.d
