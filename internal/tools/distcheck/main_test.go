package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// A stand-in for mark1: it prints mark1's usage line, or, built with -ldflags -X
// main.say=..., something else.
const standIn = `package main

import "fmt"

var say = "usage: mark1 COMMAND [flags]"

func main() { fmt.Println(say) }
`

var (
	buildMu sync.Mutex
	built   = map[string][]byte{}
)

// program returns the stand-in compiled for goos and arch (armhf: GOARCH=arm), saying say
// when not "".
func program(t *testing.T, goos, arch, say string) []byte {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	key := goos + "/" + arch + "/" + say
	if b, ok := built[key]; ok {
		return b
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module standin\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(standIn), 0o644); err != nil {
		t.Fatal(err)
	}
	goarch := arch
	if arch == "armhf" {
		goarch = "arm"
	}
	out := filepath.Join(dir, "prog")
	args := []string{"build", "-trimpath", "-o", out}
	if say != "" {
		args = append(args, "-ldflags=-X main.say="+say)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for %s: %v\n%s", key, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	built[key] = b
	return b
}

// entry is a file of an archive to write.
type entry struct {
	name string
	data []byte
	mode int64
}

func writeArchive(t *testing.T, path string, files []entry) {
	t.Helper()
	var b bytes.Buffer
	if strings.HasSuffix(path, ".zip") {
		zw := zip.NewWriter(&b)
		for _, f := range files {
			h := &zip.FileHeader{Name: f.name, Method: zip.Deflate}
			h.SetMode(os.FileMode(f.mode))
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(f.data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	} else {
		gz := gzip.NewWriter(&b)
		tw := tar.NewWriter(gz)
		for _, f := range files {
			if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
				t.Fatal(err)
			}
			tw.Write(f.data)
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		gz.Close()
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// release is a release folder's archives: name -> files (paths within the top folder).
type release map[string][]entry

// goodRelease is what dist.sh writes, for amd64 and arm64, with stand-in programs.
func goodRelease(t *testing.T) release {
	r := release{}
	text := func(s string) []byte { return []byte(s + "\n") }
	for _, arch := range []string{"amd64", "arm64"} {
		r["mark1_1.0.0_linux_"+arch+".tar.gz"] = []entry{
			{"mark1", program(t, "linux", arch, ""), 0o755}, {"hwbridge", program(t, "linux", arch, ""), 0o755},
			{"README.md", text("readme"), 0o644}, {"COPYRIGHT", text("licenses"), 0o644}, {"LICENSE", text("license"), 0o644},
			{"rig.toml", text("rig"), 0o644}, {"systemd/hwbridge.service", text("unit"), 0o644}, {"systemd/mark1-museum.service", text("unit"), 0o644},
			{"docs/rig.md", text("rig"), 0o644}, {"docs/kiosk.md", text("kiosk"), 0o644}, {"docs/museum.md", text("museum"), 0o644},
		}
		r["mark1_1.0.0_darwin_"+arch+".tar.gz"] = []entry{
			{"mark1", program(t, "darwin", arch, ""), 0o755}, {"README.md", text("readme"), 0o644}, {"COPYRIGHT", text("licenses"), 0o644}, {"LICENSE", text("license"), 0o644},
		}
		r["mark1_1.0.0_windows_"+arch+".zip"] = []entry{
			{"mark1.exe", program(t, "windows", arch, ""), 0o755}, {"README.md", text("readme"), 0o644}, {"COPYRIGHT", text("licenses"), 0o644}, {"LICENSE", text("license"), 0o644},
		}
	}
	return r
}

// write writes the release's archives, each file in its top folder, and SHA256SUMS into a new
// folder, after change (which may edit the sums' text).
func (r release) write(t *testing.T, sums func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for name := range r {
		names = append(names, name)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, name := range names {
		top := strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip")
		var files []entry
		for _, f := range r[name] {
			if !strings.HasPrefix(f.name, "/") {
				f.name = top + "/" + f.name
			} else {
				f.name = f.name[1:]
			}
			files = append(files, f)
		}
		p := filepath.Join(dir, name)
		writeArchive(t, p, files)
		b, _ := os.ReadFile(p)
		fmt.Fprintf(&list, "%x  %s\n", sha256.Sum256(b), name)
	}
	s := list.String()
	if sums != nil {
		s = sums(s)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheck(t *testing.T) {
	good := goodRelease(t)
	var out bytes.Buffer
	if err := Check(good.write(t, nil), []string{"LICENSE"}, &out); err != nil {
		t.Fatalf("a good release: %v", err)
	}
	if n := strings.Count(out.String(), "\n"); n != 6 {
		t.Errorf("%d lines, want one for each of the 6 archives:\n%s", n, out.String())
	}
	if runtime.GOOS == "linux" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") && !strings.Contains(out.String(), "linux_"+runtime.GOARCH+".tar.gz: 11 files, mark1, hwbridge for linux "+runtime.GOARCH+"; mark1 help ran here") {
		t.Errorf("the program of this computer was not run:\n%s", out.String())
	}

	// edit returns a copy of the good release with archive name's files changed by f.
	edit := func(name string, f func([]entry) []entry) release {
		r := release{}
		for k, v := range good {
			r[k] = append([]entry(nil), v...)
		}
		r[name] = f(r[name])
		return r
	}
	set := func(file string, data []byte, mode int64) func([]entry) []entry {
		return func(es []entry) []entry {
			for i := range es {
				if es[i].name == file {
					es[i].data, es[i].mode = data, mode
				}
			}
			return es
		}
	}
	drop := func(file string) func([]entry) []entry {
		return func(es []entry) []entry {
			var out []entry
			for _, e := range es {
				if e.name != file {
					out = append(out, e)
				}
			}
			return out
		}
	}
	add := func(e entry) func([]entry) []entry { return func(es []entry) []entry { return append(es, e) } }
	host := "mark1_1.0.0_linux_" + runtime.GOARCH + ".tar.gz"
	for _, c := range []struct {
		name string
		r    release
		sums func(string) string
		want string
	}{
		{"a Linux program in the zip", edit("mark1_1.0.0_windows_amd64.zip", set("mark1.exe", program(t, "linux", "amd64", ""), 0o755)), nil,
			"windows_amd64.zip: mark1.exe: not a PE file"},
		{"the other processor's PE", edit("mark1_1.0.0_windows_arm64.zip", set("mark1.exe", program(t, "windows", "amd64", ""), 0o755)), nil,
			"windows_arm64.zip: mark1.exe: a PE for machine 0x8664"},
		{"the other processor's Mach-O", edit("mark1_1.0.0_darwin_arm64.tar.gz", set("mark1", program(t, "darwin", "amd64", ""), 0o755)), nil,
			"darwin_arm64.tar.gz: mark1: a Mach-O"},
		{"a Mach-O for Linux", edit("mark1_1.0.0_linux_arm64.tar.gz", set("hwbridge", program(t, "darwin", "arm64", ""), 0o755)), nil,
			"linux_arm64.tar.gz: hwbridge: not an ELF file"},
		{"32-bit ARM for arm64", edit("mark1_1.0.0_linux_arm64.tar.gz", set("mark1", program(t, "linux", "armhf", ""), 0o755)), nil,
			"want an executable for EM_AARCH64"},
		{"not executable", edit("mark1_1.0.0_darwin_amd64.tar.gz", set("mark1", program(t, "darwin", "amd64", ""), 0o644)), nil,
			"darwin_amd64.tar.gz: mark1: mode 644"},
		{"no README", edit("mark1_1.0.0_darwin_amd64.tar.gz", drop("README.md")), nil, "darwin_amd64.tar.gz: no README.md"},
		{"no license", edit("mark1_1.0.0_windows_amd64.zip", drop("LICENSE")), nil, "windows_amd64.zip: no LICENSE"},
		{"an extra file", edit("mark1_1.0.0_windows_amd64.zip", add(entry{"notes.txt", []byte("x"), 0o644})), nil, "holds COPYRIGHT LICENSE README.md mark1.exe notes.txt"},
		{"outside the folder", edit("mark1_1.0.0_darwin_amd64.tar.gz", add(entry{"/evil", []byte("x"), 0o644})), nil, "evil is not in the folder"},
		{"a program that is not mark1", edit(host, set("mark1", program(t, "linux", runtime.GOARCH, "hello"), 0o755)), nil, "mark1 help: printed \"hello\\n\""},
		{"a wrong sum", good, func(s string) string { return strings.Replace(s, s[:8], "00000000", 1) }, "its SHA-256 is not SHA256SUMS's"},
		{"not listed", good, func(s string) string { return s[strings.Index(s, "\n")+1:] }, "not in SHA256SUMS"},
		{"listed, not there", good, func(s string) string { return s + strings.Repeat("ab", 32) + "  mark1_1.0.0_linux_armhf.tar.gz\n" }, "linux_armhf.tar.gz: in SHA256SUMS, not in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "a program that is not mark1" && runtime.GOOS != "linux" {
				t.Skip("runs a Linux program")
			}
			err := Check(c.r.write(t, c.sums), []string{"LICENSE"}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check: %v, want an error with %q", err, c.want)
			}
		})
	}
}
