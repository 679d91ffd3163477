// Package hwapi is the network API of the mark1 hardware bridge (cmd/hwbridge): the HTTP
// handler, its JSON wire types and decoders, the event stream, and the client mark1 uses to
// mirror a machine's weights on a rig or to run a small machine whose weights are the rig's
// pots (a machine.Rack over HTTP).
//
// The package does not touch hardware: the bridge gives the handler a Backend. It imports
// neither periph nor ebiten, so the mark1 command can use the client.
//
// # Endpoints (version 1)
//
//	GET  /v1/info                  the rig: mode, update rate, watchdog, pots, the machine
//	GET  /v1/status                chips' health, pots' targets and read-backs, bus traffic
//	POST /v1/frame                 mirror: weight targets {"seq": N, "weights": [{"r","a","w"}]}
//	POST /v1/heartbeat             the controlling client is alive (feeds the watchdog)
//	POST /v1/loop/sum              loop: {"r", "active": [...]} -> {"sum"}
//	POST /v1/loop/drive            loop: {"r", "active", "on_active", "on_inactive"}
//	GET  /v1/loop/readings?r=N     loop: the read-back weights of R-unit N
//	POST /v1/halt                  stop motion now (?park=1: park the servos); nothing moves again until /v1/resume
//	POST /v1/resume                after a halt: motion may go on
//	POST /v1/release               the controlling client is done: the watchdog waits for the next one, the knobs stay
//	GET  /v1/events                Server-Sent Events: faults, recoveries, the watchdog, buttons
//	POST /v1/sim/fault             a simulated rig only: inject a bus fault
//
// Every request but to a loopback listener without a token carries "Authorization: Bearer
// TOKEN" (compared in constant time). Bodies are at most MaxBody bytes of JSON
// ("Content-Type: application/json") with no unknown field and every field a command needs;
// a malformed request gets status 400 and a one-line {"error": ...} and changes nothing.
// Requests beyond Opts.Rate per second get 429.
//
// # Browsers
//
// No web page open on the bridge's computer may move a motor, or read the rig: the handler's
// defences are the chain of internal/httpguard, which mark1 web and the museum's status
// endpoint share. It refuses (403) a cross-origin request, as Go's http.CrossOriginProtection
// judges it from Sec-Fetch-Site and Origin, of any method (GETs too, which
// CrossOriginProtection lets through); without a token, one whose Host is not a loopback name
// or address (or one of Opts.AllowHosts), as a DNS-rebinding page's requests are; and (415) a
// POST whose body is not application/json, the one type a page cannot send to another site
// without asking first. The token comes next (401), then the rate limit (429,
// golang.org/x/time/rate), then the body's bound (413).
//
// # Held, parked, halted
//
// The watchdog arms at the first control request (frame, heartbeat, sum, drive) and disarms at
// POST /v1/release: a bridge waiting for its first client is never stopped by it. When it fires
// (no control request for the rig's watchdog time), motion stops (hold, or park); the next
// control request resumes it, and its reply says so ("resumed"). POST /v1/halt is an
// operator's stop: every request that would move a pot gets 409 until POST /v1/resume. Each
// stop raises the rig's Generation (in /v1/status and every frame and heartbeat reply): a
// client that sees it change sends every weight again, so every knob comes back.
//
// A weight is named by its R-unit r and A-unit a (a = -1 for the bias), in increments.
package hwapi

import "time"

// Version is the API version the paths carry.
const Version = 1

// Info describes the rig a bridge runs.
type Info struct {
	Version  int     `json:"version"`
	Boot     string  `json:"boot"` // changes when the bridge restarts: resend every weight
	Rig      string  `json:"rig"`  // the rig file
	Mode     string  `json:"mode"` // "mirror" or "loop"
	Simulate bool    `json:"simulate"`
	UpdateHz float64 `json:"update_hz"`
	Watchdog float64 `json:"watchdog_s"` // 0: no watchdog
	// Tolerance is how far, in increments, the closed loop lets a read-back pot's weight be
	// from its target (0: the rig has no read-back).
	Tolerance float64   `json:"tolerance,omitempty"`
	Pots      []PotInfo `json:"pots"`
	Machine   *Machine  `json:"machine,omitempty"`
}

// Period returns the rig's update period.
func (i Info) Period() time.Duration {
	if i.UpdateHz <= 0 {
		return 50 * time.Millisecond
	}
	return time.Duration(float64(time.Second) / i.UpdateHz)
}

// PotInfo is one pot of the rig.
type PotInfo struct {
	R        int     `json:"r"`
	A        int     `json:"a"` // -1: the bias
	Range    float64 `json:"range"`
	Out      string  `json:"out"`
	Readback string  `json:"readback,omitempty"`
	// Step is the smallest move of the pot's output, in increments (a wiper step, a servo
	// board's count).
	Step float64 `json:"step,omitempty"`
}

// Machine is the rig's [machine]: for a loop rig, the machine whose weights the pots are.
type Machine struct {
	AUnits int    `json:"a_units"`
	RUnits int    `json:"r_units"`
	Seed   uint64 `json:"seed"`
	Rule   string `json:"rule"`
	Wiring string `json:"wiring"`          // random, local, identity, or the wiring file's name
	Board  string `json:"board,omitempty"` // the wiring file's text, when the wiring is a file
	Data   string `json:"data,omitempty"`
}

// Weight is one weight's value.
type Weight struct {
	R int     `json:"r"`
	A int     `json:"a"`
	W float64 `json:"w"`
}

// Frame is a mirror client's weight targets.
type Frame struct {
	Seq     uint64   `json:"seq"`
	Weights []Weight `json:"weights"`
}

// FrameReply answers a Frame.
type FrameReply struct {
	Seq     uint64 `json:"seq"`
	Applied int    `json:"applied"` // weights the rig shows among those sent
	Ack
}

// Ack is what every control request's reply says of the rig's motion.
type Ack struct {
	// Generation counts the times motion stopped (watchdog, halt): when it changed since the
	// last reply, the pots may not show what the client sent, and it sends every weight again.
	Generation uint64 `json:"generation"`
	// Resumed, when not empty, says that motion had stopped and this request resumed it.
	Resumed string `json:"resumed,omitempty"`
}

// SumRequest asks a loop rig for an R-unit's sum.
type SumRequest struct {
	R      int      `json:"r"`
	Active []uint16 `json:"active"`
}

// SumReply is an R-unit's sum from the read-back weights; Error is a fault met (the sum is
// still the best the rig has).
type SumReply struct {
	Sum   float64 `json:"sum"`
	Error string  `json:"error,omitempty"`
}

// DriveRequest is a correction of an R-unit on a loop rig.
type DriveRequest struct {
	R          int      `json:"r"`
	Active     []uint16 `json:"active"`
	OnActive   float64  `json:"on_active"`
	OnInactive float64  `json:"on_inactive"`
}

// DriveReply answers a DriveRequest once the pots have settled.
type DriveReply struct {
	Error string `json:"error,omitempty"`
	Ack
}

// Readings are an R-unit's read-back weights (the A-units', then the bias).
type Readings struct {
	R     int       `json:"r"`
	W     []float64 `json:"w"`
	Error string    `json:"error,omitempty"`
}

// Fault asks a simulated rig to inject a bus fault.
type Fault struct {
	Bus   string  `json:"bus"`
	Addr  int     `json:"addr"` // -1: every address
	Kind  string  `json:"kind"` // "nack", "timeout", "stuck" or "clear"
	Count int     `json:"count,omitempty"`
	Prob  float64 `json:"prob,omitempty"`
}

// Event is something the bridge reports on its event stream.
type Event struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"` // fault, recovered, power_loss, not_following, watchdog, resumed, button, ...
	Chip    string    `json:"chip,omitempty"`
	Pot     string    `json:"pot,omitempty"`
	Message string    `json:"message"`
}

// ChipStatus is a chip's health.
type ChipStatus struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"`
	Bus     string    `json:"bus,omitempty"`
	Address uint16    `json:"address,omitempty"`
	OK      bool      `json:"ok"`
	Error   string    `json:"error,omitempty"`
	Since   time.Time `json:"since,omitzero"`
	Faults  int       `json:"faults"`
}

// PotStatus is a pot's state.
type PotStatus struct {
	Weight   string  `json:"weight"`
	R        int     `json:"r"`
	A        int     `json:"a"`
	Out      string  `json:"out"`
	Readback string  `json:"readback,omitempty"`
	Target   float64 `json:"target"`
	Position float64 `json:"position"`
	Reading  float64 `json:"reading"`
	Moving   bool    `json:"moving"`
	OK       bool    `json:"ok"`
	Problem  string  `json:"problem,omitempty"`
}

// BusStats is a bus's traffic.
type BusStats struct {
	Transactions uint64 `json:"transactions"`
	Failed       uint64 `json:"failed"`
	Bytes        uint64 `json:"bytes"`
}

// FrameStats counts the rig's update frames.
type FrameStats struct {
	Frames          uint64 `json:"frames"`
	WriteFrames     uint64 `json:"write_frames"`
	LastFrameBytes  int    `json:"last_frame_bytes"`
	MaxFrameBytes   int    `json:"max_frame_bytes"`
	TotalWriteBytes uint64 `json:"total_write_bytes"`
	// Corrections counts the closed loop's re-drives: a pot read back off its target after a
	// move, driven again (mark1 bridge's report calls them re-drives; a machine's corrections
	// are its learning's, counted in its epochs). The JSON name is the API's.
	Corrections uint64 `json:"corrections"`
	Reads       uint64 `json:"reads"`
}

// Status is a picture of the rig.
type Status struct {
	Mode string `json:"mode"`
	Held bool   `json:"held"`
	// Watchdog is "off" (the rig has none), "idle" (no client yet, or the last one released
	// the rig), "armed" (a client is in control) or "stopped" (it fired: motion stopped).
	Watchdog string `json:"watchdog"`
	// Halted, when not empty, says who halted the rig (POST /v1/halt): nothing moves until
	// POST /v1/resume.
	Halted     string              `json:"halted,omitempty"`
	Generation uint64              `json:"generation"`
	Chips      []ChipStatus        `json:"chips"`
	Pots       []PotStatus         `json:"pots"`
	Buses      map[string]BusStats `json:"buses"`
	Frames     FrameStats          `json:"frames"`
	Events     []Event             `json:"events"`
	Requests   RequestStats        `json:"requests"`
}

// RequestStats counts the API's requests.
type RequestStats struct {
	Served      uint64 `json:"served"`
	Refused     uint64 `json:"refused"`      // malformed, unauthorized or too large
	RateLimited uint64 `json:"rate_limited"` // answered 429
}

// errorReply is every error's body.
type errorReply struct {
	Error string `json:"error"`
}
