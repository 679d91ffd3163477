package images

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // register GIF for image.Decode
	_ "image/jpeg" // register JPEG
	_ "image/png"  // register PNG
	"io"
	"os"
	"path/filepath"
	"strings"
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

// LoadDir loads a card set from a folder holding one sub-folder per class. The sub-folder's
// name is the class name; classes are sorted by name, and the cards of each class by file
// name, classes one after the other. A class folder's files ending in .png, .jpg, .jpeg or .gif
// (in any case) are decoded by their content (PNG, JPEG or GIF; the first frame of an animated
// GIF) and kept as decoded, so they should show dark figures on a light ground. Names starting
// with a dot are skipped, and so are other files (a README, say), files directly in dir, and
// folders nested in a class folder.
//
// Each image's dimensions are read before it is decoded and refused when a side exceeds MaxSide
// or the area MaxPixels. It is an error when dir has no class folder, when a class folder has no
// image, and when an image file does not decode; the error names the file.
func LoadDir(dir string) (*Set, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	set := &Set{Name: dir}
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
		files, err := os.ReadDir(classDir)
		if err != nil {
			return nil, fmt.Errorf("images: %w", err)
		}
		class, n := len(set.Classes), 0
		for _, f := range files {
			if hidden(f.Name()) || !isImageFile(f.Name()) {
				continue
			}
			path := filepath.Join(classDir, f.Name())
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				continue
			}
			img, err := LoadFile(path)
			if err != nil {
				return nil, err
			}
			set.Cards = append(set.Cards, Card{Image: img, Class: class, Source: path})
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("images: %s: class folder has no PNG, JPEG or GIF file", classDir)
		}
		set.Classes = append(set.Classes, e.Name())
	}
	if len(set.Classes) == 0 {
		return nil, fmt.Errorf("images: %s: no class folders (want one sub-folder per class, holding PNG, JPEG or GIF files)", dir)
	}
	return set, nil
}

// LoadFile decodes one PNG, JPEG or GIF image file (recognised by its content, not its name),
// refusing it before decoding when a side exceeds MaxSide or the area MaxPixels. The image is
// returned as decoded: a card shows dark figures on a light ground.
func LoadFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("images: %s: is a folder, not an image file", path)
	}
	return decode(path, f)
}

// decode decodes the image in r, named name in errors, after checking its dimensions.
func decode(name string, r io.ReadSeeker) (image.Image, error) {
	br := bufio.NewReader(r)
	cfg, _, err := image.DecodeConfig(br)
	if err != nil {
		return nil, decodeError(name, err)
	}
	if err := checkSize(name, cfg.Width, cfg.Height); err != nil {
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
