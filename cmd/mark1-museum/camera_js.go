//go:build js

package main

import "github.com/mark1-perceptron/mark1/museum/camera"

func browserCamera() camera.Source { return &camera.Browser{} }
