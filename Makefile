# SPDX-License-Identifier: MIT
# Built by make's own rules, so CC, CFLAGS, CPPFLAGS and LDFLAGS from the
# command line or the environment are honoured; the flags the program needs
# are added to them, never put in their place.
CFLAGS ?= -O2
SWAP_CFLAGS = -std=c11 -Wall -Wextra
override CFLAGS += $(SWAP_CFLAGS)

PROVE = prove

# Memory limit of the box `make demo` runs ./swap in.
BOX = 64M

all: swap

swap: swap.c

demo: swap
	BOX='$(BOX)' sh scripts/box demo ./swap

check: swap
	$(PROVE) tests/

clean:
	rm -f swap *.o

.PHONY: all demo check clean
