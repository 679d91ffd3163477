// Command distcheck checks the release archives scripts/dist.sh writes (make dist), as a user
// of each system would find them, without that system: scripts/dist-test.sh runs it.
//
// Usage:
//
//	go run ./internal/tools/distcheck [-license FILE]... DIR
//
// In DIR, SHA256SUMS must name every archive and package there, each with its SHA-256. Each
// archive mark1_VERSION_OS_ARCH (a .tar.gz for linux and darwin, a .zip for windows) must hold
// one folder of its own name, with README.md, COPYRIGHT (the Go modules' licenses), each -license
// file (the repository's LICENSE or COPYING, when it has one) and the programs: for linux mark1
// and hwbridge (and mark1-museum, when there), the rig example, the systemd units and the docs;
// for darwin mark1; for windows mark1.exe. Each program must be an executable of its system
// and processor: an ELF (debug/elf) for linux, a Mach-O (debug/macho) for darwin, a console PE
// (debug/pe) for windows, for x86-64, arm64 or 32-bit ARM as ARCH says, and, in a tar, have
// its execute bits. A program this computer can run (its system and processor) is run: `mark1
// help` must print mark1's usage. It prints a line for each archive and exits 1 at the first
// archive found wrong, naming what is wrong.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/webdist"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// licenses are the -license files.
type licenses []string

func (l *licenses) String() string     { return strings.Join(*l, ",") }
func (l *licenses) Set(s string) error { *l = append(*l, s); return nil }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("distcheck", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var lic licenses
	fl.Var(&lic, "license", "a license `FILE` every archive must hold (by its base name); repeatable")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: distcheck [-license FILE]... DIR")
		return 2
	}
	var names []string
	for _, l := range lic {
		names = append(names, filepath.Base(l))
	}
	if err := Check(fl.Arg(0), names, stdout); err != nil {
		fmt.Fprintf(stderr, "distcheck: %v\n", err)
		return 1
	}
	return 0
}

// archiveName is the name of a release archive: mark1_VERSION_OS_ARCH.tar.gz or .zip.
var archiveName = regexp.MustCompile(`^mark1_([^_/]+)_(linux|darwin|windows)_(amd64|arm64|armhf)\.(tar\.gz|zip)$`)

// Check checks the archives in dir (see the package comment), each of which must also hold
// the files named in licenses, printing a line for each to out.
func Check(dir string, licenses []string, out io.Writer) error {
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		return err
	}
	sums, err := readSums(f)
	f.Close()
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	archives := 0
	for _, e := range entries {
		name := e.Name()
		if name == "SHA256SUMS" || e.IsDir() {
			continue
		}
		want, ok := sums[name]
		if !ok {
			return fmt.Errorf("%s: not in SHA256SUMS", name)
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if sha256.Sum256(data) != want {
			return fmt.Errorf("%s: its SHA-256 is not SHA256SUMS's", name)
		}
		delete(sums, name)
		m := archiveName.FindStringSubmatch(name)
		if m == nil {
			continue // a Debian package: lintian and dist-test check those
		}
		archives++
		goos, arch, kind := m[2], m[3], m[4]
		if (goos == "windows") != (kind == "zip") {
			return fmt.Errorf("%s: want a .zip for windows, a .tar.gz for linux and darwin", name)
		}
		files, err := readArchive(data, kind)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		top := strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip")
		progs, err := checkFiles(files, top, goos, licenses)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		ran := ""
		for _, p := range progs {
			f := files[top+"/"+p]
			if err := checkBinary(f.data, goos, arch); err != nil {
				return fmt.Errorf("%s: %s: %w", name, p, err)
			}
			if kind == "tar.gz" && f.mode&0o111 != 0o111 {
				return fmt.Errorf("%s: %s: mode %o, not executable by all", name, p, f.mode)
			}
			if p == "mark1" || p == "mark1.exe" {
				if ok, err := runHere(f.data, goos, arch); err != nil {
					return fmt.Errorf("%s: %s help: %w", name, p, err)
				} else if ok {
					ran = "; mark1 help ran here"
				}
			}
		}
		fmt.Fprintf(out, "distcheck: %s: %d files, %s for %s %s%s\n", name, len(files), strings.Join(progs, ", "), goos, arch, ran)
	}
	if len(sums) > 0 {
		var gone []string
		for name := range sums {
			gone = append(gone, name)
		}
		slices.Sort(gone)
		return fmt.Errorf("%s: in SHA256SUMS, not in %s", strings.Join(gone, ", "), dir)
	}
	if archives == 0 {
		return fmt.Errorf("%s: no archive", dir)
	}
	return nil
}

func readSums(r io.Reader) (map[string][sha256.Size]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, err
	}
	// The web build's list has the same format; its paths are as plain.
	list, err := webdist.ReadSums(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	sums := map[string][sha256.Size]byte{}
	for _, s := range list {
		sums[s.Path] = s.SHA256
	}
	return sums, nil
}

// archived is a file of an archive: its bytes and its mode.
type archived struct {
	data []byte
	mode int64
}

// readArchive returns the regular files of a tar.gz or zip by path (folders left out).
func readArchive(data []byte, kind string) (map[string]archived, error) {
	files := map[string]archived{}
	add := func(name string, mode int64, r io.Reader) error {
		if _, dup := files[name]; dup {
			return fmt.Errorf("%s twice", name)
		}
		b, err := io.ReadAll(io.LimitReader(r, 1<<30))
		files[name] = archived{b, mode}
		return err
	}
	if kind == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, "/") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			err = add(f.Name, int64(f.Mode().Perm()), rc)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
		return files, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeDir:
		case tar.TypeReg:
			if err := add(h.Name, h.Mode, tr); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s: not a regular file or a folder (type %q)", h.Name, h.Typeflag)
		}
	}
}

// checkFiles checks that every file is in the folder top and that the files the system's
// archive must have are there, and returns the programs among them.
func checkFiles(files map[string]archived, top, goos string, licenses []string) ([]string, error) {
	want := append([]string{"README.md", "COPYRIGHT"}, licenses...)
	progs := []string{"mark1"}
	switch goos {
	case "linux":
		want = append(want, "rig.toml", "systemd/hwbridge.service", "systemd/mark1-museum.service", "docs/rig.md", "docs/kiosk.md", "docs/museum.md")
		progs = append(progs, "hwbridge")
		if _, ok := files[top+"/mark1-museum"]; ok {
			progs = append(progs, "mark1-museum")
		}
	case "windows":
		progs = []string{"mark1.exe"}
	}
	for name := range files {
		if !strings.HasPrefix(name, top+"/") {
			return nil, fmt.Errorf("%s is not in the folder %s/", name, top)
		}
	}
	for _, w := range append(slices.Clone(want), progs...) {
		if f, ok := files[top+"/"+w]; !ok || len(f.data) == 0 {
			return nil, fmt.Errorf("no %s (or it is empty)", w)
		}
	}
	if goos != "linux" && len(files) != len(want)+len(progs) {
		var got []string
		for n := range files {
			got = append(got, strings.TrimPrefix(n, top+"/"))
		}
		slices.Sort(got)
		return nil, fmt.Errorf("holds %s: want only %s", strings.Join(got, " "), strings.Join(append(want, progs...), " "))
	}
	return progs, nil
}

// checkBinary checks that data is an executable for goos and arch.
func checkBinary(data []byte, goos, arch string) error {
	r := bytes.NewReader(data)
	switch goos {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			return fmt.Errorf("not an ELF file: %w", err)
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64, "armhf": elf.EM_ARM}[arch]
		if f.Machine != want || (f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN) {
			return fmt.Errorf("an ELF %v for %v, want an executable for %v", f.Type, f.Machine, want)
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a Mach-O file: %w", err)
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[arch]
		if f.Cpu != want || f.Type != macho.TypeExec {
			return fmt.Errorf("a Mach-O %v for %v, want an executable for %v", f.Type, f.Cpu, want)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a PE file: %w", err)
		}
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[arch]
		oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
		if f.Machine != want || f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 || !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
			return fmt.Errorf("a PE for machine %#x (characteristics %#x), want a 64-bit console executable for %#x", f.Machine, f.Characteristics, want)
		}
	}
	return nil
}

// runHere runs the program in data with "help" when this computer can (its system and
// processor), checking that it prints mark1's usage; ok reports whether it ran.
func runHere(data []byte, goos, arch string) (ok bool, err error) {
	if goos != runtime.GOOS || arch != runtime.GOARCH {
		return false, nil
	}
	dir, err := os.MkdirTemp("", "distcheck")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, "mark1")
	if goos == "windows" {
		exe += ".exe"
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		return false, err
	}
	cmd := exec.Command(exe, "help")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return true, fmt.Errorf("%w: %s", err, out)
	}
	if !bytes.Contains(out, []byte("usage: mark1 COMMAND")) {
		return true, fmt.Errorf("printed %.200q, not mark1's usage", out)
	}
	return true, nil
}
