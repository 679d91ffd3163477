//go:build !linux

package camera

import "errors"

// V4L2 is a Linux camera; elsewhere it is always missing.
type V4L2 struct {
	Device        string
	Width, Height int
}

// Name implements Source.
func (c *V4L2) Name() string { return c.Device }

// Open implements Source: there is no Video4Linux2 here.
func (c *V4L2) Open() error {
	return describe(c.Device, ErrMissing, errors.New("Video4Linux2 cameras are read on Linux only"))
}

// Read implements Source.
func (c *V4L2) Read(dst *Frame) error { return ErrMissing }

// Close implements Source.
func (c *V4L2) Close() error { return nil }
