//go:build unix

// Package xdisplay checks, before any window library starts, that the X display named by
// $DISPLAY can be reached. It imports only syscall, so that a package initialised early can use
// it (see museum/displayguard).
package xdisplay

import "syscall"

// Check returns what is wrong with the display named display (the value of $DISPLAY), or ""
// when a window may try it: an empty name, or a local server (a socket or localhost) that
// accepts no connection, is wrong; a remote server or an unknown form is not checked.
func Check(display string) string {
	if display == "" {
		return "no display: $DISPLAY is not set (the window needs an X server, or XWayland under Wayland)"
	}
	host, n, ok := parse(display)
	if !ok {
		return "" // a form this check does not know: let the window try
	}
	if host == "" || host == "unix" {
		// The local server's socket, in the file system or Linux's abstract namespace.
		path := "/tmp/.X11-unix/X" + n
		if reach(&syscall.SockaddrUnix{Name: path}) || reach(&syscall.SockaddrUnix{Name: "@" + path}) {
			return ""
		}
		return "cannot reach the display $DISPLAY=" + display + " (no X server listens at " + path + ")"
	}
	if host == "localhost" || host == "127.0.0.1" {
		port := 6000 + atoi(n)
		if reach(&syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}) {
			return ""
		}
		return "cannot reach the display $DISPLAY=" + display
	}
	return "" // a remote server: let the window try
}

// parse splits DISPLAY, [host]:number[.screen], into the host and the number.
func parse(d string) (host, n string, ok bool) {
	colon := -1
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] == ':' {
			colon = i
			break
		}
	}
	if colon < 0 {
		return "", "", false
	}
	host, rest := d[:colon], d[colon+1:]
	if len(host) > 0 && host[0] == '/' {
		return "", "", false // a launchd-style socket path
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == 0 || end > 6 || (end < len(rest) && rest[end] != '.') {
		return "", "", false
	}
	return host, rest[:end], true
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// reach reports whether something accepts a connection at sa.
func reach(sa syscall.Sockaddr) bool {
	family := syscall.AF_UNIX
	if _, ok := sa.(*syscall.SockaddrInet4); ok {
		family = syscall.AF_INET
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM, 0)
	if err != nil {
		return true // cannot tell: let the window try
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, sa) == nil
}
