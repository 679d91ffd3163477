package images

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testImage is a w x h grey card with a dark bar across its middle row.
func testImage(w, h int) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for x := range w {
		g.SetGray(x, h/2, color.Gray{Y: 0})
	}
	return g
}

func pngBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gifBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader is the start of a PNG file whose IHDR (with a correct CRC) claims w x h 8-bit
// grey pixels; it has no pixel data.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	data := binary.BigEndian.AppendUint32(nil, w)
	data = binary.BigEndian.AppendUint32(data, h)
	data = append(data, 8, 0, 0, 0, 0) // bit depth, grey, compression, filter, no interlace
	chunk := append([]byte("IHDR"), data...)
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(data))))
	b.Write(chunk)
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(chunk)))
	return b.Bytes()
}

// writeTree creates files (path -> content; a path ending in "/" is an empty folder) under a
// new temporary folder and returns the folder.
func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadDir(t *testing.T) {
	img := testImage(8, 6)
	dir := writeTree(t, map[string][]byte{
		"README.md":           []byte("cards for a test"),
		".git/x.png":          pngBytes(t, img),
		"square/c.jpg":        jpegBytes(t, img),
		"square/d.JPEG":       jpegBytes(t, testImage(5, 5)),
		"square/nested/e.png": pngBytes(t, img),
		"circle/b.GIF":        gifBytes(t, img),
		"circle/a.png":        pngBytes(t, img),
		"circle/notes.txt":    []byte("not an image"),
		"circle/.DS_Store":    []byte("\x00\x00\x00\x01Bud1"),
		"circle/.hidden.png":  []byte("hidden, never read"),
		".hidden-class/f.png": pngBytes(t, img),
		"square/.#lock.png":   []byte("editor lock file"),
		"circle/zz-last.png":  pngBytes(t, testImage(3, 4)),
		"square/Thumbs.db":    []byte("windows"),
	})
	set, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if set.Name != dir {
		t.Errorf("Name = %q, want %q", set.Name, dir)
	}
	if want := []string{"circle", "square"}; !slices.Equal(set.Classes, want) {
		t.Fatalf("Classes = %q, want %q", set.Classes, want)
	}
	want := []struct {
		file  string
		class int
		w, h  int
	}{
		{"circle/a.png", 0, 8, 6},
		{"circle/b.GIF", 0, 8, 6},
		{"circle/zz-last.png", 0, 3, 4},
		{"square/c.jpg", 1, 8, 6},
		{"square/d.JPEG", 1, 5, 5},
	}
	if len(set.Cards) != len(want) {
		var got []string
		for _, c := range set.Cards {
			got = append(got, c.Source)
		}
		t.Fatalf("cards %q, want %d cards", got, len(want))
	}
	for i, w := range want {
		c := set.Cards[i]
		if src := filepath.Join(dir, filepath.FromSlash(w.file)); c.Source != src {
			t.Errorf("card %d: Source %q, want %q", i, c.Source, src)
		}
		if c.Class != w.class {
			t.Errorf("%s: class %d, want %d", w.file, c.Class, w.class)
		}
		if b := c.Image.Bounds(); b.Dx() != w.w || b.Dy() != w.h {
			t.Errorf("%s: bounds %v, want %dx%d", w.file, b, w.w, w.h)
		}
	}
	// The PNG comes back pixel for pixel: dark bar on white.
	g, ok := set.Cards[0].Image.(*image.Gray)
	if !ok {
		t.Fatalf("PNG decoded as %T, want *image.Gray", set.Cards[0].Image)
	}
	if !bytes.Equal(g.Pix, img.Pix) {
		t.Error("PNG pixels changed in loading")
	}
}

// TestLoadDirOrder: a folder whose cards.txt names exactly its class folders on a classes
// line (as mark1 cards export writes it) has its classes in that order and, when the file
// names are distinct numbers, its cards in their order across the classes; any other folder has
// its classes in name order, one after the other, each class's cards in name order.
func TestLoadDirOrder(t *testing.T) {
	png := pngBytes(t, testImage(4, 4))
	const ab, ba = "# set\n# classes: \"a\" \"b\"\n", "# set\n# classes: \"b\" \"a\"\nb/0.png x\n"
	tests := []struct {
		name    string
		files   []string
		list    string // cards.txt, if not empty
		classes string
		cards   string
	}{
		{"exported", []string{"b/00000.png", "a/00001.png", "b/00002.png", "a/00003.png", "a/10.png"}, ab, "a b",
			"b/00000.png a/00001.png b/00002.png a/00003.png a/10.png"},
		{"numbered, no list", []string{"b/00000.png", "a/00001.png", "b/00002.png", "a/00003.png"}, "", "a b",
			"a/00001.png a/00003.png b/00000.png b/00002.png"},
		{"numbers, not their text", []string{"a/2.png", "a/10.png", "b/1.png"}, ab, "a b", "b/1.png a/2.png a/10.png"},
		{"a number twice", []string{"b/1.png", "a/1.png", "a/2.png"}, ab, "a b", "a/1.png a/2.png b/1.png"},
		{"one name not a number", []string{"b/1.png", "a/x.png", "a/2.png"}, ab, "a b", "a/2.png a/x.png b/1.png"},
		{"classes listed", []string{"b/0.png", "a/1.png"}, ba, "b a", "b/0.png a/1.png"},
		{"classes listed, names not numbers", []string{"b/x.png", "a/y.png", "b/z.png"}, ba, "b a", "b/x.png b/z.png a/y.png"},
		{"classes with spaces", []string{"b c/0.png", "a/1.png"}, "# classes: \"b c\" \"a\"\n", "b c a", "b c/0.png a/1.png"},
		{"a class missing from the list", []string{"b/0.png", "a/1.png", "c/2.png"}, ba, "a b c", "a/1.png b/0.png c/2.png"},
		{"a class the folder lacks", []string{"b/0.png", "a/1.png"}, "# classes: \"b\" \"a\" \"c\"\n", "a b", "a/1.png b/0.png"},
		{"a class twice", []string{"b/0.png", "a/1.png"}, "# classes: \"b\" \"b\"\n", "a b", "a/1.png b/0.png"},
		{"the line after the cards", []string{"b/0.png", "a/1.png"}, "b/0.png\n# classes: \"b\" \"a\"\n", "a b", "a/1.png b/0.png"},
		{"unquoted", []string{"b/0.png", "a/1.png"}, "# classes: b a\n", "a b", "a/1.png b/0.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string][]byte{}
			for _, f := range tt.files {
				files[f] = png
			}
			if tt.list != "" {
				files["cards.txt"] = []byte(tt.list)
			}
			dir := writeTree(t, files)
			set, err := LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var cards []string
			for _, c := range set.Cards {
				rel, _ := filepath.Rel(dir, c.Source)
				rel = filepath.ToSlash(rel)
				if class, _, _ := strings.Cut(rel, "/"); set.Classes[c.Class] != class {
					t.Errorf("%s: class %q", rel, set.Classes[c.Class])
				}
				cards = append(cards, rel)
			}
			if got := strings.Join(set.Classes, " "); got != tt.classes {
				t.Errorf("classes %q, want %q", got, tt.classes)
			}
			if got := strings.Join(cards, " "); got != tt.cards {
				t.Errorf("cards %q, want %q", got, tt.cards)
			}
		})
	}
	if got := ClassesComment([]string{"E", "b c", `q"`}); got != `# classes: "E" "b c" "q\""` {
		t.Errorf("ClassesComment: %s", got)
	}
}

func TestLoadDirErrors(t *testing.T) {
	good := pngBytes(t, testImage(4, 4))
	badCRC := slices.Clone(good)
	badCRC[len(badCRC)-20] ^= 0xff // inside the IDAT chunk
	tests := []struct {
		name  string
		files map[string][]byte
		file  string // path (under the folder) the error must name
		want  string // and a fragment of its reason
	}{
		{"no classes", map[string][]byte{}, "", "no class folders"},
		{"only files", map[string][]byte{"a.png": good, "README": nil}, "", "no class folders"},
		{"only hidden classes", map[string][]byte{".a/x.png": good}, "", "no class folders"},
		{"empty class", map[string][]byte{"a/x.png": good, "b/": nil}, "b", "class folder has no PNG, JPEG or GIF file"},
		{"class of non-images", map[string][]byte{"a/x.png": good, "b/README.txt": []byte("hi")}, "b", "class folder has no PNG"},
		{"not an image", map[string][]byte{"a/x.png": []byte("hello, world")}, "a/x.png", "not a PNG, JPEG or GIF image"},
		{"empty file", map[string][]byte{"a/x.png": {}}, "a/x.png", "not a PNG, JPEG or GIF image"},
		{"truncated png", map[string][]byte{"a/x.png": good[:len(good)/2]}, "a/x.png", "truncated"},
		{"corrupt png", map[string][]byte{"a/x.png": badCRC}, "a/x.png", "png: invalid format"},
		{"corrupt jpeg", map[string][]byte{"a/x.jpg": append([]byte("\xff\xd8\xff\xdb"), make([]byte, 40)...)}, "a/x.jpg", "jpeg"},
		{"side too long", map[string][]byte{"a/x.png": pngHeader(20000, 20000)}, "a/x.png", "20000x20000 pixels exceeds the limit of 16384 pixels per side"},
		{"too many pixels", map[string][]byte{"a/x.png": pngHeader(5000, 5000)}, "a/x.png", "5000x5000 pixels exceeds the limit of 16777216 pixels"},
		{"too many pixels, long side", map[string][]byte{"a/x.png": pngHeader(16384, 1025)}, "a/x.png", "16384x1025 pixels exceeds the limit of 16777216"},
		{"folder named like an image", map[string][]byte{"a/x.png": good, "a/folder.png/x": good}, "a/folder.png", "a folder, not an image file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, tt.files)
			_, err := LoadDir(dir)
			checkErr(t, err, filepath.Join(dir, filepath.FromSlash(tt.file)), tt.want)
		})
	}
	t.Run("missing folder", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "nothing-here")
		_, err := LoadDir(dir)
		checkErr(t, err, dir, "no such file")
	})
}

func TestLoadDirRefusesSpecialFiles(t *testing.T) {
	good := pngBytes(t, testImage(4, 4))
	dir := writeTree(t, map[string][]byte{"a/x.png": good})
	fifo := filepath.Join(dir, "a", "y.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// Opening the FIFO would wait for a writer for ever; the load must refuse it at once.
	done := make(chan error, 1)
	go func() {
		_, err := LoadDir(dir)
		done <- err
	}()
	select {
	case err := <-done:
		checkErr(t, err, fifo, "a FIFO, not an image file")
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDir waits on a FIFO")
	}
	_, err := LoadFile("/dev/zero")
	checkErr(t, err, "/dev/zero", "a device, not an image file")
	_, err = LoadIDX(fifo, fifo)
	checkErr(t, err, fifo, "a FIFO, not an IDX file")
}

func TestLoaderBudget(t *testing.T) {
	img := pngBytes(t, testImage(100, 100)) // 10,000 grey pixels: 10,000 bytes decoded
	files := map[string][]byte{}
	for i := range 10 {
		files[fmt.Sprintf("a/%02d.png", i)] = img
	}
	dir := writeTree(t, files)
	// Nine cards fit (9*(10000+CardOverhead) bytes), the tenth does not.
	l := &Loader{Budget: 9 * (10000 + CardOverhead)}
	_, err := l.LoadDir(dir)
	checkErr(t, err, filepath.Join(dir, "a", "09.png"), "over the memory budget for cards")
	if !errors.Is(err, ErrBudget) {
		t.Errorf("error %v is not ErrBudget", err)
	}
	l = &Loader{Budget: 10 * (10000 + CardOverhead)}
	set, err := l.LoadDir(dir)
	if err != nil || len(set.Cards) != 10 {
		t.Fatalf("within the budget: %v", err)
	}
	if l.usedBytes() != 10*(10000+CardOverhead) {
		t.Errorf("usedBytes() = %d, want %d", l.usedBytes(), 10*(10000+CardOverhead))
	}
	// One Loader's budget covers all its loads.
	if _, err := l.LoadFile(filepath.Join(dir, "a", "00.png")); !errors.Is(err, ErrBudget) {
		t.Errorf("a second load over the shared budget: %v, want ErrBudget", err)
	}
}

// checkErr checks that err is a one-line error starting "images: " that names file and says
// want.
func checkErr(t *testing.T, err error, file, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "images: ") || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line starting \"images: \"", msg)
	}
	if !strings.Contains(msg, file) {
		t.Errorf("error %q does not name %s", msg, file)
	}
	if !strings.Contains(msg, want) {
		t.Errorf("error %q does not say %q", msg, want)
	}
}

func TestLoadFile(t *testing.T) {
	// The content decides the format, not the name.
	dir := writeTree(t, map[string][]byte{
		"card.gif": pngBytes(t, testImage(7, 9)),
		"card":     jpegBytes(t, testImage(7, 9)),
	})
	for _, name := range []string{"card.gif", "card"} {
		t.Run(name, func(t *testing.T) {
			img, err := LoadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 7 || b.Dy() != 9 {
				t.Errorf("%s: bounds %v, want 7x9", name, b)
			}
		})
	}
	missing := filepath.Join(dir, "missing.png")
	_, err := LoadFile(missing)
	checkErr(t, err, missing, "no such file")
}

func TestDecodeLimits(t *testing.T) {
	tests := []struct {
		w, h uint32
		ok   bool
	}{
		{1, 1, true},
		{MaxSide, 1, true},
		{4096, 4096, true},
		{MaxSide, MaxPixels / MaxSide, true},
		{MaxSide + 1, 1, false},
		{1, MaxSide + 1, false},
		{4097, 4096, false},
		{100000, 100000, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%d", tt.w, tt.h), func(t *testing.T) {
			// Only the header is there: within the limits, decoding gets as far as the missing
			// pixel data; beyond them, it stops at the dimensions.
			_, err := new(Loader).decode("x.png", bytes.NewReader(pngHeader(tt.w, tt.h)))
			if err == nil {
				t.Fatalf("%dx%d: decoded a file without pixels", tt.w, tt.h)
			}
			if over := strings.Contains(err.Error(), "exceeds the limit"); over == tt.ok {
				t.Errorf("%dx%d: error %q", tt.w, tt.h, err)
			}
		})
	}
}
