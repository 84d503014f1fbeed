# SPDX-License-Identifier: MIT
# Built by make's own rules, so CC, CFLAGS, CPPFLAGS and LDFLAGS from the
# command line or the environment are honoured; the flags the program needs
# are added to them, never put in their place.
CFLAGS ?= -O2
SWAP_CFLAGS = -std=c11 -Wall -Wextra
override CFLAGS += $(SWAP_CFLAGS)

PROVE = prove

# Memory limit of the box `make demo` and `make plot` run ./swap in, and
# how often `make plot` takes a point (swap -i); its axis across, seconds
# (time) or MB touched (mb), and the options of its runs (with -l, a
# latency heat map of each).
BOX = 64M
STEP = 8M
AXIS = time
PLOT = -m

# What ./swap maps in demo, plot and class; and how many students `make
# class` runs at once, each in a BOX box.  CSV=FILE: make class and make
# backends write their table there too, a row per run or per backend
# (RFC 4180, a header row).
SIZE = 256M
N = 4
CSV =

# make image: the container image (container/Containerfile), built by the
# first of ENGINES that is installed; BASE, if set, replaces its build
# stage's base image.
ENGINES = podman docker
IMAGE = swap
BASE =

all: swap

swap: swap.c

# SIZE is named to ./swap only when it is not the default, so that the
# transcript shows the command of the lesson.
demo: swap
	BOX='$(BOX)' SIZE='$(SIZE)' sh scripts/lab demo ./swap $(filter-out 256M,$(SIZE))

plot: swap
	BOX='$(BOX)' SIZE='$(SIZE)' AXIS='$(AXIS)' sh scripts/lab plot swap.svg ./swap $(PLOT) -i '$(STEP)' $(filter-out 256M,$(SIZE))

class: swap
	BOX='$(BOX)' CSV='$(CSV)' sh scripts/lab class '$(N)' '$(SIZE)'

# make backends (root): the boxed run on a swapfile, through zswap and on
# zram, side by side (scripts/backends); YES=1 goes ahead with other users'
# processes running, whose pages the rows move too; ROWS='zswap zram' runs
# only those rows.
YES =
ROWS =
backends: swap
	BOX='$(BOX)' SIZE='$(SIZE)' CSV='$(CSV)' sh scripts/backends $(if $(YES),-y) $(ROWS)

# (Looked up only when make image runs.)
ENGINE = $(firstword $(foreach e,$(ENGINES),$(if $(shell command -v $(e) 2>/dev/null),$(e))))

image:
	$(if $(ENGINE),,$(error none of $(ENGINES) is installed: install Podman or Docker))
	$(ENGINE) build -t '$(IMAGE)' -f container/Containerfile $(if $(BASE),--build-arg 'BASE=$(BASE)') .

# make check runs JOBS tests at a time; those that swap or read what swap
# is on take turns (tests/lib.sh, swap_lock, with flock(1): without it, one
# at a time).  The static checks (FIRST) start first: the longest test,
# and one that waits for no other.  The THP test (it sets a mode for the
# whole machine) and the last look for leftovers run after all the others,
# alone: prove runs last what its par rules (FIRST, PAR) do not name.
# Five at a time, though a test's turn is the suite's length: the others
# that wait for it are started, so the next takes the turn the moment it
# is free.  With three, the slots were often all busy with tests that take
# none, and the turns lay idle 2-3 s in all (root's TEST_SWAPFILE=1 make
# check here, 6.18: 35.8 s with three, 31.9 and 32.5 s with five).
JOBS = $(if $(shell command -v flock 2>/dev/null),5,1)
FIRST = 10
PAR = 00,01,02,03,04,05,06,07,09,1?,2?,3?
TESTS = TEST_COUNT=$(words $(wildcard tests/*.t)) $(PROVE) -j$(JOBS) --rules='par=tests/$(FIRST)-*.t' --rules='par=tests/{$(PAR)}-*.t' tests/
check: swap
	$(TESTS)

# make census: make check with every test of root's traced by strace, and
# tests/98 reading the traces for anything root made, changed or signalled
# that it must not: CI's audit (.ci/run), not the teacher's wait.  98 runs
# then after all the others but 99, alone (in make check it only tests
# the census on known traces, beside the rest; TEST_CENSUS=1 make check is
# make census), told how many tests there are, to see each was traced.
census: swap
	TEST_CENSUS=1 $(TESTS)
comma = ,
check: PAR := $(PAR)$(if $(filter 1,$(TEST_CENSUS)),,$(comma)98)

# make install: the program and its manual page, nothing else (the lab
# sheet and the scripts stay in the checkout, where the exercises run).
# PREFIX, BINDIR, MANDIR and DESTDIR as packagers expect them.  The page's
# header gets the version swap.c gives (SWAP_VERSION), its one place.
PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
VERSION = $(shell sed -n 's/^\#define SWAP_VERSION "\(.*\)"$$/\1/p' swap.c)

install: swap
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)/man1'
	install -m 755 swap '$(DESTDIR)$(BINDIR)/swap'
	sed '/^\.TH /s/"swap [^"]*"/"swap $(VERSION)"/' man/swap.1 | install -m 644 /dev/stdin '$(DESTDIR)$(MANDIR)/man1/swap.1'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/swap' '$(DESTDIR)$(MANDIR)/man1/swap.1'

clean:
	rm -f swap *.o swap.svg tests/shellcheck.clean

.PHONY: all demo plot class backends image check census install uninstall clean
