package audio

import (
	"os"
	"runtime"
	"strings"
)

// HaveDevice reports whether this computer can play sound, as far as can be told without
// opening it: on Linux, whether ALSA lists a playback device (/proc/asound/pcm); elsewhere,
// yes. The window asks before it starts ebiten's audio, whose failure to open a device would
// end the program.
func HaveDevice() bool {
	if runtime.GOOS != "linux" {
		return true
	}
	b, err := os.ReadFile("/proc/asound/pcm")
	return err == nil && strings.Contains(string(b), "playback")
}
