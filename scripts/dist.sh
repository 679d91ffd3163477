#!/usr/bin/env bash
# dist.sh [--out DIR] [--lint] [--no-museum] [ARCH...]: the release archives and Debian packages
# (make dist).
#
# For each ARCH (amd64, arm64, armhf; all three by default), into DIR (dist/ by default):
#   mark1_VERSION_linux_ARCH.tar.gz   the binaries, README.md, LICENSE (if the repository has
#                                     one), COPYRIGHT (the Go modules' licenses), the example
#                                     rig file, the systemd units as in the repository (they
#                                     run /usr/local/bin/...) and the rig, kiosk and museum docs
#   mark1_DEBVER_ARCH.deb             mark1 (no cgo)
#   hwbridge_DEBVER_ARCH.deb          hwbridge (no cgo), its unit, /etc/mark1 (packaging/hwbridge)
#   mark1-museum_DEBVER_ARCH.deb      amd64 and arm64 only: the window (cgo) and the kiosk unit
#                                     (--no-museum: neither it nor the window in the archive)
# and, for amd64 and arm64, mark1 alone for the other systems (no cgo: the same program):
#   mark1_VERSION_darwin_ARCH.tar.gz  macOS: mark1, README.md, LICENSE (if any), COPYRIGHT
#   mark1_VERSION_windows_ARCH.zip    Windows: mark1.exe, README.md, LICENSE (if any), COPYRIGHT
#                                     (not signed)
# and SHA256SUMS. armhf is built with GOARM=6, so it runs on Raspberry Pi OS's 32-bit armhf
# (ARMv6, the Pi 1 and Zero) as well as on Debian's (ARMv7). internal/tools/distcheck checks
# the archives (scripts/dist-test.sh runs it).
#
# mark1-museum needs cgo: natively with gcc and the X and GL headers; for another ARCH with the
# cross compiler and the headers of that architecture (Debian multiarch: the script adds ARCH to
# dpkg's architectures and installs gcc-TRIPLET and libgl1-mesa-dev:ARCH etc., saying so).
#
# VERSION: git describe --tags --match 'v[0-9]*': a tag v1.2.0 gives 1.2.0, a later commit
# 1.2.0+gitYYYYMMDD.HHMMSS.HASH, no tag 0.0.0~gitYYYYMMDD.HHMMSS.HASH (the commit's UTC time:
# later commits sort later, and ~ sorts before any release), with +dirty when the working tree
# differs from the commit; DEBVER is VERSION-1. $MARK1_VERSION overrides VERSION. The packages'
# Maintainer is the project's, one line in packaging/maintainer ("Name <address>"; not a
# commit's author, who changes from commit to commit), or $MARK1_MAINTAINER; an address on a
# reserved domain (.example, .invalid, .test, localhost) or a no-reply one is said as a warning:
# a release's packages need an address that reaches the maintainers. File times are the commit's time (SOURCE_DATE_EPOCH): a clean tree builds
# the same archives, byte for byte.
#
# --lint runs lintian on the packages (installing it), failing on errors and warnings: the
# packages ship their lintian overrides, each with its reason (packaging/*/lintian-overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}

usage() { sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "dist: $*" >&2; exit 1; }

out=dist lint=0 nomuseum=0 archs=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) [ $# -ge 2 ] || die "--out needs a DIR"; out=$2; shift 2 ;;
	--lint) lint=1; shift ;;
	--no-museum) nomuseum=1; shift ;;
	-h | --help) usage; exit 0 ;;
	amd64 | arm64 | armhf) archs+=("$1"); shift ;;
	*) die "unknown argument $1 (want --out DIR, --lint, --no-museum, amd64, arm64, armhf)" ;;
	esac
done
[ ${#archs[@]} -gt 0 ] || archs=(amd64 arm64 armhf)
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian's dpkg)"

sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi

# --- version -----------------------------------------------------------------------------
commit=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
if [ -n "${MARK1_VERSION:-}" ]; then
	version=$MARK1_VERSION
elif [ "$commit" = unknown ]; then
	version=0.0.0~unknown
else
	stamp=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d.%H%M%S HEAD)
	desc=$(git describe --tags --always --match 'v[0-9]*' HEAD)
	case $desc in
	v[0-9]*-[0-9]*-g*) base=${desc%-*-g*}; version="${base#v}+git$stamp.$commit" ;;
	v[0-9]*) version=${desc#v} ;;
	*) version="0.0.0~git$stamp.$commit" ;;
	esac
	version=${version//-/\~} # v1.0.0-rc1: 1.0.0~rc1, before 1.0.0
	if [ -n "$(git status --porcelain 2>/dev/null)" ]; then version="$version+dirty"; fi
fi
debver="$version-1"
src="packaging/maintainer, line 1" maintainer=$(head -n 1 packaging/maintainer)
if [ -n "${MARK1_MAINTAINER:-}" ]; then src=\$MARK1_MAINTAINER maintainer=$MARK1_MAINTAINER; fi
# Name <user@domain>, without the characters sed's s|||, a control file or a changelog trip on.
if ! [[ $maintainer =~ ^[^\<\>@\|\&\\]*[^\<\>@\|\&\\\ ]\ \<[^\<\>@\|\&\\\ ]+@[^\<\>@\|\&\\\ ]+\.[^\<\>@\|\&\\\ ]+\>$ ]]; then
	die "the Maintainer ($src): \"$maintainer\" is not \"Name <user@domain>\""
fi
case ${maintainer##*@} in
*.example\> | *.invalid\> | *.test\> | localhost\> | *noreply*)
	echo "dist: warning: the packages' Maintainer ($src), $maintainer, is no address that reaches anyone: name a real one before a release" >&2 ;;
esac
echo "dist: version $version (Debian $debver), commit $commit, into $out/: ${archs[*]}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out"
abs=$(cd "$out" && pwd)
rm -f "$out"/mark1_*.tar.gz "$out"/mark1_*.zip "$out"/*.deb "$out"/SHA256SUMS
if printf '%s\n' "${archs[@]}" | grep -qx 'amd64\|arm64'; then bash scripts/need.sh zip; fi

# --- building ----------------------------------------------------------------------------
goarch() {
	case $1 in
	amd64) echo "GOARCH=amd64" ;;
	arm64) echo "GOARCH=arm64" ;;
	armhf) echo "GOARCH=arm GOARM=6" ;;
	esac
}
hostarch=$(dpkg --print-architecture)
triplet() {
	case $1 in
	amd64) echo x86_64-linux-gnu ;;
	arm64) echo aarch64-linux-gnu ;;
	esac
}
# The window's build dependencies (the Makefile's museum-deps), for ARCH ($1).
museumdevs=(libgl1-mesa-dev libx11-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev)
museumcc() {
	local arch=$1 t
	if [ "$arch" = "$hostarch" ]; then
		bash scripts/need.sh gcc libc6-dev "${museumdevs[@]}"
		echo gcc
		return
	fi
	t=$(triplet "$arch")
	if ! dpkg --print-foreign-architectures | grep -qx "$arch" && [ "$(dpkg --print-architecture)" != "$arch" ]; then
		echo "dist: adding the $arch architecture to dpkg (multiarch) for mark1-museum's cross-build" >&2
		$sudo dpkg --add-architecture "$arch"
	fi
	bash scripts/need.sh "gcc-$t" "libc6-dev:$arch" "${museumdevs[@]/%/:$arch}"
	echo "$t-gcc"
}

ldflags='-s -w -buildid='
# A cgo build (the window) is hardened as Debian builds C: PIE, full RELRO, stack protector,
# fortified functions. Without cgo a Go program is static and needs none of it.
hardcflags="-O2 -g -fstack-protector-strong -fstack-clash-protection -D_FORTIFY_SOURCE=2"
hardldflags="-Wl,-z,relro -Wl,-z,now"
build() { # build ARCH CMD CGO [CC]: the binary in $stage/ARCH/CMD
	local arch=$1 cmd=$2 cgo=$3 cc=${4:-} mode=()
	echo "dist: building $cmd for $arch"
	if [ "$cgo" = 1 ]; then mode=(-buildmode=pie); fi
	# shellcheck disable=SC2046
	env GOOS=linux $(goarch "$arch") CGO_ENABLED="$cgo" ${cc:+CC=$cc} \
		CGO_CFLAGS="$hardcflags" CGO_LDFLAGS="$hardldflags" \
		"$go" build -trimpath "${mode[@]}" -ldflags="$ldflags" -o "$stage/$arch/$cmd" "./cmd/$cmd"
}

# The host's mark1 and hwbridge print the help the manual pages are made of.
mkdir -p "$stage/host"
CGO_ENABLED=0 "$go" build -trimpath -o "$stage/host/" ./cmd/mark1 ./cmd/hwbridge

# --- documents ---------------------------------------------------------------------------
# roff TEXT-ON-STDIN: lines for a .nf block, escaped.
roff() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"; }
# manpage PROG SECTION SUMMARY: a manual page from PROG's help and its commands' help.
manpage() {
	local prog=$1 sec=$2 summary=$3 bin=$stage/host/$1 date c
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
	echo ".TH ${prog^^} $sec $date \"mark1 $version\" \"mark1\""
	echo ".SH NAME"
	echo "$prog \\- $summary" | sed 's/\([^\\]\)-/\1\\-/g'
	echo ".SH SYNOPSIS"
	echo ".B $prog"
	echo ".I COMMAND"
	echo "[flags]"
	echo ".SH DESCRIPTION"
	echo "This page is the program's own help (\\fB$prog help\\fR, \\fB$prog COMMAND \\-h\\fR)."
	echo ".PP"
	echo ".nf"
	"$bin" help | roff
	echo ".fi"
	echo ".SH COMMANDS"
	for c in $("$bin" help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }'); do
		echo ".SS $c"
		echo ".nf"
		"$bin" "$c" -h 2>&1 | roff
		echo ".fi"
	done
	echo ".SH SEE ALSO"
	echo "https://github.com/mark1\\-perceptron/mark1, and /usr/share/doc/$prog/."
}
museumpage() {
	local date
	date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
	echo ".TH MARK1\\-MUSEUM 1 $date \"mark1 $version\" \"mark1\""
	echo ".SH NAME"
	echo "mark1\\-museum \\- the Mark I Perceptron museum window and kiosk"
	echo ".SH SYNOPSIS"
	echo ".B mark1\\-museum"
	echo "[\\fB\\-\\-kiosk\\fR] [\\fB\\-\\-fullscreen\\fR] [flags]"
	echo ".SH DESCRIPTION"
	echo "A full\\-screen Mark I Perceptron that visitors watch learn, draw on and teach."
	echo "It needs an X display (or XWayland); \\fBmark1 museum\\fR runs it:"
	echo ".PP"
	echo ".nf"
	"$stage/host/mark1" museum -h 2>&1 | roff
	echo ".fi"
	echo ".PP"
	echo "The kiosk unit mark1\\-museum.service runs it full screen on its own X server on tty7."
	echo ".SH SEE ALSO"
	echo "\\fBmark1\\fR(1), /usr/share/doc/mark1\\-museum/kiosk.md.gz, /usr/share/doc/mark1\\-museum/museum.md.gz."
}

# licenses deb|tar BIN...: the copyright notice: mark1's own, then Go's and every Go module's
# license as built into BIN. For a package (deb), the Apache License 2.0's text is the one in
# /usr/share/common-licenses, as Debian's policy (12.5) asks; the archive has every text.
licenses() {
	local kind=$1 lic mod ver dir f found gpl=0 text
	shift
	echo "mark1, an emulator of the Mark I Perceptron, and its hardware bridge and museum window."
	echo "Source: https://github.com/mark1-perceptron/mark1 (commit $commit)."
	echo
	lic=""
	for f in LICENSE LICENSE.md LICENSE.txt COPYING; do if [ -f "$f" ]; then lic=$f && break; fi; done
	if [ -n "$lic" ]; then
		echo "mark1's own code is under this license ($lic):"
		echo
		cat "$lic"
	else
		echo "The mark1 sources carried no license file when this was built."
	fi
	echo
	echo "The programs are compiled with Go and the Go modules below; each one's license follows."
	echo
	echo "==> Go $("$go" env GOVERSION) (the standard library and runtime): LICENSE"
	echo
	cat "$("$go" env GOROOT)/LICENSE"
	while read -r mod ver; do
		dir=$("$go" mod download -json "$mod@$ver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		[ -n "$dir" ] || die "no source for $mod@$ver"
		found=0
		for f in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/COPYING* "$dir"/NOTICE*; do
			[ -f "$f" ] || continue
			found=1
			echo
			echo "==> $mod $ver: ${f#"$dir"/}"
			echo
			text=$(cat "$f")
			if [ "$kind" = deb ] && grep -q 'Apache License' <<<"$text" && grep -q 'Version 2.0, January 2004' <<<"$text"; then
				grep -E '^ *Copyright +(\([cC]\) +|© *)?[0-9]' <<<"$text" || true
				echo "Licensed under the Apache License, Version 2.0: on Debian systems its text is in"
				echo "/usr/share/common-licenses/Apache-2.0."
			else
				echo "$text"
			fi
			if grep -q 'GPL\|General Public License' <<<"$text"; then gpl=1; fi
		done
		[ "$found" = 1 ] || die "$mod@$ver has no license file"
	done < <("$go" version -m "$@" | awk '$1 == "dep" || $1 == "=>" { print $2, $3 }' | sort -u)
	if [ "$kind" = deb ] && [ "$gpl" = 1 ]; then
		echo
		echo "On Debian systems the GNU General Public License named above (an alternative, not"
		echo "chosen here) is in /usr/share/common-licenses/GPL-2 and GPL-3."
	fi
}

changelog() { # changelog PKG
	echo "mark1 ($debver) unstable; urgency=medium"
	echo
	echo "  * Built by scripts/dist.sh from mark1 commit $commit."
	echo
	echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
}

# deb PKG ARCH ROOT: the package from the tree ROOT and packaging/PKG.
deb() {
	local pkg=$1 arch=$2 tree=$3 depends=${4:-} size f
	local doc=$tree/usr/share/doc/$pkg
	mkdir -p "$doc" "$tree/DEBIAN"
	changelog "$pkg" | gzip -9n >"$doc/changelog.Debian.gz"
	if [ -f "packaging/$pkg/lintian-overrides" ]; then
		install -D -m 644 "packaging/$pkg/lintian-overrides" "$tree/usr/share/lintian/overrides/$pkg"
	fi
	find "$tree" -type d -exec chmod 755 {} +
	size=$(du -sk --apparent-size --exclude=DEBIAN "$tree" | cut -f1)
	sed -e "s/@VERSION@/$debver/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
		-e "s|@MAINTAINER@|$maintainer|" -e "s/@DEPENDS@/$depends/" \
		"packaging/$pkg/control.in" >"$tree/DEBIAN/control"
	for f in postinst prerm postrm; do
		if [ -f "packaging/$pkg/$f" ]; then install -m 755 "packaging/$pkg/$f" "$tree/DEBIAN/$f"; fi
	done
	if [ -d "$tree/etc" ]; then
		(cd "$tree" && find etc -type f | sort | sed 's|^|/|') >"$tree/DEBIAN/conffiles"
	fi
	(cd "$tree" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort |
		xargs -r -d '\n' md5sum) >"$tree/DEBIAN/md5sums"
	find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	dpkg-deb --root-owner-group -Zxz --build "$tree" "$out/${pkg}_${debver}_$arch.deb" >/dev/null
	echo "dist: $out/${pkg}_${debver}_$arch.deb"
}

# unit SRC DST BIN: the repository's unit with /usr/local/bin/ made /usr/bin/, checked; its
# opening comments (how to install it by hand) give way to the package's.
unit() {
	install -D -m 644 /dev/null "$2"
	{
		echo "# ${2##*/}: mark1's $1, as the Debian package $3 installs it"
		echo "# (scripts/dist.sh): it runs /usr/bin/$3. Change it with: sudo systemctl edit ${2##*/}"
		sed -e '1,/^\[/{/^#/d}' -e 's|/usr/local/bin/|/usr/bin/|g' "$1"
	} >"$2"
	grep -q "^ExecStart=.*/usr/bin/$3 " "$2" || die "$1: no ExecStart running /usr/bin/$3 after the rewrite"
}

gzdoc() { install -D -m 644 /dev/null "$2.gz" && gzip -9n <"$1" >"$2.gz"; }

# tarball NAME: $stage/tar/NAME as $out/NAME.tar.gz, the same bytes from the same files.
tarball() {
	tar -C "$stage/tar" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
		--mode=go-w -cf - "$1" | gzip -9n >"$out/$1.tar.gz"
	echo "dist: $out/$1.tar.gz"
}

# --- per architecture --------------------------------------------------------------------
for arch in "${archs[@]}"; do
	build "$arch" mark1 0
	build "$arch" hwbridge 0
	museum=0
	case $arch in amd64 | arm64) [ "$nomuseum" = 1 ] || museum=1 ;; esac
	if [ "$museum" = 1 ]; then
		cc=$(museumcc "$arch")
		build "$arch" mark1-museum 1 "$cc"
	fi
	bin=$stage/$arch

	# mark1
	t=$stage/deb/mark1_$arch
	install -D -m 755 "$bin/mark1" "$t/usr/bin/mark1"
	manpage mark1 1 "an emulator of the Mark I Perceptron (1958-60)" | gzip -9n | install -D -m 644 /dev/stdin "$t/usr/share/man/man1/mark1.1.gz"
	licenses deb "$bin/mark1" | install -D -m 644 /dev/stdin "$t/usr/share/doc/mark1/copyright"
	gzdoc README.md "$t/usr/share/doc/mark1/README.md"
	deb mark1 "$arch" "$t"

	# hwbridge
	t=$stage/deb/hwbridge_$arch
	install -D -m 755 "$bin/hwbridge" "$t/usr/bin/hwbridge"
	manpage hwbridge 1 "the mark1 hardware bridge (Raspberry Pi rig)" | gzip -9n | install -D -m 644 /dev/stdin "$t/usr/share/man/man1/hwbridge.1.gz"
	licenses deb "$bin/hwbridge" | install -D -m 644 /dev/stdin "$t/usr/share/doc/hwbridge/copyright"
	gzdoc docs/rig.md "$t/usr/share/doc/hwbridge/rig.md"
	unit scripts/hwbridge.service "$t/lib/systemd/system/hwbridge.service" hwbridge
	install -D -m 644 packaging/hwbridge/debian.conf "$t/lib/systemd/system/hwbridge.service.d/debian.conf"
	install -D -m 644 testdata/rig/example.toml "$t/etc/mark1/rig.toml"
	deb hwbridge "$arch" "$t"

	# mark1-museum
	if [ "$museum" = 1 ]; then
		t=$stage/deb/mark1-museum_$arch
		install -D -m 755 "$bin/mark1-museum" "$t/usr/bin/mark1-museum"
		museumpage | gzip -9n | install -D -m 644 /dev/stdin "$t/usr/share/man/man1/mark1-museum.1.gz"
		licenses deb "$bin/mark1-museum" | install -D -m 644 /dev/stdin "$t/usr/share/doc/mark1-museum/copyright"
		gzdoc docs/kiosk.md "$t/usr/share/doc/mark1-museum/kiosk.md"
		gzdoc docs/museum.md "$t/usr/share/doc/mark1-museum/museum.md"
		unit docs/kiosk-mark1-museum.service "$t/lib/systemd/system/mark1-museum.service" mark1-museum
		# The libraries it links (libX11, libc) and those GLFW and ebiten open at run time.
		glibc=$(readelf -W --dyn-syms "$bin/mark1-museum" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
		deb mark1-museum "$arch" "$t" "libc6 (>= $glibc), libgl1, libx11-6, libx11-xcb1, libxcursor1, libxi6, libxinerama1, libxrandr2, libxxf86vm1, libasound2 | libasound2t64"
	fi

	# The archive.
	name=mark1_${version}_linux_$arch
	a=$stage/tar/$name
	mkdir -p "$a/systemd" "$a/docs"
	install -m 755 "$bin"/* "$a/"
	install -m 644 README.md "$a/"
	for f in LICENSE LICENSE.md LICENSE.txt COPYING; do [ -f "$f" ] && install -m 644 "$f" "$a/"; done
	licenses tar "$bin"/* >"$a/COPYRIGHT"
	install -m 644 testdata/rig/example.toml "$a/rig.toml"
	install -m 644 scripts/hwbridge.service "$a/systemd/hwbridge.service"
	install -m 644 docs/kiosk-mark1-museum.service "$a/systemd/mark1-museum.service"
	install -m 644 docs/rig.md docs/kiosk.md docs/museum.md "$a/docs/"
	tarball "$name"

	# mark1 for macOS and Windows.
	case $arch in amd64 | arm64) ;; *) continue ;; esac
	for os in darwin windows; do
		exe=mark1
		if [ "$os" = windows ]; then exe=mark1.exe; fi
		echo "dist: building mark1 for $os $arch"
		env GOOS=$os GOARCH=$arch CGO_ENABLED=0 \
			"$go" build -trimpath -ldflags="$ldflags" -o "$stage/$os-$arch/$exe" ./cmd/mark1
		name=mark1_${version}_${os}_$arch
		a=$stage/tar/$name
		mkdir -p "$a"
		install -m 755 "$stage/$os-$arch/$exe" "$a/"
		install -m 644 README.md "$a/"
		for f in LICENSE LICENSE.md LICENSE.txt COPYING; do [ -f "$f" ] && install -m 644 "$f" "$a/"; done
		licenses tar "$stage/$os-$arch/$exe" >"$a/COPYRIGHT"
		if [ "$os" = windows ]; then
			# The zip: its entries in order, each with the commit's time (in UTC), no extra fields.
			find "$a" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
			rm -f "$out/$name.zip"
			(cd "$stage/tar" && find "$name" | LC_ALL=C sort | TZ=UTC zip -X -9 -q -@ "$abs/$name.zip")
			echo "dist: $out/$name.zip"
		else
			tarball "$name"
		fi
	done
done

(cd "$out" && sha256sum -- *.tar.gz $(compgen -G '*.zip' || true) *.deb >SHA256SUMS)

if [ "$lint" = 1 ]; then
	bash scripts/need.sh lintian
	echo "dist: lintian"
	lintian --fail-on error,warning --display-info "$out"/*.deb
fi

echo "dist: done:"
(cd "$out" && ls -l -- *.tar.gz $(compgen -G '*.zip' || true) *.deb | awk '{ printf "  %9d  %s\n", $5, $9 }')
