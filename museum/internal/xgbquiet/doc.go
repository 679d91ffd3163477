// Package xgbquiet drops the two notes ebiten's X library logs on every start under an X
// server without authorization: jezek/xgb, through which ebiten asks the X server for the
// monitor's scale while its user-interface package is initialised, writes "Could not get
// authority info" and "Trying connection without authority info..." to stderr at each of
// its two connections when there is no Xauthority file (a bare Xvfb, an X server started
// without authorization), and the connection then works (when it does not, ebiten goes on
// without it). Every other line of xgb's goes to stderr as before.
//
// The logger must be replaced before ebiten connects, in its package initialisation. Go
// initialises packages in dependency order and then by import path: this package depends only
// on xgb and the standard library, so it is ready as soon as xgb is, while ebiten's
// user-interface package still waits for packages of its own; imported by package museum, it
// is initialised between the two. The window tests check that the museum under a bare X
// server prints nothing.
package xgbquiet
