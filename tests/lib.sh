# SPDX-License-Identifier: MIT
# Sourced by every tests/*.t, which then calls begin: a job a file (docs/tests.md).
set -u
_lib=$(dirname "$0")
# shellcheck source=tests/census.sh
. "$_lib/census.sh"
swap_scripts=$_lib/../scripts
# shellcheck source=scripts/lib.sh
. "$swap_scripts/lib.sh"
# shellcheck source=tests/lib/tap.sh
. "$_lib/lib/tap.sh"
# shellcheck source=tests/lib/setup.sh
. "$_lib/lib/setup.sh"
# shellcheck source=tests/lib/users.sh
. "$_lib/lib/users.sh"
# shellcheck source=tests/lib/hold.sh
. "$_lib/lib/hold.sh"
# shellcheck source=tests/lib/procs.sh
. "$_lib/lib/procs.sh"
# shellcheck source=tests/lib/wait.sh
. "$_lib/lib/wait.sh"
