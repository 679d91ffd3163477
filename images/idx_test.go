package images

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// idxFile builds an IDX file: magic 00 00 typ len(dims), the dimensions, then data.
func idxFile(typ byte, dims []uint32, data []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A tiny data set: three 3x2 (cols x rows) images labelled 10, 2, 10, so that numeric and
// text order of the classes differ.
var (
	idxPixels = []byte{
		0, 255, 0, 255, 0, 255,
		10, 20, 30, 40, 50, 60,
		255, 255, 255, 0, 0, 0,
	}
	idxImages = idxFile(0x08, []uint32{3, 2, 3}, idxPixels)
	idxLabels = idxFile(0x08, []uint32{3}, []byte{10, 2, 10})
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadIDX(t *testing.T) {
	tests := []struct {
		name         string
		imgGz, lblGz bool
		imgAs, lblAs string // file names: gzip is recognised by content, not by name
	}{
		{"plain", false, false, "train-images-idx3-ubyte", "train-labels-idx1-ubyte"},
		{"gzip", true, true, "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"},
		{"gzip images misnamed", true, false, "images.idx", "labels.gz"},
		{"gzip labels", false, true, "images.idx", "labels.idx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			img, lbl := idxImages, idxLabels
			if tt.imgGz {
				img = gzipped(t, img)
			}
			if tt.lblGz {
				lbl = gzipped(t, lbl)
			}
			ip, lp := writeFile(t, dir, tt.imgAs, img), writeFile(t, dir, tt.lblAs, lbl)
			set, err := LoadIDX(ip, lp)
			if err != nil {
				t.Fatal(err)
			}
			if set.Name != ip {
				t.Errorf("Name = %q, want %q", set.Name, ip)
			}
			if want := []string{"2", "10"}; !slices.Equal(set.Classes, want) {
				t.Fatalf("Classes = %q, want %q", set.Classes, want)
			}
			if len(set.Cards) != 3 {
				t.Fatalf("%d cards, want 3", len(set.Cards))
			}
			for i, wantClass := range []int{1, 0, 1} {
				c := set.Cards[i]
				if c.Class != wantClass {
					t.Errorf("card %d: class %d, want %d", i, c.Class, wantClass)
				}
				if want := ip + "#" + string(rune('0'+i)); c.Source != want {
					t.Errorf("card %d: Source %q, want %q", i, c.Source, want)
				}
				g, ok := c.Image.(*image.Gray)
				if !ok {
					t.Fatalf("card %d: %T, want *image.Gray", i, c.Image)
				}
				if g.Bounds() != image.Rect(0, 0, 3, 2) {
					t.Fatalf("card %d: bounds %v, want 3x2", i, g.Bounds())
				}
				for y := range 2 {
					for x := range 3 {
						// The pixels are kept as they are.
						if got, want := g.GrayAt(x, y).Y, idxPixels[6*i+3*y+x]; got != want {
							t.Errorf("card %d (%d,%d) = %d, want %d", i, x, y, got, want)
						}
					}
				}
			}
		})
	}
}

// TestLoadIDXChunks reads more images than fit one read chunk, and checks where they split.
func TestLoadIDXChunks(t *testing.T) {
	const rows, cols = 100, 100
	n := 2*idxChunk/(rows*cols) + 3
	pix := make([]byte, n*rows*cols)
	lbl := make([]byte, n)
	for i := range n {
		lbl[i] = byte(i % 7)
		for k := range rows * cols {
			pix[i*rows*cols+k] = byte(i + k)
		}
	}
	set, err := new(Loader).readIDX("i", bytes.NewReader(idxFile(8, []uint32{uint32(n), rows, cols}, pix)),
		"l", bytes.NewReader(gzipped(t, idxFile(8, []uint32{uint32(n)}, lbl))))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Cards) != n || len(set.Classes) != 7 {
		t.Fatalf("%d cards, %d classes; want %d, 7", len(set.Cards), len(set.Classes), n)
	}
	for i, c := range set.Cards {
		g := c.Image.(*image.Gray)
		if c.Class != i%7 || len(g.Pix) != rows*cols || cap(g.Pix) != rows*cols {
			t.Fatalf("card %d: class %d, %d pixels (cap %d)", i, c.Class, len(g.Pix), cap(g.Pix))
		}
		for k, v := range g.Pix {
			if v != byte(i+k) {
				t.Fatalf("card %d pixel %d = %d, want %d", i, k, v, byte(i+k))
			}
		}
	}
}

func TestLoadIDXErrors(t *testing.T) {
	gzImages := gzipped(t, idxImages)
	tests := []struct {
		name     string
		img, lbl []byte
		inLabels bool   // the error names the labels file
		want     string // fragment of the reason
	}{
		{"empty images file", nil, idxLabels, false, "truncated: want 4 bytes of IDX magic number, got 0"},
		{"short header", idxImages[:9], idxLabels, false, "truncated: want 12 bytes of IDX dimensions, got 5"},
		{"bad magic", append([]byte{0x50, 0x4b, 3, 4}, idxImages[4:]...), idxLabels, false, "not an IDX file (magic number 0x504b0304; want 0x00000803"},
		{"png as labels", idxImages, pngHeader(3, 3), true, "not an IDX file"},
		{"float images", idxFile(0x0d, []uint32{3, 2, 3}, idxPixels), idxLabels, false, "IDX data type 0x0d (float) is not supported"},
		{"int labels", idxImages, idxFile(0x0c, []uint32{3}, []byte{0, 0, 0, 1}), true, "IDX data type 0x0c (int)"},
		{"unknown type", idxFile(0x42, []uint32{3, 2, 3}, idxPixels), idxLabels, false, "0x42 (unknown)"},
		{"swapped", idxLabels, idxImages, false, "IDX file has 1 dimensions, want 3 for images (count, rows, columns) (are the images and labels files swapped?)"},
		{"4-d images", idxFile(8, []uint32{3, 2, 3, 1}, idxPixels), idxLabels, false, "IDX file has 4 dimensions, want 3"},
		{"count mismatch", idxImages, idxFile(8, []uint32{2}, []byte{1, 2}), false, "has 3 images but"},
		{"no images", idxFile(8, []uint32{0, 28, 28}, nil), idxFile(8, []uint32{0}, nil), false, "no images"},
		{"zero rows", idxFile(8, []uint32{3, 0, 28}, nil), idxLabels, false, "empty images (28x0 pixels)"},
		{"huge images", idxFile(8, []uint32{3, 65535, 65535}, nil), idxLabels, false, "65535x65535-pixel images exceed the limit"},
		{"too many pixels", idxFile(8, []uint32{3, 4097, 4096}, nil), idxLabels, false, "4096x4097-pixel images exceed the limit"},
		{"too many images", idxFile(8, []uint32{1<<21 + 1, 1, 1}, nil), idxFile(8, []uint32{1<<21 + 1}, nil), false, "2097153 images exceeds the limit of 2097152"},
		{"too many bytes", idxFile(8, []uint32{1 << 20, 2048, 2048}, nil), idxFile(8, []uint32{1 << 20}, nil), false, "exceed the limit of 2147483648 bytes"},
		{"truncated pixels", idxImages[:16+10], idxLabels, false, "truncated: the header declares 3 images of 3x2 pixels (34 bytes), the file has 26 bytes"},
		{"truncated gzip pixels", gzImages[:len(gzImages)-12], idxLabels, false, "truncated"},
		{"no pixels", idxImages[:16], idxLabels, false, "truncated: the header declares 3 images of 3x2 pixels (34 bytes), the file has 16 bytes"},
		{"truncated gzip pixels, read", gzipped(t, idxImages[:16+10]), idxLabels, false, "truncated: want 18 bytes of pixels, got 10"},
		{"truncated labels", idxImages, idxLabels[:9], true, "truncated: the header declares 3 labels (11 bytes), the file has 9 bytes"},
		{"truncated gzip labels, read", idxImages, gzipped(t, idxLabels[:9]), true, "truncated: want 3 bytes of labels, got 1"},
		{"truncated gzip labels", idxImages, gzipped(t, idxLabels)[:15], true, "truncated"},
		{"bad gzip header", append([]byte{0x1f, 0x8b, 0, 0}, idxImages...), idxLabels, false, "gzip: invalid header"},
		{"lying header, tiny file", idxFile(8, []uint32{1 << 21, 32, 32}, nil), idxFile(8, []uint32{1 << 21}, make([]byte, 5)), false, "the cards would take 2.3 GiB, over the memory budget for cards of 1.0 GiB"},
		{"lying header within the budget", gzipped(t, idxFile(8, []uint32{1 << 20, 8, 8}, nil)), idxFile(8, []uint32{1 << 20}, make([]byte, 5)), true, "truncated: the header declares 1048576 labels (1048584 bytes), the file has 13 bytes"},
		{"lying gzip headers within the budget", gzipped(t, idxFile(8, []uint32{1 << 20, 8, 8}, nil)), gzipped(t, idxFile(8, []uint32{1 << 20}, make([]byte, 5))), true, "truncated: want 1048576 bytes of labels, got 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			ip, lp := writeFile(t, dir, "images.idx", tt.img), writeFile(t, dir, "labels.idx", tt.lbl)
			_, err := LoadIDX(ip, lp)
			name := ip
			if tt.inLabels {
				name = lp
			}
			checkErr(t, err, name, tt.want)
		})
	}
	t.Run("missing file", func(t *testing.T) {
		dir := t.TempDir()
		ip := writeFile(t, dir, "images.idx", idxImages)
		lp := filepath.Join(dir, "missing-labels.idx")
		_, err := LoadIDX(ip, lp)
		checkErr(t, err, lp, "no such file")
		_, err = LoadIDX(lp, ip)
		checkErr(t, err, lp, "no such file")
	})
}

// TestIDXCorruptGzip checks that a damaged compressed stream is an error naming the file.
func TestIDXCorruptGzip(t *testing.T) {
	z := gzipped(t, idxImages)
	z[len(z)-6] ^= 0xff // the CRC-32 of the content
	_, err := new(Loader).readIDX("images.gz", bytes.NewReader(z), "labels", bytes.NewReader(idxLabels))
	checkErr(t, err, "images.gz", "gzip: invalid checksum")

	z = gzipped(t, idxLabels)
	_, err = new(Loader).readIDX("images", bytes.NewReader(idxImages), "labels.gz", bytes.NewReader(z[:len(z)-4]))
	checkErr(t, err, "labels.gz", "truncated gzip stream")

	z = gzipped(t, idxImages)
	for i := 12; i < len(z)-8; i++ {
		z[i] ^= 0x55
	}
	_, err = new(Loader).readIDX("images.gz", bytes.NewReader(z), "labels", bytes.NewReader(idxLabels))
	checkErr(t, err, "images.gz", "")

	// Data after the last image is ignored, in a plain file and in a gzip stream.
	tail := append(slices.Clone(idxImages), 1, 2, 3)
	for name, img := range map[string][]byte{"plain": tail, "gzip": gzipped(t, tail)} {
		t.Run("data after the end, "+name, func(t *testing.T) {
			if _, err := new(Loader).readIDX("images", bytes.NewReader(img), "labels", bytes.NewReader(idxLabels)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A plain file (its pixels read in one buffer, huge pages advised for it on Linux) and the same file gzipped (read a chunk at a time) give the same cards: pixels,
// classes, Source names across chunks and digit counts, and images of their own (a card's
// Pix ends where its image does: appending to it cannot reach the next card's).
func TestLoadIDXPlainIsGzip(t *testing.T) {
	const rows, cols = 28, 28
	n := 8<<20/(rows*cols) + 100 // 10,800 images: 8 chunks of a gzip stream, 8 MB plain
	pix := make([]byte, n*rows*cols)
	lbl := make([]byte, n)
	for i := range n {
		lbl[i] = byte(i % 10)
		for k := range rows * cols {
			pix[i*rows*cols+k] = byte(i*7 + k)
		}
	}
	dir := t.TempDir()
	images, labels := idxFile(8, []uint32{uint32(n), rows, cols}, pix), idxFile(8, []uint32{uint32(n)}, lbl)
	lp := writeFile(t, dir, "labels", labels)
	ip, zp := writeFile(t, dir, "images", images), writeFile(t, dir, "images.gz", gzipped(t, images))
	plain, err := LoadIDX(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	zipped, err := LoadIDX(zp, lp)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Cards) != n || len(zipped.Cards) != n || !slices.Equal(plain.Classes, zipped.Classes) {
		t.Fatalf("%d and %d cards of %d; classes %v and %v", len(plain.Cards), len(zipped.Cards), n, plain.Classes, zipped.Classes)
	}
	for i := range n {
		p, z := plain.Cards[i], zipped.Cards[i]
		if p.Source != ip+"#"+strconv.Itoa(i) || z.Source != zp+"#"+strconv.Itoa(i) {
			t.Fatalf("card %d: Source %q and %q", i, p.Source, z.Source)
		}
		for _, c := range []Card{p, z} {
			g := c.Image.(*image.Gray)
			if c.Class != i%10 || !bytes.Equal(g.Pix, pix[i*rows*cols:(i+1)*rows*cols]) || cap(g.Pix) != rows*cols ||
				g.Rect != image.Rect(0, 0, cols, rows) || g.Stride != cols {
				t.Fatalf("card %d (%s) differs: class %d, rect %v, stride %d, cap %d", i, c.Source, c.Class, g.Rect, g.Stride, cap(g.Pix))
			}
		}
	}
}

// TestIDXTruncatedGzip: a copy of a real gzipped IDX file cut short anywhere, in the gzip
// header, in the IDX header inside, in the pixels or labels, or in the gzip trailer, is
// refused in one line naming the file as a truncated gzip stream, not blamed on the IDX file
// it holds (its magic number, say).
func TestIDXTruncatedGzip(t *testing.T) {
	for _, file := range []string{"train-images", "train-labels"} {
		data, err := os.ReadFile("../testdata/mnist/" + file + ".idx.gz")
		if err != nil {
			t.Fatal(err)
		}
		cuts := []int{len(data) / 2, len(data) - 8, len(data) - 1} // the middle, the trailer
		for _, c := range []int{2, 10, 30, 100, 1000} {            // the headers, the first pixels
			if c < len(data)/2 {
				cuts = append(cuts, c)
			}
		}
		for _, cut := range cuts {
			t.Run(fmt.Sprintf("%s/%d of %d bytes", file, cut, len(data)), func(t *testing.T) {
				dir := t.TempDir()
				short := writeFile(t, dir, "short.idx.gz", data[:cut])
				ip, lp := short, "../testdata/mnist/train-labels.idx.gz"
				if file == "train-labels" {
					ip, lp = "../testdata/mnist/train-images.idx.gz", short
				}
				_, err := LoadIDX(ip, lp)
				want := "images: " + short + ": truncated gzip stream: the file ends before its compressed data does"
				if err == nil || err.Error() != want {
					t.Errorf("LoadIDX = %v\nwant %s", err, want)
				}
			})
		}
	}
}
