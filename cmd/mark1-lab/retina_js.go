//go:build js && wasm

package main

func retinaCalls() map[string]call { return map[string]call{} }
