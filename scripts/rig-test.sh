#!/usr/bin/env bash
# rig-test.sh: the hardware rig end to end, in seconds, on any machine.
#  1. hwbridge cross-compiles with CGO_ENABLED=0 for linux/arm64 and linux/arm (GOARM=6), and
#     depends on no ebiten;
#  2. hwbridge --simulate serves the mirror rig (testdata/rig/sim-mirror.toml, 24 servo knobs on
#     two PCA9685 boards, four read back): mark1 bridge trains the full machine and mirrors it;
#     a bus fault is injected meanwhile; the report must show frames sent, no chip left faulty;
#  3. hwbridge --simulate serves the loop rig (sim-loop.toml, 16 MCP4451/4461 wipers read back
#     by four ADS1115): mark1 bridge learns builtin:leftright with the rig's pots as weights,
#     with read-back noise and a chip that stops answering for a while;
#  4. SIGTERM parks the servos and keeps the digital pots (the log says so), the watchdog
#     fires when the client goes;
#  5. hwbridge run trains the loop rig's machine headless and exits; scan and check work;
#  6. a web page in headless Chromium, served from another loopback port, tries every way a
#     page has to drive the bridge: no pot moves (installs chromium);
#  7. drivers we did not write (npm: pca9685, ads1x15, node-mcp23017) drive the simulated chips,
#     and leave the same registers as ours (installs node, npm and the pinned packages).
# Also: a mirror client paused past the watchdog gets its knobs back, a client killed has its
# knobs parked, a loop bridge started long before its client still moves its pots.
# Figures printed come from the wall clock of a shared machine: reported, not asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=""
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "rig-test: FAIL: $*" >&2
	for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
	exit 1
}

echo "rig-test: cross-compiling hwbridge (CGO_ENABLED=0) for linux/arm64 and linux/arm GOARM=6"
CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -o "$tmp/hwbridge-arm64" ./cmd/hwbridge
CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=6 go build -o "$tmp/hwbridge-armv6" ./cmd/hwbridge
if go list -deps ./cmd/hwbridge | grep -q '^github.com/hajimehoshi/ebiten'; then
	fail "hwbridge depends on ebiten"
fi
go build -o "$tmp/hwbridge" ./cmd/hwbridge
go build -o "$tmp/mark1" ./cmd/mark1
hb="$tmp/hwbridge"

# start RIG [FLAGS]: a simulated bridge on a free loopback port; sets pid and addr.
start() {
	local rig=$1
	shift
	rm -f "$tmp/addr"
	"$hb" --rig "testdata/rig/$rig" --simulate --listen 127.0.0.1:0 --addr-file "$tmp/addr" "$@" 2>"$tmp/$rig.log" &
	pid=$!
	for _ in $(seq 100); do
		[ -s "$tmp/addr" ] && break
		kill -0 "$pid" 2>/dev/null || fail "hwbridge $rig did not start"
		sleep 0.05
	done
	[ -s "$tmp/addr" ] || fail "hwbridge $rig did not listen"
	addr=$(cat "$tmp/addr")
}
# stop: SIGTERM, and the bridge must exit 0.
stop() {
	kill -TERM "$pid"
	wait "$pid" || fail "hwbridge exited $? on SIGTERM"
	pid=""
}
# field FILE KEY: a number from mark1's JSON report (first occurrence).
field() { grep -o "\"$2\": *[-0-9.e+]*" "$1" | head -1 | sed 's/.*: *//'; }

echo "rig-test: mirror: mark1 bridge trains builtin:letters and mirrors R0's pots on 24 servo knobs"
start sim-mirror.toml --osc-error 0.02
# knobs2 will not answer the next 6 transactions (its first frame and its retries).
"$hb" fault --bridge "$addr" --addr 0x41 --kind nack --count 6 >/dev/null || fail "injecting a fault"
"$tmp/mark1" bridge --bridge "$addr" --data builtin:letters --epochs 3 --pace 1ms --json >"$tmp/mirror.json" 2>"$tmp/mark1-mirror.log" ||
	fail "mark1 bridge (mirror) exited $?"
frames=$(field "$tmp/mirror.json" frames)
[ "${frames:-0}" -gt 0 ] || fail "mirror: no frame sent"
grep -q "fault: knobs2" "$tmp/sim-mirror.toml.log" || fail "mirror: the injected NACKs on knobs2 were not reported"
# The bridge retries a faulty chip by itself (fault_retry_s 1, doubling): wait for it.
for _ in $(seq 100); do grep -q "recovered: knobs2" "$tmp/sim-mirror.toml.log" && break; sleep 0.1; done
grep -q "recovered: knobs2" "$tmp/sim-mirror.toml.log" || fail "mirror: knobs2 did not recover"
echo "rig-test:   $frames frames, $(field "$tmp/mirror.json" weights) weight values; latency to the write: mean $(field "$tmp/mirror.json" mean_latency_periods), most $(field "$tmp/mirror.json" max_latency_periods) periods; bytes per writing frame: last $(field "$tmp/mirror.json" last_frame_bytes), most $(field "$tmp/mirror.json" max_frame_bytes)"
# A clean end releases the rig: the knobs stay where training put them.
grep -q "the client released the rig: the pots stay" "$tmp/sim-mirror.toml.log" || fail "mirror: mark1 bridge did not release the rig"

echo "rig-test: mirror: a client paused past the watchdog (SIGSTOP for 3 s): the knobs parked come back"
"$tmp/mark1" bridge --bridge "$addr" --data builtin:letters --epochs 2 --pace 15ms --json >"$tmp/pause.json" 2>"$tmp/mark1-pause.log" &
client=$!
sleep 1.5
kill -STOP "$client"
for _ in $(seq 60); do grep -q "servos parked" "$tmp/sim-mirror.toml.log" && break; sleep 0.1; done
kill -CONT "$client"
wait "$client" || fail "mark1 bridge (paused mirror) exited $?: $(tail -3 "$tmp/mark1-pause.log")"
grep -q "watchdog: no control request .* servos parked" "$tmp/sim-mirror.toml.log" || fail "mirror: the watchdog did not park the paused client's knobs"
grep -q "the controlling client is back" "$tmp/sim-mirror.toml.log" || fail "mirror: the paused client did not resume the rig"
# Every knob shows the machine's weight: mark1 bridge checked each against the bridge's status.
knobs=$(tr -d ' \n' <"$tmp/pause.json" | grep -o '"knobs":\[[^]]*\]' | grep -o '"weight"' | wc -l)
shown=$(field "$tmp/pause.json" weights_shown)
[ "$knobs" -gt 0 ] && [ "$knobs" = "$shown" ] || fail "mirror: $knobs knobs checked of $shown shown"
worst=$(tr -d ' \n' <"$tmp/pause.json" | grep -o '{"weight":[^}]*}' |
	sed 's/.*"machine":\([-0-9.e+]*\),"reading":\([-0-9.e+]*\),"allowed":\([-0-9.e+]*\).*/\1 \2 \3/' |
	awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > $3) bad++; if (d > w) w = d } END { print (bad + 0) " " (w + 0) }')
[ "${worst%% *}" = 0 ] || fail "mirror: knobs off the machine's weights after the pause: $worst"
echo "rig-test:   $knobs knobs back on the machine's weights after the park (largest difference ${worst#* } increments)"

echo "rig-test: mirror: a client lost (SIGKILL): the watchdog parks the knobs"
"$tmp/mark1" bridge --bridge "$addr" --data builtin:letters --epochs 50 --pace 15ms >/dev/null 2>&1 &
client=$!
sleep 1
kill -KILL "$client"
wait "$client" 2>/dev/null || true
n=$(grep -c "servos parked" "$tmp/sim-mirror.toml.log")
for _ in $(seq 60); do [ "$(grep -c "servos parked" "$tmp/sim-mirror.toml.log")" -gt "$n" ] && break; sleep 0.1; done
[ "$(grep -c "servos parked" "$tmp/sim-mirror.toml.log")" -gt "$n" ] || fail "mirror: the watchdog did not park a lost client's knobs"
stop
grep -q "stopping: parking the servos" "$tmp/sim-mirror.toml.log" || fail "mirror: SIGTERM did not park"

echo "rig-test: loop: a bridge started 4 s before its client (longer than its watchdog) still moves its pots"
start sim-loop.toml --seed 2
sleep 4
"$tmp/mark1" bridge --bridge "$addr" --data builtin:leftright --epochs 10 --json >"$tmp/late.json" 2>"$tmp/mark1-late.log" ||
	fail "mark1 bridge (late client) exited $?: $(tail -3 "$tmp/mark1-late.log")"
corr=$(grep -o '"corrections": *[0-9]*' "$tmp/late.json" | head -1 | sed 's/.*: *//')
[ "${corr:-0}" -gt 0 ] || fail "loop: no correction in the first epoch: the example shows no learning"
grep -q '"rig_stopped"' "$tmp/late.json" && fail "loop: the late client's session stopped: $(grep rig_error "$tmp/late.json")"
grep -q "watchdog: no control request" "$tmp/sim-loop.toml.log" && fail "loop: the watchdog fired before any client came"
# The read-backs follow the targets the corrections set.
rb=$(tr -d ' \n' <"$tmp/late.json" | grep -o '"read_back":\[\[[^]]*' | sed 's/.*\[\[//')
tg=$(tr -d ' \n' <"$tmp/late.json" | grep -o '"targets":\[\[[^]]*' | sed 's/.*\[\[//')
off=$(paste -d' ' <(echo "$rb" | tr ',' '\n') <(echo "$tg" | tr ',' '\n') |
	awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1.5) n++; if ($2 != 0) moved++ } END { print (n + 0) " " (moved + 0) }')
[ "${off%% *}" = 0 ] || fail "loop: read-backs off their targets: $off ($rb against $tg)"
[ "${off#* }" -gt 0 ] || fail "loop: no pot was driven off 0"
echo "rig-test:   $corr corrections in the first epoch; ${off#* } pots driven off 0, every read-back within 1.5 of its target"
stop

echo "rig-test: loop: mark1 bridge learns builtin:leftright on 16 simulated digital pots read back by ADCs (noise 5 mV)"
start sim-loop.toml --noise 0.005
# pots1 times out on its next 9 transactions: the machine meets the fault and goes on.
"$hb" fault --bridge "$addr" --addr 0x2d --kind timeout --count 9 >/dev/null || fail "injecting a fault"
"$tmp/mark1" bridge --bridge "$addr" --data builtin:leftright --epochs 10 --json >"$tmp/loop.json" 2>"$tmp/mark1-loop.log" ||
	fail "mark1 bridge (loop) exited $?"
acc=$(field "$tmp/loop.json" accuracy)
awk -v a="$acc" 'BEGIN { exit !(a >= 0.95) }' || fail "loop: training accuracy $acc, want at least 0.95"
# The weights the machine used are read back: not whole increments.
readback=$(tr -d ' \n' <"$tmp/loop.json" | grep -o '"read_back":\[\[[^]]*' | sed 's/.*\[\[//')
frac=$(echo "$readback" | tr ',' '\n' | awk '$1 != int($1) { n++ } END { print n+0 }')
[ "$frac" -ge 8 ] || fail "loop: only $frac of 16 weights are off whole increments: are they read back? ($readback)"
echo "rig-test:   accuracy $acc after $(grep -c '"epoch"' "$tmp/loop.json") epochs; weights read back: $readback"
stop
grep -q "fault: pots1" "$tmp/sim-loop.toml.log" || fail "loop: the timeouts on pots1 were not reported"
grep -q "stopping: keeping the digital pots, then halting every device" "$tmp/sim-loop.toml.log" || fail "loop: no clean stop"
grep -q "servo" "$tmp/sim-loop.toml.log" && fail "loop: a rig of digital pots was told of servos: $(grep servo "$tmp/sim-loop.toml.log" | head -3)"

echo "rig-test: headless: hwbridge run trains the loop rig's machine by itself"
rm -f "$tmp/addr"
"$hb" run --rig testdata/rig/sim-loop.toml --simulate --listen 127.0.0.1:0 --train --exit 2>"$tmp/run.log" ||
	fail "hwbridge run exited $?"
grep -q "trained: after .* (100.0%)" "$tmp/run.log" || fail "hwbridge run did not learn: $(grep trained "$tmp/run.log")"

echo "rig-test: scan and check"
"$hb" scan --simulate --rig testdata/rig/sim-mirror.toml >"$tmp/scan.txt"
grep -q "^0x41: PCA9685" "$tmp/scan.txt" || fail "scan: no PCA9685 at 0x41"
"$hb" check --rig testdata/rig/example.toml >/dev/null || fail "check: example.toml"
if [ ! -e /dev/i2c-1 ]; then
	if "$hb" scan 2>"$tmp/noscan.txt"; then fail "scan without a bus succeeded"; fi
	grep -q "I2C is not enabled" "$tmp/noscan.txt" || fail "scan without a bus: $(cat "$tmp/noscan.txt")"
fi
if "$hb" --rig testdata/rig/sim-loop.toml --simulate --listen 0.0.0.0:0 2>"$tmp/open.txt"; then
	fail "hwbridge listened beyond loopback without a token"
fi
grep -q "give --token-file" "$tmp/open.txt" || fail "beyond loopback: $(cat "$tmp/open.txt")"
echo "rig-test: a web page tries to drive the bridge from headless Chromium"
bash scripts/need.sh chromium
MARK1_BROWSER_TEST=1 go test -count=1 -run '^TestBrowserCannotDriveTheRig$' ./cmd/hwbridge/ >"$tmp/browser.log" 2>&1 ||
	fail "a web page drove the bridge: $(grep -E 'moved|refused|browser_test' "$tmp/browser.log" | head -5)"
echo "rig-test: drivers we did not write (npm: pca9685, ads1x15, node-mcp23017) on the simulated chips (installs node, npm and the pinned packages)"
bash drivers/i2csim/peers/install.sh || fail "installing the independent drivers (drivers/i2csim/peers/install.sh)"
MARK1_PEER_TEST=1 go test -count=1 -run '^(TestPeer|TestDatasheet)' -v ./drivers/i2csim/peers/ >"$tmp/peers.log" 2>&1 ||
	fail "the independent drivers disagree with the simulated chips: $(grep -E -- '--- FAIL|_test.go' "$tmp/peers.log" | head -8)"
grep -q -- "--- PASS: TestPeerPCA9685" "$tmp/peers.log" && grep -q -- "--- PASS: TestPeerADS1x15 " "$tmp/peers.log" &&
	grep -q -- "--- PASS: TestPeerMCP23017" "$tmp/peers.log" || fail "the independent drivers' tests did not run: $(tail -3 "$tmp/peers.log")"
echo "rig-test:   $(grep -c -- '--- PASS' "$tmp/peers.log") peer tests passed; $(grep -o 'theirs: channel  1 asked 1500 us.*' "$tmp/peers.log" | head -1)"
echo "rig-test: ok"
