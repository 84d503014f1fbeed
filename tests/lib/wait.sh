# SPDX-License-Identifier: MIT
# shellcheck disable=SC2154,SC2034 # (names set by lib.sh's other parts, or for the tests)
# wait_for CMD...: until CMD first succeeds (not asked again: what it saw
# may move on), sleeping at most $wait_max tenths of a second (TEST_WAIT_MAX
# 60 s); 1 if never.  A fiftieth between looks for a fifth of a second, a
# tenth to two seconds, then a half: a look costs a process or two.
wait_default=$((${TEST_WAIT_MAX:-60} * 10))
wait_max=$wait_default
wait_for() {
    [ -z "${TEST_WAIT_LOG-}" ] || read -r wf_t0 _ </proc/uptime
    wf_i=0 wf_short=0
    until "$@"; do
        [ $wf_i -lt "$wait_max" ] || { wf_i=-1; break; }
        if [ $wf_short -lt 10 ]; then
            sleep 0.02
            wf_short=$((wf_short + 1)) wf_i=$((wf_short / 5))
        elif [ $wf_i -lt 20 ]; then sleep 0.1; wf_i=$((wf_i + 1)); else sleep 0.5; wf_i=$((wf_i + 5)); fi
    done
    [ -z "${TEST_WAIT_LOG-}" ] || { read -r wf_t1 _ </proc/uptime &&
        echo "$((${wf_t1%.*}${wf_t1#*.} - ${wf_t0%.*}${wf_t0#*.})) ${0##*/} $*" >>"$TEST_WAIT_LOG"; }
    [ $wf_i -ge 0 ]
}
