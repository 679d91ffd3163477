// Command precompress finishes a browser build's folder (make web runs it on web/dist): beside
// each file worth it, a .br (brotli, quality 11, a 16 MB window) and a .gz (gzip -9:
// compress/gzip's BestCompression, no name or time in the header), then the folder's list,
// SHA256SUMS, naming every file of the build with its SHA-256 (package internal/webdist).
// mark1 web serves the files the list names, each in the encoding a browser asks for; any
// static web server can serve the folder as it is.
//
// Usage:
//
//	go run ./internal/tools/precompress [-min BYTES] [-cache DIR] DIR
//
// A file is worth it when it is of a kind that compresses (text, WebAssembly: not images or
// fonts), of at least -min bytes (256), and its compressed form is at most 90% of its size; a
// .br or .gz left from an earlier build that is no longer worth it, or whose plain file is
// gone, is removed. A compressed form the old list records for the same plain file (the same
// SHA-256), still on disk as recorded, is kept rather than made again: brotli's quality 11
// takes about a minute for the museum's 20 MB of WebAssembly. Files and folders whose names
// start with a dot are not part of the build; a file of a kind mark1 web does not serve is
// left out of the list, with a warning; a symbolic link is refused. Each file is written
// atomically; files are compressed side by side, one a processor. It prints each file's sizes
// and the totals.
//
// Compressed forms are also kept in a cache, by the plain file's SHA-256 (-cache DIR; by
// default $MARK1_PRECOMPRESS_CACHE, else mark1/precompress in the user's cache folder,
// ~/.cache on Linux; -cache off, or the variable set to off, keeps none): a build of the same
// WebAssembly in another folder (make test builds the pages three times: the museum's tests,
// the lab's, the docs') compresses it once. A cached form is used only after it has been
// decompressed and found to be the plain file byte for byte; the cache is trimmed to its
// newest 512 MB.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/webdist"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("precompress", flag.ContinueOnError)
	fl.SetOutput(stderr)
	minSize := fl.Int64("min", 256, "the smallest file, in bytes, worth compressing")
	cache := fl.String("cache", defaultCache(), "a folder keeping compressed forms between builds, or off")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: precompress [-min BYTES] DIR")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	if *cache == "off" {
		*cache = ""
	}
	files, err := Precompress(fl.Arg(0), Options{Min: *minSize, Cache: *cache, Warn: func(msg string) { fmt.Fprintln(stderr, "precompress: "+msg) }})
	if err != nil {
		fmt.Fprintf(stderr, "precompress: %v\n", err)
		return 1
	}
	printTable(stdout, fl.Arg(0), files)
	return 0
}

// Options are Precompress's choices.
type Options struct {
	// Min is the smallest file worth compressing, in bytes.
	Min int64
	// Warn, when not nil, is told of a file left out of the build, and of a cache that
	// cannot be used.
	Warn func(string)
	// Cache is a folder keeping compressed forms between builds ("" none).
	Cache string
}

// cacheVersion names the cache's layout and the compressors' settings: a change of either
// makes a new folder, so that no form made otherwise is taken.
const cacheVersion = "v1-br11w24-gz9"

// cacheLimit is the most the cache keeps, in bytes; the least recently used go first.
const cacheLimit = 512 << 20

// defaultCache is -cache's default: $MARK1_PRECOMPRESS_CACHE, else the user's cache folder's
// mark1/precompress ("" when there is none).
func defaultCache() string {
	if v, ok := os.LookupEnv("MARK1_PRECOMPRESS_CACHE"); ok {
		return v
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "mark1", "precompress")
}

// File is one plain file of the build: its path within the folder, its size, and the size of
// each precompressed form written or kept (by encoding name; none when not worth it).
type File struct {
	Path  string
	Size  int64
	Sizes map[string]int64
	// Reused lists the encodings kept from the earlier build or taken from the cache.
	Reused []string
}

// worth is the largest compressed size, as a fraction of the plain size, worth keeping.
const worth = 0.9

// Precompress writes the precompressed forms and SHA256SUMS in dir, as the package comment
// says, and returns the build's plain files, sorted by path.
func Precompress(dir string, opts Options) ([]File, error) {
	old := map[string][sha256.Size]byte{}
	if f, err := os.Open(filepath.Join(dir, webdist.SumsName)); err == nil {
		if sums, err := webdist.ReadSums(f); err == nil {
			for _, s := range sums {
				old[s.Path] = s.SHA256
			}
		}
		f.Close()
	}
	var plain, encoded []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case strings.HasPrefix(d.Name(), "."):
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			return nil
		case rel == webdist.SumsName:
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: a build holds its own files (mark1 web refuses links)", p)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", p)
		}
		if _, _, ok := webdist.EncodingOf(rel); ok {
			encoded = append(encoded, rel)
		} else if _, ok := webdist.ContentType(rel); ok {
			plain = append(plain, rel)
		} else if opts.Warn != nil {
			opts.Warn(fmt.Sprintf("%s: left out of the build: mark1 web serves only %s files", p, strings.Join(webdist.Exts(), " ")))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var (
		sums  []webdist.Sum
		files []File
		keep  = map[string]bool{}
	)
	// The files side by side, as many at once as there are processors: brotli's quality 11 is
	// one thread a file, and the museum's and the lab's WebAssembly take most of the time.
	type result struct {
		f    File
		sums []webdist.Sum
		err  error
	}
	results := make([]result, len(plain))
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i, rel := range plain {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			f, s, err := compressFile(dir, rel, old, opts)
			results[i] = result{f, s, err}
		})
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		files = append(files, r.f)
		sums = append(sums, r.sums...)
		for _, x := range r.sums {
			keep[x.Path] = true
		}
	}
	for _, rel := range encoded {
		if !keep[rel] {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("a stale compressed file: %w", err)
			}
		}
	}
	err = atomicfile.Write(filepath.Join(dir, webdist.SumsName), 0o644, func(w io.Writer) error { return webdist.WriteSums(w, sums) })
	if err != nil {
		return nil, err
	}
	if opts.Cache != "" {
		if err := trimCache(filepath.Join(opts.Cache, cacheVersion), cacheLimit); err != nil && opts.Warn != nil {
			opts.Warn(fmt.Sprintf("trimming the cache: %v", err))
		}
	}
	return files, nil
}

// compressFile hashes the plain file rel and writes (or keeps) its compressed forms, returning
// it and the sums of it and of each form kept.
func compressFile(dir, rel string, old map[string][sha256.Size]byte, opts Options) (File, []webdist.Sum, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		return File{}, nil, err
	}
	sum := sha256.Sum256(data)
	f := File{Path: rel, Size: int64(len(data)), Sizes: map[string]int64{}}
	sums := []webdist.Sum{{Path: rel, SHA256: sum}}
	try := webdist.Compressible(rel) && f.Size >= opts.Min
	type result struct {
		data   []byte
		reused bool // kept from the earlier build (on disk) or taken from the cache
		cached bool // taken from the cache: still to be written
		err    error
	}
	results := make([]result, len(webdist.Encodings))
	var wg sync.WaitGroup
	for i, e := range webdist.Encodings {
		if !try {
			continue
		}
		ep := p + e.Ext
		if prev, ok := old[rel]; ok && prev == sum {
			if was, ok := old[rel+e.Ext]; ok {
				if b, err := os.ReadFile(ep); err == nil && sha256.Sum256(b) == was {
					results[i] = result{data: b, reused: true}
					continue
				}
			}
		}
		wg.Go(func() {
			if b, ok := fromCache(opts.Cache, e.Name, data, sum); ok {
				results[i] = result{data: b, reused: true, cached: true}
				return
			}
			b, err := compress(e.Name, data)
			if err == nil {
				if err := toCache(opts.Cache, e.Name, sum, b); err != nil && opts.Warn != nil {
					opts.Warn(fmt.Sprintf("keeping %s's %s form in the cache: %v", p, e.Name, err))
				}
			}
			results[i] = result{data: b, err: err}
		})
	}
	wg.Wait()
	for i, e := range webdist.Encodings {
		r, ep := results[i], p+e.Ext
		if r.err != nil {
			return File{}, nil, fmt.Errorf("%s: %s: %w", p, e.Name, r.err)
		}
		if r.data == nil || float64(len(r.data)) > worth*float64(f.Size) {
			if err := os.Remove(ep); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return File{}, nil, err
			}
			continue
		}
		if r.reused {
			f.Reused = append(f.Reused, e.Name)
		}
		if !r.reused || r.cached {
			if err := atomicfile.Write(ep, 0o644, func(w io.Writer) error { _, err := w.Write(r.data); return err }); err != nil {
				return File{}, nil, err
			}
		}
		f.Sizes[e.Name] = int64(len(r.data))
		sums = append(sums, webdist.Sum{Path: rel + e.Ext, SHA256: sha256.Sum256(r.data)})
	}
	return f, sums, nil
}

// compress returns data compressed in the encoding named: br (brotli, quality 11, window
// 2^24) or gzip (BestCompression; the header names no file and no time, so the same input
// gives the same bytes).
func compress(enc string, data []byte) ([]byte, error) {
	var b bytes.Buffer
	var w io.WriteCloser
	switch enc {
	case "br":
		w = brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 11, LGWin: 24})
	case "gzip":
		zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		w = zw
	default:
		return nil, fmt.Errorf("no encoder for %q", enc)
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// printTable prints each file's sizes, then the totals.
func printTable(w io.Writer, dir string, files []File) {
	fmt.Fprintf(w, "precompress: %s (%s written)\n", dir, webdist.SumsName)
	fmt.Fprintf(w, "  %12s %12s %12s  %s\n", "plain", "gzip", "br", "file")
	var tot [3]int64
	for _, f := range files {
		cell := func(enc string, i int) string {
			n, ok := f.Sizes[enc]
			if !ok {
				n = f.Size
				tot[i] += n
				return "-"
			}
			tot[i] += n
			s := fmt.Sprint(n)
			if slices.Contains(f.Reused, enc) {
				s += "="
			}
			return s
		}
		tot[0] += f.Size
		fmt.Fprintf(w, "  %12d %12s %12s  %s\n", f.Size, cell("gzip", 1), cell("br", 2), f.Path)
	}
	fmt.Fprintf(w, "  %12d %12d %12d  total (a file not compressed counted plain; = kept from the last build or the cache)\n", tot[0], tot[1], tot[2])
}
