package peers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Pinned versions of the drivers install.sh installs (keep the two in step: a test checks).
var Pinned = map[string]string{
	"pca9685":       "5.0.0",
	"ads1x15":       "1.2.0",
	"node-mcp23017": "0.1.0",
}

// ModulesDir is where install.sh put the drivers: $MARK1_PEER_MODULES, or
// ~/.cache/mark1/npm/node_modules.
func ModulesDir() string {
	if d := os.Getenv("MARK1_PEER_MODULES"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "mark1", "npm", "node_modules")
}

// Dir is this package's directory (the stand-in i2c-bus and the scripts).
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Dir(file)
}

// Check says why the drivers cannot run here (node missing, a package missing or at another
// version), or nil.
func Check() error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node: %w (bash drivers/i2csim/peers/install.sh installs it)", err)
	}
	dir := ModulesDir()
	for name, version := range Pinned {
		b, err := os.ReadFile(filepath.Join(dir, name, "package.json"))
		if err != nil {
			return fmt.Errorf("%s: %w (bash drivers/i2csim/peers/install.sh installs it)", name, err)
		}
		if !bytes.Contains(b, []byte(`"version": "`+version+`"`)) {
			return fmt.Errorf("%s in %s is not version %s: run drivers/i2csim/peers/install.sh", name, dir, version)
		}
	}
	return nil
}

// Run runs script (a file of this directory) under node with args, its i2c-bus served by
// srv, and returns what it printed on stdout. It fails when node exits non-zero, and stops
// it after timeout.
func Run(srv *Server, timeout time.Duration, script string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return "", err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return "", err
	}
	dir := Dir()
	cmd := exec.CommandContext(ctx, "node", append([]string{"--require", filepath.Join(dir, "preload.js"), filepath.Join(dir, script)}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+ModulesDir(), "MARK1_I2C_BUS_STANDIN="+filepath.Join(dir, "i2c-bus.js"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.ExtraFiles = []*os.File{reqW, repR} // fd 3: requests, fd 4: replies
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{reqR, reqW, repR, repW} {
			f.Close()
		}
		return "", err
	}
	reqW.Close()
	repR.Close()
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(reqR, repW)
		repW.Close()
		reqR.Close()
		served <- err
	}()
	werr := cmd.Wait()
	reqW.Close()
	serr := <-served
	if werr != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			werr = fmt.Errorf("timed out after %v", timeout)
		}
		return stdout.String(), fmt.Errorf("node %s %s: %w\n%s", script, strings.Join(args, " "), werr, stderr.String())
	}
	if serr != nil {
		return stdout.String(), fmt.Errorf("serving %s: %w", script, serr)
	}
	return stdout.String(), nil
}
