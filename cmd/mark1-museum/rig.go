//go:build !js

package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/riglink"
)

// firstWait is how long a museum that has never seen its bridge waits for it at the start,
// to learn whether its rig is a mirror or a loop (whose machine the museum runs). A museum
// that has seen it (riglink.SavedFile in the state folder) does not wait: the link finds the
// bridge when it comes.
const firstWait = 5 * time.Second

// setupRig connects the museum to the bridge at addr. The exhibit never stops for the
// hardware: a problem (no token, no bridge, a loop machine that can learn none of the
// experiments) is logged, and the museum runs without a rig (link nil) or with a link that
// finds the bridge later.
func setupRig(ctx context.Context, log *slog.Logger, addr, tokenFile, stateDir string, cfg machine.Config, offered []string, experiment string) exhibitRig {
	out := exhibitRig{cfg: cfg, offered: offered, experiment: experiment, stateDir: stateDir}
	token := ""
	if tokenFile != "" {
		var err error
		if token, err = riglink.ReadToken(tokenFile); err != nil {
			log.Error(fmt.Sprintf("the bridge's token: %v: the exhibit runs without its rig", err))
			return out
		}
	}
	link, err := riglink.New(riglink.Options{Addr: addr, Token: token, Logger: log})
	if err != nil {
		log.Error(fmt.Sprintf("--bridge %s: %v: the exhibit runs without its rig", addr, err))
		return out
	}
	saved, known, err := riglink.Load(stateDir, addr)
	if err != nil {
		log.Warn(fmt.Sprintf("%v: the exhibit waits for the bridge as for one it has never seen", err))
	}
	wait := firstWait
	if known {
		wait = 0
	}
	if info, ok := link.Connect(ctx, wait); ok {
		if err := riglink.Save(stateDir, addr, info); err != nil {
			log.Warn(fmt.Sprintf("keeping the bridge's rig: %v", err))
		}
	} else if known {
		link.SetInfo(saved)
		log.Warn(fmt.Sprintf("the bridge at %s does not answer: the exhibit starts with the %s rig it described last (%s), and finds the bridge when it comes", addr, saved.Mode, saved.Rig))
	} else {
		log.Warn(fmt.Sprintf("the bridge at %s did not answer in %v: the exhibit starts as a mirror of its own machine, and finds the bridge when it comes (a loop rig needs a restart once it has answered)", addr, firstWait))
	}
	out.link = link
	if !link.Loop() {
		return out
	}
	info, _ := link.Info()
	lcfg, err := hwapi.LoopConfig(info.Machine)
	if err != nil {
		log.Error(fmt.Sprintf("the loop rig's machine: %v: the exhibit runs without its rig", err))
		out.link = nil
		return out
	}
	var fit []string
	for _, name := range offered {
		set, err := builtin.Load(name)
		if err == nil {
			_, err = machine.New(lcfg, set.Classes)
		}
		if err == nil {
			fit = append(fit, name)
		}
	}
	if len(fit) == 0 {
		log.Error(fmt.Sprintf("the loop rig's machine (%d A-units, %d R-units) can learn none of the experiments %s: the exhibit runs without its rig",
			info.Machine.AUnits, info.Machine.RUnits, strings.Join(offered, ", ")))
		out.link = nil
		return out
	}
	out.cfg, out.offered = lcfg, fit
	if !slices.Contains(fit, experiment) {
		out.experiment = fit[0]
		if name, ok := strings.CutPrefix(info.Machine.Data, "builtin:"); ok && slices.Contains(fit, name) {
			out.experiment = name
		}
	}
	if stateDir != "" {
		out.stateDir = filepath.Join(stateDir, "loop")
	}
	log.Info(fmt.Sprintf("the machine learns on the loop rig's pots (%d A-units, %d R-units): the experiments %s", info.Machine.AUnits, info.Machine.RUnits, strings.Join(fit, ", ")))
	return out
}
