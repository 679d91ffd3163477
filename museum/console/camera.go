package console

import (
	"image"
	"time"

	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/screen"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Camera is where the console takes the camera's pictures from (a *camera.Feed).
type Camera interface {
	// Latest copies the latest square picture into dst and returns its number and the
	// camera's status; it never waits.
	Latest(dst *image.Gray) (uint64, camera.Status)
	// Side is the side of the pictures.
	Side() int
}

// cameraDesk is the visitor's side of the camera: its latest picture, and whether the
// retina follows it (live).
type cameraDesk struct {
	src    Camera
	pic    *image.Gray
	seq    uint64
	shown  uint64 // the picture last shown to the machine
	status camera.Status
	live   bool
}

// HasCamera reports whether the console has a camera.
func (c *Console) HasCamera() bool { return c.cam.src != nil }

// CameraPicture returns the camera's latest picture (the console's copy: read it before the
// next Tick), its number and the camera's status.
func (c *Console) CameraPicture() (*image.Gray, uint64, camera.Status) {
	return c.cam.pic, c.cam.seq, c.cam.status
}

// CameraLive reports whether the retina follows the camera.
func (c *Console) CameraLive() bool { return c.cam.live }

// tickCamera takes the camera's latest picture and, live, shows it to the machine as often
// as a drawing is shown while it is drawn.
func (c *Console) tickCamera() {
	if c.cam.src == nil {
		return
	}
	c.cam.seq, c.cam.status = c.cam.src.Latest(c.cam.pic)
	if c.cam.live && (c.cam.status.State != camera.Live || c.attract != nil) {
		c.cam.live = false
	}
	if c.cam.live && c.cam.seq != c.cam.shown && c.now.Sub(c.lastShown) >= presentEvery {
		c.presentCamera()
	}
}

func (c *Console) presentCamera() {
	c.cmd.Present(c.cam.pic)
	c.cam.shown, c.lastShown = c.cam.seq, c.now
	c.UI.HaveDrawing = true // the class keys teach the picture in the holder
}

// cameraReady says whether there is a picture to show; if not, the visitor is told why.
func (c *Console) cameraReady() bool {
	if c.cam.src == nil {
		return false
	}
	if c.cam.status.State != camera.Live || c.cam.seq == 0 {
		msg := screen.CameraMessage(c.cam.status.State, c.UI.Lang)
		if msg == "" {
			msg = c.UI.Lang.S(i18n.CamNoPicture)
		}
		c.note(msg)
		return false
	}
	return true
}

// ShowIt puts the camera's picture in the card holder: the machine answers it, and the class
// keys teach it. The retina stops following the camera.
func (c *Console) ShowIt() {
	if c.touched() {
		c.showIt()
	}
}

func (c *Console) showIt() {
	if !c.cameraReady() {
		return
	}
	c.cam.live = false
	c.clearCanvas()
	c.UI.Drawing, c.drawing = nil, false
	c.cmd.Stop()
	c.presentCamera()
	c.say(i18n.CamShown)
}

// SetCameraLive makes the retina follow the camera (the machine stops and answers every
// picture, without learning), or stop following it.
func (c *Console) SetCameraLive(on bool) {
	if !c.touched() {
		return
	}
	if on && !c.cameraReady() {
		return
	}
	c.cam.live = on
	if on {
		c.clearDrawing()
		c.cmd.Stop()
		c.presentCamera()
		c.say(i18n.CamLive)
	}
}

// ownScene is how long the curator's own scene of the attract mode stays (before the pace).
const ownScene = 9 * time.Second

// sceneTime is a scene's time at the curator's pace.
func (c *Console) sceneTime(d time.Duration) time.Duration {
	return time.Duration(float64(d) * c.opts.AttractPace)
}
