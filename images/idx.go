package images

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/hugepage"
	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// Limits on IDX files, checked against the headers before anything is allocated from them.
const (
	maxIDXBytes = 1 << 31 // pixel bytes in one images file (2 GiB)
	maxIDXCount = 1 << 21 // images in one file (2,097,152; MNIST has 60,000, EMNIST up to 814,255)
)

// idxChunk is how many pixel bytes are read at a time (rounded to whole images), so that the
// memory taken grows with the data actually present, not with what a header claims.
const idxChunk = 1 << 20

// LoadIDX loads an MNIST-style data set: an IDX images file (magic 0x00000803: unsigned bytes,
// dimensions count, rows, columns) and an IDX labels file (magic 0x00000801: unsigned bytes,
// dimension count), each plain or gzip-compressed (recognised by content, not by name), in
// the layout of http://yann.lecun.com/exdb/mnist. Only the unsigned-byte data type is read.
//
// The images are kept as they are, *image.Gray of cols x rows pixels (MNIST digits are white on
// black; the retina's automatic polarity sees the figure in either). The
// classes are the distinct label values as decimal strings, sorted numerically ("0".."9" for
// MNIST); the cards keep the file's order, with Source "IMAGES#INDEX" (index from 0).
//
// Headers are checked before any data is read: the magic numbers, equal counts in both files,
// rows and columns positive and within MaxSide and MaxPixels, at most 2,097,152 images and at
// most 2 GiB of pixels. A file shorter than its header claims is an error; data after the last
// image or label is ignored. A gzip stream's length and checksum are checked when it ends with
// the data; a gzip stream cut short is refused as one, whatever part of the IDX file it cut.
func LoadIDX(images, labels string) (*Set, error) { return new(Loader).LoadIDX(images, labels) }

// LoadIDX loads an MNIST-style data set as the package's LoadIDX does, within the Loader's
// budget: the images' declared pixels plus CardOverhead per image are charged before anything
// is read, so a header (or a small gzip stream) that promises more than the budget is refused
// at once. Only regular files are opened; a plain (not compressed) images file shorter than its
// header declares is refused before its pixels are read.
func (l *Loader) LoadIDX(images, labels string) (*Set, error) {
	fi, err := regfile.OpenFor(images, "an IDX file")
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	defer fi.Close()
	fl, err := regfile.OpenFor(labels, "an IDX file")
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	defer fl.Close()
	return l.readIDX(images, fi, labels, fl)
}

// sizer is a reader that knows its size (an *os.File).
type sizer interface{ Stat() (os.FileInfo, error) }

// plainSize returns the size of the file behind r when it is a regular file read without
// decompression (br is idxReader's reader of it).
func plainSize(r, br io.Reader) (int64, bool) {
	f, ok := r.(sizer)
	if !ok || isGzip(br) {
		return 0, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// readIDX reads the IDX images from img (named imgName in errors) and their labels from lbl.
func (l *Loader) readIDX(imgName string, img io.Reader, lblName string, lbl io.Reader) (*Set, error) {
	ir, err := idxReader(imgName, img)
	if err != nil {
		return nil, err
	}
	lr, err := idxReader(lblName, lbl)
	if err != nil {
		return nil, err
	}
	dims, err := idxHeader(imgName, ir, 3, "images (count, rows, columns)", 1)
	if err != nil {
		return nil, err
	}
	ldims, err := idxHeader(lblName, lr, 1, "labels (count)", 3)
	if err != nil {
		return nil, err
	}
	count, rows, cols := uint64(dims[0]), uint64(dims[1]), uint64(dims[2])
	switch {
	case uint64(ldims[0]) != count:
		return nil, fmt.Errorf("images: %s has %d images but %s has %d labels", imgName, count, lblName, ldims[0])
	case count == 0:
		return nil, fmt.Errorf("images: %s: no images", imgName)
	case count > maxIDXCount:
		return nil, fmt.Errorf("images: %s: %d images exceeds the limit of %d", imgName, count, maxIDXCount)
	case rows == 0 || cols == 0:
		return nil, fmt.Errorf("images: %s: empty images (%dx%d pixels)", imgName, cols, rows)
	case rows > MaxSide || cols > MaxSide || rows*cols > MaxPixels:
		return nil, fmt.Errorf("images: %s: %dx%d-pixel images exceed the limit of %d pixels per side and %d pixels", imgName, cols, rows, MaxSide, MaxPixels)
	case count*rows*cols > maxIDXBytes:
		return nil, fmt.Errorf("images: %s: %d images of %dx%d pixels (%d bytes) exceed the limit of %d bytes", imgName, count, cols, rows, count*rows*cols, uint64(maxIDXBytes))
	}
	n, size := int(count), int(rows*cols)
	if err := l.Reserve(imgName, int64(n)*int64(size+CardOverhead)); err != nil {
		return nil, err
	}
	// A plain file must hold what its header declares (16 or 8 header bytes, then the data).
	if have, ok := plainSize(img, ir); ok && have < 16+int64(n)*int64(size) {
		return nil, fmt.Errorf("images: %s: truncated: the header declares %d images of %dx%d pixels (%d bytes), the file has %d bytes",
			imgName, n, cols, rows, 16+int64(n)*int64(size), have)
	}
	if have, ok := plainSize(lbl, lr); ok && have < 8+int64(n) {
		return nil, fmt.Errorf("images: %s: truncated: the header declares %d labels (%d bytes), the file has %d bytes", lblName, n, 8+int64(n), have)
	}

	// Labels: read as they come, so a lying header costs nothing.
	labelBytes, err := io.ReadAll(io.LimitReader(lr, int64(n)))
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, readError(lblName, err)
	}
	if len(labelBytes) < n {
		return nil, fmt.Errorf("images: %s: truncated: want %d bytes of labels, got %d", lblName, n, len(labelBytes))
	}
	if err := checkEnd(lblName, lr); err != nil {
		return nil, err
	}
	var seen [256]bool
	for _, v := range labelBytes {
		seen[v] = true
	}
	var classOf [256]int
	set := &Set{Name: imgName}
	for v := range seen {
		if seen[v] {
			classOf[v] = len(set.Classes)
			set.Classes = append(set.Classes, strconv.Itoa(v))
		}
	}

	// Pixels: a plain file, which holds them all (checked above), in one buffer; a gzip
	// stream a chunk of whole images at a time, so that a lying header costs only what the
	// stream holds. The cards' images, Source names and Card values are carved from a few
	// large allocations (the names share one string) rather than three per card.
	perChunk := max(1, idxChunk/size)
	_, plain := plainSize(img, ir)
	if plain {
		perChunk = n
	}
	set.Cards = hugepage.Make[Card](min(n, perChunk))[:0]
	var chunk []byte
	var grays []image.Gray
	var names string
	pos := 0 // where the next card's name starts in names
	for i := range n {
		k := i % perChunk
		if k == 0 {
			m := min(perChunk, n-i)
			chunk = pixelBuffer(m * size)
			got, err := io.ReadFull(ir, chunk)
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("images: %s: truncated: want %d bytes of pixels, got %d", imgName, n*size, i*size+got)
			}
			if err != nil {
				return nil, readError(imgName, err)
			}
			grays = hugepage.Make[image.Gray](m)
			names, pos = sourceNames(imgName, i, m), 0
		}
		g := &grays[k]
		*g = image.Gray{
			Pix:    slices.Clip(chunk[k*size : (k+1)*size]),
			Stride: int(cols),
			Rect:   image.Rect(0, 0, int(cols), int(rows)),
		}
		end := pos + len(imgName) + 1 + decimalDigits(i)
		set.Cards = append(set.Cards, Card{Image: g, Class: classOf[labelBytes[i]], Source: names[pos:end]})
		pos = end
	}
	if err := checkEnd(imgName, ir); err != nil {
		return nil, err
	}
	return set, nil
}

// sourceNames returns the Source names of images from, from+1, ..., from+m-1 of the file name
// ("NAME#INDEX"), one after another in one string.
func sourceNames(name string, from, m int) string {
	// Every name is at most as long as the last one. A Builder's String does not copy.
	var b strings.Builder
	b.Grow(m * (len(name) + 1 + len(strconv.Itoa(from+m-1))))
	var digits [20]byte
	for i := from; i < from+m; i++ {
		b.WriteString(name)
		b.WriteByte('#')
		b.Write(strconv.AppendInt(digits[:0], int64(i), 10))
	}
	return b.String()
}

// decimalDigits returns the number of decimal digits of i >= 0.
func decimalDigits(i int) int {
	d := 1
	for ; i >= 10; i /= 10 {
		d++
	}
	return d
}

// checkEnd reads one byte past the data, which makes a gzip reader that is at its end check
// the stream's length and checksum. Data after the end is ignored.
func checkEnd(name string, r io.Reader) error {
	var b [1]byte
	if _, err := io.ReadFull(r, b[:]); err != nil && err != io.EOF {
		return readError(name, err)
	}
	return nil
}

// errTruncatedGzip is what a gzip stream cut short reads as, whatever part of the IDX file
// inside it (header, pixels or labels) was being read when it ended.
var errTruncatedGzip = errors.New("truncated gzip stream: the file ends before its compressed data does")

// gzipReader marks the reader idxReader returns for a gzip stream.
type gzipReader struct{ *bufio.Reader }

// cutGzip reads a gzip stream, reporting its early end (compress/gzip's io.ErrUnexpectedEOF)
// as errTruncatedGzip, which the IDX reader does not take for a short IDX file.
type cutGzip struct{ r io.Reader }

func (c cutGzip) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errTruncatedGzip
	}
	return n, err
}

// isGzip reports whether r, from idxReader, decompresses a gzip stream.
func isGzip(r io.Reader) bool {
	_, ok := r.(gzipReader)
	return ok
}

// idxReader returns a buffered reader of r's content, decompressed if it starts with the gzip
// magic bytes 1f 8b.
func idxReader(name string, r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errTruncatedGzip // within the gzip header
		}
		if err != nil {
			return nil, readError(name, err)
		}
		return gzipReader{bufio.NewReader(cutGzip{zr})}, nil
	}
	return br, nil
}

// idxTypes names the IDX data type codes.
var idxTypes = map[byte]string{
	0x08: "unsigned byte", 0x09: "signed byte", 0x0b: "short", 0x0c: "int", 0x0d: "float", 0x0e: "double",
}

// idxHeader reads an IDX header of unsigned bytes with want dimensions, and returns them.
// swapped is the dimension count of the other file of the pair, for a hint.
func idxHeader(name string, r io.Reader, want int, what string, swapped int) ([]uint32, error) {
	var magic [4]byte
	if got, err := io.ReadFull(r, magic[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("images: %s: truncated: want 4 bytes of IDX magic number, got %d", name, got)
		}
		return nil, readError(name, err)
	}
	if magic[0] != 0 || magic[1] != 0 {
		return nil, fmt.Errorf("images: %s: not an IDX file (magic number 0x%08x; want 0x%08x for %s)", name, binary.BigEndian.Uint32(magic[:]), 0x800|want, what)
	}
	if magic[2] != 0x08 {
		t, ok := idxTypes[magic[2]]
		if !ok {
			t = "unknown"
		}
		return nil, fmt.Errorf("images: %s: IDX data type 0x%02x (%s) is not supported; want 0x08 (unsigned byte)", name, magic[2], t)
	}
	if d := int(magic[3]); d != want {
		hint := ""
		if d == swapped {
			hint = " (are the images and labels files swapped?)"
		}
		return nil, fmt.Errorf("images: %s: IDX file has %d dimensions, want %d for %s%s", name, d, want, what, hint)
	}
	buf := make([]byte, 4*want)
	if got, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("images: %s: truncated: want %d bytes of IDX dimensions, got %d", name, len(buf), got)
		}
		return nil, readError(name, err)
	}
	dims := make([]uint32, want)
	for i := range dims {
		dims[i] = binary.BigEndian.Uint32(buf[4*i:])
	}
	return dims, nil
}

// readError wraps an error reading file name (a gzip error, say).
func readError(name string, err error) error {
	return fmt.Errorf("images: %s: %w", name, err)
}
