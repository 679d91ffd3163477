package images

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // register GIF for image.Decode
	_ "image/jpeg" // register JPEG
	_ "image/png"  // register PNG
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// imageExts are the file extensions LoadDir reads (compared case-insensitively).
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif"}

func isImageFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range imageExts {
		if ext == e {
			return true
		}
	}
	return false
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// DefaultBudget is the memory a Loader's cards may take unless told otherwise: 1 GiB, counted
// as the decoded images' pixel bytes plus CardOverhead bytes per card.
const DefaultBudget = 1 << 30

// CardOverhead is what a card costs beyond its pixels in a Loader's count (its Card, image
// header and source name), in bytes.
const CardOverhead = 160

// ErrBudget is returned (wrapped) when loading would take the cards over a Loader's budget.
var ErrBudget = errors.New("over the memory budget for cards")

// A Loader loads card sets within one memory budget, shared by every load it makes: a training
// set and a test set loaded by one Loader together stay within Budget. The zero Loader has
// DefaultBudget. A Loader is not safe for concurrent use.
type Loader struct {
	// Budget is the memory the cards may take in all, in bytes (0 means DefaultBudget): the
	// decoded pixel bytes of every image (charged from its header before it is decoded) plus
	// CardOverhead per card.
	Budget int64
	used   int64
}

// usedBytes returns the bytes charged so far.
func (l *Loader) usedBytes() int64 { return l.used }

// Reserve takes n bytes from the budget for what name needs (cards loaded elsewhere, the
// optics prepared for them), or refuses them with an error wrapping ErrBudget.
func (l *Loader) Reserve(name string, n int64) error {
	budget := l.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	if n > budget-l.used {
		return fmt.Errorf("images: %s: the cards would take %s, %w of %s", name, sizeText(l.used+n), ErrBudget, sizeText(budget))
	}
	l.used += n
	return nil
}

// sizeText writes a byte count for people.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// LoadDir loads a folder of class folders with a Loader of the default budget (see
// Loader.LoadDir).
func LoadDir(dir string) (*Set, error) { return new(Loader).LoadDir(dir) }

// LoadFile loads one image with a Loader of the default budget (see Loader.LoadFile).
func LoadFile(path string) (image.Image, error) { return new(Loader).LoadFile(path) }

// LoadDir loads a card set from a folder holding one sub-folder per class. The sub-folder's
// name is the class name; classes are sorted by name, and the cards of each class by file
// name, classes one after the other. A class folder's files ending in .png, .jpg, .jpeg or .gif
// (in any case) are decoded by their content (PNG, JPEG or GIF; the first frame of an animated
// GIF) and kept as decoded. Names starting with a dot are skipped, and so are other files (a
// README, say), files directly in dir, and folders nested in a class folder that are not named
// like images.
//
// A folder written by mark1 cards export comes back in its set's order. Its cards.txt
// (ListFile) names the set's classes in their order on a line "# classes: "E" "F"" (each name
// quoted as in Go, among the comment lines at its top), and its files are named by the card's
// place in the set (CLASS/00012.png). When that line names exactly the class folders, the
// classes take its order instead of their names'; and when, besides, every image's name before
// its extension is a number and no number is used twice, the cards are in the order of those
// numbers, whatever their class. A folder without that line loads as above, however its files
// are named.
//
// Only regular files are read: an entry named like an image that is a folder, a FIFO, a
// device or a socket is refused at once, naming it (it is never opened, so a FIFO cannot make
// the load wait). Each image's dimensions are read before it is decoded and refused when a
// side exceeds MaxSide or the area MaxPixels, or when its decoded pixels would take the cards
// over the Loader's budget. It is an error when dir has no class folder, when a class folder
// has no image, and when an image file does not decode; the error names the file.
func (l *Loader) LoadDir(dir string) (*Set, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	// First the names: which classes, which files, in which order; then the images.
	type file struct {
		path  string
		class string
		index uint64 // the number the name is, when numbered
	}
	var files []file
	var classes []string
	numbered, seen := true, map[uint64]bool{}
	for _, e := range entries {
		if hidden(e.Name()) {
			continue
		}
		classDir := filepath.Join(dir, e.Name())
		fi, err := os.Stat(classDir) // follows a symbolic link
		if err != nil {
			return nil, fmt.Errorf("images: %w", err)
		}
		if !fi.IsDir() {
			continue
		}
		names, err := os.ReadDir(classDir)
		if err != nil {
			return nil, fmt.Errorf("images: %w", err)
		}
		n := 0
		for _, f := range names {
			if hidden(f.Name()) || !isImageFile(f.Name()) {
				continue
			}
			index, ok := cardIndex(f.Name())
			if !ok || seen[index] {
				numbered = false
			}
			seen[index] = true
			files = append(files, file{filepath.Join(classDir, f.Name()), e.Name(), index})
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("images: %s: class folder has no PNG, JPEG or GIF file", classDir)
		}
		classes = append(classes, e.Name())
	}
	if len(classes) == 0 {
		return nil, fmt.Errorf("images: %s: no class folders (want one sub-folder per class, holding PNG, JPEG or GIF files)", dir)
	}
	if order := listedClasses(dir); order != nil && sameNames(order, classes) {
		// Written by mark1 cards export: the set's order of classes, and of cards.
		classes = order
		if numbered {
			slices.SortStableFunc(files, func(a, b file) int { return cmp.Compare(a.index, b.index) })
		} else {
			rank := map[string]int{}
			for i, c := range classes {
				rank[c] = i
			}
			slices.SortStableFunc(files, func(a, b file) int { return cmp.Compare(rank[a.class], rank[b.class]) })
		}
	}
	set := &Set{Name: dir, Classes: classes}
	class := map[string]int{}
	for i, c := range classes {
		class[c] = i
	}
	for _, f := range files {
		img, err := l.LoadFile(f.path)
		if err != nil {
			return nil, err
		}
		if err := l.Reserve(f.path, CardOverhead); err != nil {
			return nil, err
		}
		set.Cards = append(set.Cards, Card{Image: img, Class: class[f.class], Source: f.path})
	}
	return set, nil
}

// cardIndex reads a file name that is a number before its extension ("00012.png": 12).
func cardIndex(name string) (uint64, bool) {
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	if stem == "" || strings.Trim(stem, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseUint(stem, 10, 64)
	return n, err == nil
}

// ListFile is the file in a folder of cards that lists them (mark1 cards export writes it), and
// ClassesLine begins its line naming the set's classes in order, each quoted as in Go.
const (
	ListFile    = "cards.txt"
	ClassesLine = "# classes: "
)

// ClassesComment returns the line of a ListFile that names classes in their order.
func ClassesComment(classes []string) string {
	q := make([]string, len(classes))
	for i, c := range classes {
		q[i] = strconv.Quote(c)
	}
	return ClassesLine + strings.Join(q, " ")
}

// listedClasses returns the classes that dir's ListFile names on its ClassesLine, or nil
// (no such file or line, or a line that does not read). Only the comment lines at the top of
// the file are read.
func listedClasses(dir string) []string {
	f, err := regfile.Open(filepath.Join(dir, ListFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			return nil
		}
		rest, ok := strings.CutPrefix(line, ClassesLine)
		if !ok {
			continue
		}
		var out []string
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil
			}
			c, _ := strconv.Unquote(q)
			out = append(out, c)
			rest = rest[len(q):]
		}
		return out
	}
	return nil
}

// sameNames reports whether a and b hold the same names, each once.
func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y) && len(slices.Compact(x)) == len(a)
}

// LoadFile decodes one PNG, JPEG or GIF image file (recognised by its content, not its name),
// refusing it before decoding when it is not a regular file, when a side exceeds MaxSide or the
// area MaxPixels, or when its pixels would take the Loader over its budget. The image is
// returned as decoded.
func (l *Loader) LoadFile(path string) (image.Image, error) {
	f, err := regfile.OpenFor(path, "an image file")
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	defer f.Close()
	return l.decode(path, f)
}

// pixelBytes is the memory a decoded image of this colour model takes per pixel (at most; 8
// for a model not known here).
func pixelBytes(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// decode decodes the image in r, named name in errors, after checking its dimensions and
// charging its pixels to the budget.
func (l *Loader) decode(name string, r io.ReadSeeker) (image.Image, error) {
	br := bufio.NewReader(r)
	cfg, _, err := image.DecodeConfig(br)
	if err != nil {
		return nil, decodeError(name, err)
	}
	if err := checkSize(name, cfg.Width, cfg.Height); err != nil {
		return nil, err
	}
	if err := l.Reserve(name, int64(cfg.Width)*int64(cfg.Height)*pixelBytes(cfg.ColorModel)); err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("images: %s: %w", name, err)
	}
	br.Reset(r)
	img, _, err := image.Decode(br)
	if err != nil {
		return nil, decodeError(name, err)
	}
	b := img.Bounds()
	if err := checkSize(name, b.Dx(), b.Dy()); err != nil {
		return nil, err
	}
	return img, nil
}
func decodeError(name string, err error) error {
	switch {
	case errors.Is(err, image.ErrFormat):
		return fmt.Errorf("images: %s: not a PNG, JPEG or GIF image: %w", name, err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("images: %s: truncated image: %w", name, io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("images: %s: %w", name, err)
}

// checkSize refuses empty images and images over the limits.
func checkSize(name string, w, h int) error {
	switch {
	case w <= 0 || h <= 0:
		return fmt.Errorf("images: %s: empty image (%dx%d pixels)", name, w, h)
	case w > MaxSide || h > MaxSide:
		return fmt.Errorf("images: %s: %dx%d pixels exceeds the limit of %d pixels per side", name, w, h, MaxSide)
	case int64(w)*int64(h) > MaxPixels:
		return fmt.Errorf("images: %s: %dx%d pixels exceeds the limit of %d pixels (4096x4096)", name, w, h, MaxPixels)
	}
	return nil
}
