#!/usr/bin/env bash
# museum-shots.sh [DIR]: the screenshots of docs/museum.md's "Languages and large text", made
# from the real window (mark1-museum --screenshot) under Xvfb at 1920x1080: the exhibit in
# English, German, French and Spanish, and in German with large text, each set by a curator's
# file (exhibit.language, exhibit.large_text) on a machine pretrained 2 epochs (the caption
# then tells a card, its answer and the motors). Written to DIR (default docs/images) as
# museum-LANG.png and museum-de-large.png at half size (960x540), the large text's top left
# quarter at full size (museum-de-large-detail.png), and the French screen with the camera's
# panel (museum-fr-camera.png, a recorded E as the camera), made small with pngquant and
# optipng. Installs what it needs with scripts/need.sh. Look at every picture after: the
# tests measure the text (view/access_test.go), a person reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
out=${1:-docs/images}
bash scripts/need.sh gcc libc6-dev pkg-config libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev \
	libxrandr-dev libxxf86vm-dev libasound2-dev xvfb xauth ffmpeg pngquant optipng
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$go" build -o "$tmp/mark1-museum" ./cmd/mark1-museum
mkdir -p "$out"

# shot NAME LANG LARGE [CAMERA]: one screenshot of the window, half size (CAMERA: a .y4m
# played as the camera, whose panel then stands beside the machine).
shot() {
	local name=$1 lang=$2 large=$3 cam=${4:-}
	local camera='on = false'
	[ -z "$cam" ] || camera=$(printf 'on = true\ndevice = "file:%s"' "$cam")
	# No status endpoint: a shot listens on no port (a kiosk's may be on the default one).
	printf '[exhibit]\nlanguage = "%s"\nlarge_text = %s\n\n[camera]\n%s\n\n[sound]\non = false\n\n[staff]\nstatus_addr = ""\n' \
		"$lang" "$large" "$camera" >"$tmp/$name.toml"
	xvfb-run -a -s "-screen 0 1920x1080x24" "$tmp/mark1-museum" --curator "$tmp/$name.toml" \
		--state-dir "" --attract 0 --pretrain 2 --screenshot "$tmp/$name.png" --frames 60
	ffmpeg -v error -y -i "$tmp/$name.png" -vf scale=iw/2:ih/2:flags=area "$tmp/$name-half.png"
	small "$tmp/$name-half.png" "$out/$name.png"
}

# small IN OUT: IN made small (pngquant, optipng) as OUT.
small() {
	pngquant --force --quality 70-95 --output "$2" "$1"
	optipng -quiet -o2 "$2"
	echo "museum-shots: $2 ($(stat -c %s "$2") bytes)"
}

shot museum-en en false
shot museum-de de false
shot museum-fr fr false
shot museum-es es false
shot museum-de-large de true
# The large text at full size: the top left quarter of the screen, pixel for pixel.
ffmpeg -v error -y -i "$tmp/museum-de-large.png" -vf crop=960:540:0:0 "$tmp/large-detail.png"
small "$tmp/large-detail.png" "$out/museum-de-large-detail.png"
# The camera panel speaks the screen's language: a recorded E (as in docs/kiosk.md), in French.
ffmpeg -v error -y -f lavfi -i "color=c=0xe0e0e0:s=320x240:r=30:d=2,drawbox=x=110:y=50:w=26:h=140:c=0x202020:t=fill,drawbox=x=110:y=50:w=110:h=24:c=0x202020:t=fill,drawbox=x=110:y=108:w=90:h=24:c=0x202020:t=fill,drawbox=x=110:y=166:w=110:h=24:c=0x202020:t=fill" \
	-pix_fmt yuv420p "$tmp/letter-e.y4m"
shot museum-fr-camera fr false "$tmp/letter-e.y4m"
