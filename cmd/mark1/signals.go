package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
)

// stopSignals end long work cleanly: SIGINT (Ctrl-C), SIGTERM and SIGHUP.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalWatch records the first stop signal, for the work to end at a clean point; a second
// one ends the program at once, removing any state file half-written (the old file stays).
type signalWatch struct {
	ch   chan os.Signal
	got  atomic.Pointer[os.Signal]
	done chan struct{}
	once sync.Once
}

func watchSignals() *signalWatch {
	w := &signalWatch{ch: make(chan os.Signal, 2), done: make(chan struct{})}
	signal.Notify(w.ch, stopSignals...)
	go func() {
		for {
			select {
			case s := <-w.ch:
				if w.got.CompareAndSwap(nil, &s) {
					continue
				}
				atomicfile.Abort()
				fmt.Fprintf(os.Stderr, "mark1: %s again: stopped at once, nothing more saved\n", s)
				os.Exit(signalStatus(s))
			case <-w.done:
				return
			}
		}
	}()
	return w
}

// signal returns the stop signal received, or nil.
func (w *signalWatch) signal() os.Signal {
	if p := w.got.Load(); p != nil {
		return *p
	}
	return nil
}

// release gives the signals back their default action (ending the program).
func (w *signalWatch) release() {
	w.once.Do(func() {
		signal.Stop(w.ch)
		close(w.done)
	})
}

// signalStatus is the exit status of a program ended by s: 128 plus its number, as shells
// report it.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}

// interrupted is the error of work stopped by a signal.
type interrupted struct {
	sig os.Signal
	msg string
}

func (e *interrupted) Error() string { return e.msg }
