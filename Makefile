# SPDX-License-Identifier: MIT
# Built by make's own rules, so CC, CFLAGS, CPPFLAGS and LDFLAGS from the
# command line or the environment are honoured; the flags the program needs
# are added to them, never put in their place.
CFLAGS ?= -O2
SWAP_CFLAGS = -std=c11 -Wall -Wextra
override CFLAGS += $(SWAP_CFLAGS)

PROVE = prove

# Memory limit of the box `make demo` and `make plot` run ./swap in, and
# how often `make plot` takes a point (swap -i).
BOX = 64M
STEP = 8M

# `make class`: how many students run ./swap SIZE at once, each in a BOX box.
N = 4
SIZE = 256M

all: swap

swap: swap.c

demo: swap
	BOX='$(BOX)' sh scripts/box demo ./swap

plot: swap
	BOX='$(BOX)' sh scripts/box plot swap.svg ./swap -i '$(STEP)'

class: swap
	BOX='$(BOX)' sh scripts/box class '$(N)' '$(SIZE)'

check: swap
	$(PROVE) tests/

clean:
	rm -f swap *.o swap.svg

.PHONY: all demo plot class check clean
