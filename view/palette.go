package view

import "image/color"

// The palette: a dark cabinet, panels a shade lighter, incandescent lamps, red for what
// pushes an R-unit on and blue for what pushes it off. The red is bright and the blue dark,
// so that the weights' signs differ in brightness as well as in hue, for visitors who do not
// tell red from green (deuteranopia, protanopia); right and wrong differ in brightness too,
// and are written beside their lamp (access_test.go simulates both with Machado's matrices).
var (
	colBackground = color.RGBA{14, 16, 21, 255}
	colPanel      = color.RGBA{25, 29, 37, 255}
	colPanelEdge  = color.RGBA{52, 59, 72, 255}
	colTitleBar   = color.RGBA{20, 23, 30, 255}
	colText       = color.RGBA{226, 229, 235, 255}
	colTextDim    = color.RGBA{148, 157, 173, 255}
	colTextFaint  = color.RGBA{84, 92, 107, 255}
	colHeading    = color.RGBA{164, 178, 201, 255}
	colAmber      = color.RGBA{255, 178, 64, 255}
	colAmberDim   = color.RGBA{74, 52, 26, 255}
	colAmberGlow  = color.RGBA{255, 140, 30, 255}
	colGreen      = color.RGBA{110, 230, 130, 255}
	colGreenDim   = color.RGBA{30, 58, 38, 255}
	colRed        = color.RGBA{255, 100, 96, 255}
	colWrong      = color.RGBA{230, 90, 60, 255}
	colBlue       = color.RGBA{24, 64, 190, 255}
	colCellDark   = color.RGBA{18, 18, 20, 255}
	colCellLit    = color.RGBA{236, 226, 198, 255}
	colPaper      = color.RGBA{240, 234, 218, 255}
	colInk        = color.RGBA{24, 22, 20, 255}
	colDialFace   = color.RGBA{44, 48, 56, 255}
	colDialRim    = color.RGBA{78, 85, 98, 255}
	colBiasFace   = color.RGBA{70, 58, 40, 255}
	colStop       = color.RGBA{220, 60, 50, 255}
	colPointer    = color.RGBA{200, 205, 214, 255}
	colButton     = color.RGBA{40, 45, 56, 255}
	colButtonEdge = color.RGBA{70, 78, 94, 255}
	colButtonLit  = color.RGBA{255, 178, 64, 60}
	colTipBack    = color.RGBA{10, 12, 16, 238}
	colHeatZero   = color.RGBA{30, 32, 38, 255}
	colHighlight  = color.RGBA{255, 214, 120, 255}
	colShadow     = color.RGBA{0, 0, 0, 150}
)
