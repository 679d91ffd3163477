package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
)

// cachePath is where the cache in dir keeps the form enc of the plain file whose SHA-256 is
// sum ("" without a cache).
func cachePath(dir, enc string, sum [sha256.Size]byte) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, cacheVersion, hex.EncodeToString(sum[:])+"."+enc)
}

// fromCache returns the cached form enc of plain (whose SHA-256 is sum), when the cache has
// one that decompresses to plain, byte for byte; its time is set to now (the trimming keeps
// the newest).
func fromCache(dir, enc string, plain []byte, sum [sha256.Size]byte) ([]byte, bool) {
	p := cachePath(dir, enc, sum)
	if p == "" {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var r io.Reader
	switch enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, false
		}
		r = zr
	default:
		return nil, false
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, int64(len(plain))+1))
	if err != nil || n != int64(len(plain)) || !bytes.Equal(h.Sum(nil), sum[:]) {
		return nil, false // damaged, or another file's: compressed again, and replaced
	}
	now := time.Now()
	os.Chtimes(p, now, now)
	return b, true
}

// toCache keeps form b of the plain file whose SHA-256 is sum.
func toCache(dir, enc string, sum [sha256.Size]byte, b []byte) error {
	p := cachePath(dir, enc, sum)
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, 0o644, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// trimCache removes the least recently used files of dir until it holds at most limit bytes.
func trimCache(dir string, limit int64) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, e.Name()), fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= limit {
			break
		}
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		total -= f.size
	}
	return nil
}
