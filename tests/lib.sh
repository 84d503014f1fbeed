# SPDX-License-Identifier: MIT
# Sourced by every tests/*.t, which then calls begin: the library, a job a
# file in tests/lib/ (docs/tests.md: how a test is written, the variables).
set -u
_lib=$(dirname "$0")
# shellcheck source=tests/census.sh
. "$_lib/census.sh"
# shellcheck source=scripts/report
. "$_lib/../scripts/report"
# shellcheck source=tests/lib/tap.sh
. "$_lib/lib/tap.sh"
# shellcheck source=tests/lib/setup.sh
. "$_lib/lib/setup.sh"
# shellcheck source=tests/lib/users.sh
. "$_lib/lib/users.sh"
# shellcheck source=tests/lib/hold.sh
. "$_lib/lib/hold.sh"
# shellcheck source=tests/lib/wait.sh
. "$_lib/lib/wait.sh"
