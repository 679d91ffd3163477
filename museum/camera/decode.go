package camera

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"sync"
)

// yuyv takes the luminance of a YUYV (4:2:2) picture: every other byte.
func yuyv(dst *Frame, buf []byte, w, h int) error {
	if w <= 0 || h <= 0 || len(buf) < w*h*2 {
		return fmt.Errorf("%w: a YUYV frame of %d bytes for %dx%d", ErrFormat, len(buf), w, h)
	}
	stride := len(buf) / h // lines may be padded
	if stride < 2*w {
		stride = 2 * w
	}
	dst.Resize(w, h)
	for y := range h {
		src := buf[y*stride : y*stride+2*w]
		row := dst.Pix[y*w : (y+1)*w]
		for x := range row {
			row[x] = src[2*x]
		}
	}
	return nil
}

// mjpeg decodes MJPEG frames: JPEG pictures that may leave out their Huffman tables (most
// USB cameras do: they use the standard ones), which are then put in.
type mjpeg struct {
	fixed []byte
	rd    bytes.Reader
}

func (m *mjpeg) decode(dst *Frame, buf []byte) error {
	data := buf
	if !hasDHT(buf) {
		m.fixed = withDHT(m.fixed[:0], buf)
		data = m.fixed
	}
	m.rd.Reset(data)
	img, err := jpeg.Decode(&m.rd)
	if err != nil {
		return fmt.Errorf("%w: MJPEG: %v", ErrFormat, err)
	}
	b := img.Bounds()
	dst.Resize(b.Dx(), b.Dy())
	var y []byte
	stride := 0
	switch p := img.(type) {
	case *image.YCbCr:
		y, stride = p.Y, p.YStride
	case *image.Gray:
		y, stride = p.Pix, p.Stride
	default:
		for py := range b.Dy() {
			for px := range b.Dx() {
				dst.Pix[py*b.Dx()+px] = color.GrayModel.Convert(img.At(b.Min.X+px, b.Min.Y+py)).(color.Gray).Y
			}
		}
		return nil
	}
	for py := range b.Dy() {
		copy(dst.Pix[py*b.Dx():(py+1)*b.Dx()], y[py*stride:])
	}
	return nil
}

// hasDHT reports whether a JPEG has a Huffman table segment before its scan.
func hasDHT(b []byte) bool {
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			return false
		}
		m := b[i+1]
		switch {
		case m == 0xC4:
			return true
		case m == 0xDA:
			return false
		case m == 0xD8 || m >= 0xD0 && m <= 0xD7 || m == 0x01 || m == 0xFF:
			i += 2
			continue
		}
		i += 2 + (int(b[i+2])<<8 | int(b[i+3]))
	}
	return false
}

var (
	stdDHTOnce sync.Once
	stdDHT     []byte
)

// standardDHT returns the JPEG standard's Huffman tables (ITU T.81 Annex K.3) as one DHT
// segment's bytes: image/jpeg's encoder writes exactly those, so they are taken from it.
func standardDHT() []byte {
	stdDHTOnce.Do(func() {
		var out bytes.Buffer
		jpeg.Encode(&out, image.NewRGBA(image.Rect(0, 0, 8, 8)), nil)
		b := out.Bytes()
		for i := 2; i+4 <= len(b) && b[i] == 0xFF; {
			n := 2 + (int(b[i+2])<<8 | int(b[i+3]))
			if b[i+1] == 0xC4 {
				stdDHT = append(stdDHT, b[i:i+n]...)
			}
			if b[i+1] == 0xDA {
				break
			}
			i += n
		}
	})
	return stdDHT
}

// withDHT appends b to dst with the standard Huffman tables put in after its SOI marker.
func withDHT(dst, b []byte) []byte {
	if len(b) < 2 {
		return append(dst, b...)
	}
	dst = append(dst, b[:2]...)
	dst = append(dst, standardDHT()...)
	return append(dst, b[2:]...)
}
