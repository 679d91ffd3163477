package camera

import "image"

// Square turns a camera picture into what goes in the card holder: the largest centred
// square of src, averaged down to dst's side (dst must be square), flipped left to right when
// mirror, and its levels stretched as a printed card's are: the darkest 2% black, the lightest
// 2% white, so that the retina's own rules (the figure is what differs from the card's
// border; a cell is on past half the lamp's light) treat it like a card. A picture with little
// contrast (a blank sheet, a covered lens) is stretched at most MaxGain times, so its noise
// does not become a figure. It does not allocate.
func Square(dst *image.Gray, src *Frame, mirror bool) {
	side := dst.Rect.Dx()
	if src.W <= 0 || src.H <= 0 || side <= 0 {
		for i := range dst.Pix {
			dst.Pix[i] = 255
		}
		return
	}
	sq := min(src.W, src.H)
	ox, oy := (src.W-sq)/2, (src.H-sq)/2
	var hist [256]int
	for py := range side {
		y0, y1 := oy+py*sq/side, oy+max((py+1)*sq/side, py*sq/side+1)
		row := dst.Pix[py*dst.Stride : py*dst.Stride+side]
		for px := range side {
			x0, x1 := ox+px*sq/side, ox+max((px+1)*sq/side, px*sq/side+1)
			sum := 0
			for y := y0; y < y1; y++ {
				line := src.Pix[y*src.W+x0 : y*src.W+x1]
				for _, v := range line {
					sum += int(v)
				}
			}
			v := uint8(sum / ((y1 - y0) * (x1 - x0)))
			if mirror {
				row[side-1-px] = v
			} else {
				row[px] = v
			}
			hist[v]++
		}
	}
	stretch(dst, &hist, side*side)
}

// MaxGain is the most Square multiplies a picture's contrast by.
const MaxGain = 4

// stretch maps the levels of g so that its 2nd percentile is 0 and its 98th 255 (at most
// MaxGain times the contrast, centred on the middle of the two).
func stretch(g *image.Gray, hist *[256]int, n int) {
	cut := n / 50
	lo, hi := 0, 255
	for acc := 0; lo < 255; lo++ {
		if acc += hist[lo]; acc > cut {
			break
		}
	}
	for acc := 0; hi > 0; hi-- {
		if acc += hist[hi]; acc > cut {
			break
		}
	}
	span := hi - lo
	if span < 256/MaxGain {
		mid := (lo + hi) / 2
		lo, span = mid-128/MaxGain, 256/MaxGain
	}
	var lut [256]uint8
	for v := range lut {
		lut[v] = uint8(min(255, max(0, (v-lo)*255/span)))
	}
	for i, v := range g.Pix {
		g.Pix[i] = lut[v]
	}
}
