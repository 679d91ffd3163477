//go:build !js

package main

import "github.com/mark1-perceptron/mark1/session"

// expose gives a browser's page the machine's state; a window has no page.
func expose(*session.Session, *exhibit) {}
