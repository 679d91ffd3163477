#!/usr/bin/env bash
# dist-test.sh: the Debian packages of this machine's architecture built (scripts/dist.sh, with
# lintian), installed, used, removed and purged, for make test (make dist-test).
#
#  - installs what it needs, saying so (scripts/need.sh): adduser, curl, lintian, Xvfb and the
#    window's libraries; installing the packages needs root: sudo when not root, else it fails;
#  - refuses to run where mark1, hwbridge or mark1-museum is installed already (it purges them);
#  - the archive holds the binaries, README, rig example, units and COPYRIGHT; every archive
#    (Linux, and for amd64 and arm64 macOS and Windows) passes internal/tools/distcheck: its
#    files, programs of the right format and processor (ELF, Mach-O, console PE), SHA256SUMS,
#    and mark1 help run from this machine's;
#  - dpkg -i: the user hwbridge in i2c and gpio, /etc/mark1 root:hwbridge 0750, the token
#    (0600 hwbridge), the rig file a conffile, the unit at /lib/systemd/system running
#    /usr/bin/hwbridge, enabled and not started, the kiosk unit not enabled;
#  - mark1 demo prints its report (80 columns); mark1 museum runs the installed window under
#    Xvfb, which takes a screenshot (a PNG);
#  - as the user hwbridge: hwbridge check, and hwbridge serve --simulate of /etc/mark1/rig.toml
#    with the token, asked GET /v1/info with curl (401 without the token); others cannot read
#    /etc/mark1;
#  - installed again (an upgrade): the token and an edited rig file kept;
#  - dpkg -r: nothing left outside /etc of what dpkg -L listed, hwbridge in state config-files
#    with its conffile, edit and token; dpkg --purge: /etc/mark1, the stat override and the
#    unit's enablement gone.
# Works without systemd running (containers): the packages' scripts use deb-systemd-helper.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "dist-test: $*" >&2; exit 1; }
step() { echo "dist-test: $*"; }

sudo=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || fail "installing the packages needs root: run as root, or install sudo"
	sudo=sudo
fi
# as USER CMD...: CMD as USER and its groups (setpriv execs it: its process is CMD's).
as() { local u=$1; shift 2; $sudo setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups -- "$@"; }

arch=$(dpkg --print-architecture)
pkgs=(mark1 hwbridge)
case $arch in amd64 | arm64) pkgs+=(mark1-museum) ;; esac
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	case $st in "" | not-installed) ;; *) fail "$p is $st here; this test installs and purges it: purge it first (sudo dpkg --purge $p)" ;; esac
done

bash scripts/need.sh adduser curl lintian xvfb xauth libgl1-mesa-dri libgl1 libx11-6 libx11-xcb1 libxcursor1 libxi6 libxinerama1 \
	libxrandr2 libxxf86vm1 libasound2

tmp=$(mktemp -d)
chmod 755 "$tmp"
server=""
installed=0
cleanup() {
	if [ -n "$server" ]; then $sudo kill "$server" 2>/dev/null || true; fi
	if [ "$installed" = 1 ]; then
		echo "dist-test: purging the packages after a failure" >&2
		$sudo dpkg --purge "${pkgs[@]}" >/dev/null 2>&1 || true
	fi
	$sudo rm -rf "$tmp" # $tmp/run is hwbridge's
}
trap cleanup EXIT

# dpkg_ ARGS: dpkg as root, waiting while another dpkg or apt holds the lock.
dpkg_() {
	local out
	for _ in $(seq 90); do
		if out=$($sudo dpkg "$@" 2>&1); then
			[ -z "$out" ] || printf '%s\n' "$out"
			return 0
		fi
		if grep -q 'lock' <<<"$out" && ! grep -q 'dpkg: error processing' <<<"$out"; then
			sleep 2
			continue
		fi
		printf '%s\n' "$out" >&2
		return 1
	done
	fail "dpkg $*: the dpkg lock stayed taken for 3 minutes"
}

status() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || echo not-installed; }
mode() { $sudo stat -c '%U:%G %a' "$1"; }

step "building the $arch packages"
bash scripts/dist.sh --out "$tmp/dist" --lint "$arch"
deb() { echo "$tmp/dist/$1"_*_"$arch.deb"; }

step "the archive"
tarball=$(echo "$tmp/dist"/mark1_*_linux_"$arch".tar.gz)
listing=$(tar tzf "$tarball")
want=(mark1 hwbridge README.md rig.toml COPYRIGHT systemd/hwbridge.service systemd/mark1-museum.service docs/rig.md)
[ "${#pkgs[@]}" = 3 ] && want+=(mark1-museum)
for f in "${want[@]}"; do
	grep -q "^mark1_[^/]*_linux_$arch/$f\$" <<<"$listing" || fail "$tarball has no $f"
done

step "the archives of every system (internal/tools/distcheck)"
lic=()
for f in LICENSE LICENSE.md LICENSE.txt COPYING; do if [ -f "$f" ]; then lic+=(-license "$f"); fi; done
"${GO:-go}" run ./internal/tools/distcheck "${lic[@]}" "$tmp/dist" || fail "the archives in $tmp/dist are not right (above)"
case $arch in
amd64 | arm64)
	for f in "$tmp/dist"/mark1_*_darwin_"$arch".tar.gz "$tmp/dist"/mark1_*_windows_"$arch".zip; do
		[ -f "$f" ] || fail "no $(basename "$f") in $tmp/dist"
	done
	;;
esac

step "the packages' Maintainer: the project's (packaging/maintainer)"
for p in "${pkgs[@]}"; do
	m=$(dpkg-deb -f "$(deb "$p")" Maintainer)
	[ "$m" = "$(head -n 1 packaging/maintainer)" ] || fail "$p's Maintainer is \"$m\", not packaging/maintainer's"
	dpkg-deb --fsys-tarfile "$(deb "$p")" | tar -xO "./usr/share/doc/$p/changelog.Debian.gz" | zcat | grep -qF -- " -- $m  " ||
		fail "$p's changelog is not signed by $m"
done

step "dpkg -i"
installed=1
dpkg_ -i "$(deb mark1)" "$(deb hwbridge)" ${pkgs[2]:+"$(deb mark1-museum)"}
for p in "${pkgs[@]}"; do
	[ "$(status "$p")" = installed ] || fail "$p: status $(status "$p") after dpkg -i"
done
lists=$tmp/lists
mkdir "$lists"
for p in "${pkgs[@]}"; do dpkg -L "$p" >"$lists/$p"; done
for f in /usr/bin/mark1 /usr/bin/hwbridge /usr/share/man/man1/mark1.1.gz /usr/share/doc/hwbridge/copyright; do
	[ -f "$f" ] || fail "$f not installed"
done

step "the user hwbridge, /etc/mark1 and the token"
getent passwd hwbridge >/dev/null || fail "no user hwbridge"
groups=" $(id -nG hwbridge) "
for g in hwbridge i2c gpio; do
	[[ $groups == *" $g "* ]] || fail "hwbridge is not in the group $g (groups:$groups)"
done
[ "$(mode /etc/mark1)" = "root:hwbridge 750" ] || fail "/etc/mark1 is $(mode /etc/mark1), want root:hwbridge 750"
[ "$(mode /etc/mark1/token)" = "hwbridge:hwbridge 600" ] || fail "/etc/mark1/token is $(mode /etc/mark1/token), want hwbridge:hwbridge 600"
token=$($sudo cat /etc/mark1/token)
[[ $token =~ ^[A-Za-z0-9+/=]{32}$ ]] || fail "/etc/mark1/token holds ${#token} characters, want 32 of base64"
dpkg-query -W -f='${Conffiles}\n' hwbridge | grep -q '^ /etc/mark1/rig.toml ' || fail "/etc/mark1/rig.toml is not a conffile"
$sudo cmp -s /etc/mark1/rig.toml testdata/rig/example.toml || fail "/etc/mark1/rig.toml is not testdata/rig/example.toml"
as nobody -- true || fail "cannot run a command as the user nobody"
if as nobody -- cat /etc/mark1/rig.toml >/dev/null 2>&1; then fail "another user can read /etc/mark1/rig.toml"; fi

step "the units"
unit=/lib/systemd/system/hwbridge.service
grep -q '^ExecStart=/usr/bin/hwbridge serve --rig /etc/mark1/rig.toml ' $unit || fail "$unit does not run /usr/bin/hwbridge"
grep -q '^ConditionPathExists=/dev/i2c-1$' $unit.d/debian.conf || fail "$unit.d/debian.conf has no condition on /dev/i2c-1"
wants=/etc/systemd/system/multi-user.target.wants/hwbridge.service
[ "$(readlink $wants)" = $unit ] || fail "hwbridge.service is not enabled ($wants)"
if [ "${#pkgs[@]}" = 3 ]; then
	grep -q '^ExecStart=/usr/bin/xinit /usr/bin/mark1-museum --kiosk ' /lib/systemd/system/mark1-museum.service ||
		fail "mark1-museum.service does not run /usr/bin/mark1-museum"
	if [ -e /etc/systemd/system/graphical.target.wants/mark1-museum.service ]; then fail "mark1-museum.service is enabled"; fi
fi
if [ -d /run/systemd/system ]; then
	[ "$(systemctl is-enabled hwbridge.service)" = enabled ] || fail "systemctl: hwbridge.service not enabled"
	if systemctl --quiet is-active hwbridge.service; then fail "hwbridge.service was started by the first install"; fi
else
	step "(systemd is not running here: the enablement is checked by its link only)"
fi
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify $unit 2>&1) || fail "systemd-analyze verify $unit: $out"
fi

step "mark1 demo"
out=$(cd "$tmp" && /usr/bin/mark1 demo) || fail "mark1 demo failed: $out"
grep -q '^The Mark I Perceptron learns builtin:letters: 208 cards, 26 classes\.$' <<<"$out" || fail "mark1 demo: no first line: $out"
grep -qE '^Training accuracy: analog [0-9.]+%, ideal [0-9.]+% \(' <<<"$out" || fail "mark1 demo: no accuracy line: $out"
grep -q '^What the analog retina saw, and what the machine answered:$' <<<"$out" || fail "mark1 demo: no retina: $out"
width=$(LC_ALL=C.UTF-8 wc -L <<<"$out")
[ "$width" -le 80 ] || fail "mark1 demo: lines $width columns wide, want at most 80"

if [ "${#pkgs[@]}" = 3 ]; then
	step "mark1 museum: the installed window, under Xvfb"
	if ldd /usr/bin/mark1-museum | grep 'not found'; then fail "mark1-museum misses libraries"; fi
	out=$(cd "$tmp" && xvfb-run -a -s "-screen 0 1280x720x24" /usr/bin/mark1 museum --state-dir "$tmp/museum" --screenshot "$tmp/museum.png" --frames 30 2>&1) ||
		fail "mark1 museum --screenshot failed: $out"
	head=$(od -An -tx1 -N16 "$tmp/museum.png" | tr -d ' \n')
	[ "$head" = 89504e470d0a1a0a0000000d49484452 ] || fail "mark1 museum --screenshot: not a PNG ($head)"
fi

step "hwbridge check and serve, as the user hwbridge"
as hwbridge -- /usr/bin/hwbridge check --rig /etc/mark1/rig.toml >/dev/null || fail "hwbridge check --rig /etc/mark1/rig.toml failed as hwbridge"
run=$tmp/run
mkdir "$run"
$sudo chown hwbridge: "$run"
# Not through the function as: $! must be the process that gets the signal.
$sudo setpriv --reuid=hwbridge --regid="$(id -g hwbridge)" --init-groups -- \
	/usr/bin/hwbridge serve --rig /etc/mark1/rig.toml --simulate --listen 127.0.0.1:0 \
	--addr-file "$run/addr" --token-file /etc/mark1/token >"$tmp/serve.log" 2>&1 &
server=$!
for _ in $(seq 240); do
	[ -s "$run/addr" ] && break
	kill -0 "$server" 2>/dev/null || fail "hwbridge serve ended: $(cat "$tmp/serve.log")"
	sleep 0.25
done
[ -s "$run/addr" ] || fail "hwbridge serve wrote no address in 60 s: $(cat "$tmp/serve.log")"
addr=$(cat "$run/addr")
code=$(curl -s -o /dev/null -w '%{http_code}' "http://$addr/v1/info")
[ "$code" = 401 ] || fail "GET /v1/info without the token: HTTP $code, want 401"
info=$(curl -sf -H "Authorization: Bearer $token" "http://$addr/v1/info") || fail "GET /v1/info with the token failed"
for want in '"rig":"rig.toml"' '"mode":"mirror"' '"simulate":true' '"update_hz":20'; do
	grep -qF "$want" <<<"$info" || fail "GET /v1/info: no $want in $info"
done
$sudo kill -TERM "$server" 2>/dev/null || true
code=0
wait "$server" || code=$?
server=""
[ "$code" = 0 ] || fail "hwbridge serve ended with status $code on SIGTERM: $(cat "$tmp/serve.log")"
grep -q 'stopping: parking the servos' "$tmp/serve.log" || fail "hwbridge serve did not park on SIGTERM: $(cat "$tmp/serve.log")"

step "dpkg -i again (an upgrade): the token and an edited rig file kept"
echo "# edited here" | $sudo tee -a /etc/mark1/rig.toml >/dev/null
dpkg_ -i "$(deb hwbridge)"
[ "$($sudo cat /etc/mark1/token)" = "$token" ] || fail "the token changed on reinstall"
$sudo tail -n 1 /etc/mark1/rig.toml | grep -q '^# edited here$' || fail "the edited rig file was replaced"
[ "$(mode /etc/mark1)" = "root:hwbridge 750" ] || fail "/etc/mark1 is $(mode /etc/mark1) after reinstall"

step "dpkg -r"
dpkg_ -r "${pkgs[@]}"
for p in "${pkgs[@]}"; do
	while read -r f; do
		case $f in /etc | /etc/*) continue ;; esac
		if [ -d "$f" ]; then continue; fi # /usr/bin, /lib (a link on a merged /usr), ...
		if [ -e "$f" ] || [ -L "$f" ]; then fail "$p: $f left after dpkg -r"; fi
	done <"$lists/$p"
done
[ "$(status hwbridge)" = config-files ] || fail "hwbridge: status $(status hwbridge) after dpkg -r, want config-files"
[ "$(status mark1)" = not-installed ] || fail "mark1: status $(status mark1) after dpkg -r, want not-installed"
left=$(dpkg -L hwbridge | grep -v '^/etc\(/\|$\)' || true)
[ -z "$left" ] || fail "dpkg -L hwbridge lists outside /etc after dpkg -r: $left"
$sudo tail -n 1 /etc/mark1/rig.toml | grep -q '^# edited here$' || fail "dpkg -r did not keep the edited rig file"
$sudo test -f /etc/mark1/token || fail "dpkg -r did not keep the token"

step "dpkg --purge"
conf=()
for p in "${pkgs[@]}"; do [ "$(status "$p")" = not-installed ] || conf+=("$p"); done
dpkg_ --purge "${conf[@]}"
installed=0
for p in "${pkgs[@]}"; do
	[ "$(status "$p")" = not-installed ] || fail "$p: status $(status "$p") after purge"
done
[ ! -e /etc/mark1 ] || fail "/etc/mark1 left after purge: $($sudo ls -A /etc/mark1)"
[ -z "$($sudo dpkg-statoverride --list /etc/mark1)" ] || fail "the stat override of /etc/mark1 left after purge"
for f in $wants /etc/systemd/system/hwbridge.service /var/lib/systemd/deb-systemd-helper-enabled/hwbridge.service.dsh-also \
	/var/lib/systemd/deb-systemd-helper-masked/hwbridge.service /var/lib/systemd/deb-systemd-helper-masked/mark1-museum.service; do
	if [ -e "$f" ] || [ -L "$f" ]; then fail "$f left after purge"; fi
done
step "ok: ${pkgs[*]} ($arch) installed, used, removed and purged"
