package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/rig"
)

// attackPage is a web page of another site (another loopback port) whose script tries every
// way a page can make a browser send the bridge a request that would move a pot: fetch in
// no-cors mode with a text/plain body (a "simple" request, sent without asking), fetch with
// application/json (which needs a preflight), sendBeacon, and a form posted into an iframe;
// to 127.0.0.1 and to localhost. It writes what it saw into the page for the test to read.
const attackPage = `<!doctype html><html><body><pre id="log"></pre>
<iframe name="sink" style="display:none"></iframe>
<script>
const log = s => { document.getElementById('log').textContent += s + '\n'; };
const body = JSON.stringify({r: 0, active: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], on_active: 5, on_inactive: 5});
const frame = JSON.stringify({seq: 1, weights: [{r: 0, a: 0, w: 9}]});
async function attack() {
  for (const base of ['http://127.0.0.1:%[1]s', 'http://localhost:%[1]s']) {
    const drive = base + '/v1/loop/drive';
    try { await fetch(drive, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body}); log('no-cors text/plain: sent'); }
    catch (e) { log('no-cors text/plain: ' + e); }
    try { await fetch(drive, {method: 'POST', mode: 'no-cors', body}); log('no-cors default type: sent'); }
    catch (e) { log('no-cors default type: ' + e); }
    try { const r = await fetch(drive, {method: 'POST', headers: {'Content-Type': 'application/json'}, body}); log('cors json: ' + r.status + ' ' + await r.text()); }
    catch (e) { log('cors json: ' + e); }
    try { log('beacon: ' + navigator.sendBeacon(drive, new Blob([body], {type: 'text/plain'}))); }
    catch (e) { log('beacon: ' + e); }
    try { await fetch(base + '/v1/frame', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body: frame}); log('frame: sent'); }
    catch (e) { log('frame: ' + e); }
    try { const r = await fetch(base + '/v1/info'); log('read info: ' + r.status); }
    catch (e) { log('read info: ' + e); }
    const f = document.createElement('form');
    f.method = 'POST'; f.action = drive; f.enctype = 'text/plain'; f.target = 'sink';
    const i = document.createElement('input'); i.name = body.slice(0, -1) + ',"x":"'; i.value = '"}';
    f.appendChild(i); document.body.appendChild(f); f.submit(); log('form: submitted');
    await new Promise(r => setTimeout(r, 500));
  }
  log('done');
}
attack();
</script></body></html>`

// TestBrowserCannotDriveTheRig opens, in headless Chromium, a page served from another
// loopback port whose script tries to drive a bridge without a token (issue 18: a text/plain
// POST from any page moved the motors); no pot may move, and the bridge must have refused
// what reached it. It runs when MARK1_BROWSER_TEST=1 (scripts/rig-test.sh sets it, after
// installing Chromium); CHROMIUM names the browser (default /usr/bin/chromium).
func TestBrowserCannotDriveTheRig(t *testing.T) {
	if os.Getenv("MARK1_BROWSER_TEST") != "1" {
		t.Skip("MARK1_BROWSER_TEST is not 1 (scripts/rig-test.sh runs this test with Chromium installed)")
	}
	spec, err := rig.ReadFile("../../testdata/rig/sim-loop.toml")
	if err != nil {
		t.Fatal(err)
	}
	sim, env := rigdev.Simulate(spec, i2csim.WallClock{}, rigdev.SimOpts{Seed: 2})
	var logs bytes.Buffer
	env.Logger = textLogger(&logs)
	hw, err := rigdev.Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBackend(hw, sim)
	if err != nil {
		t.Fatal(err)
	}
	var apiLog bytes.Buffer
	h := api(b, hwapi.Opts{Logger: textLogger(&apiLog)})
	bridge := httptest.NewServer(h)
	defer bridge.Close()
	_, port, _ := strings.Cut(bridge.Listener.Addr().String(), ":")
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, attackPage, port)
	}))
	defer page.Close()

	wipers := func() []int {
		var w []int
		for _, name := range []string{"pots0", "pots1", "pots2", "pots3"} {
			for i := range 4 {
				w = append(w, sim.MCP44x1[name].Wiper(i))
			}
		}
		return w
	}
	before := wipers()
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000", "--dump-dom", page.URL)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	t.Logf("the page's log:\n%s", dom)
	if !strings.Contains(string(dom), "done") || !strings.Contains(string(dom), "no-cors text/plain: sent") {
		t.Fatalf("the page's script did not run to its end:\n%s", dom)
	}
	// The beacon and the form go out after the page's script: give them time to arrive.
	time.Sleep(time.Second)
	hw.Step()
	if after := wipers(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a web page moved the pots: wipers %v, were %v", after, before)
	}
	c, err := hwapi.NewClient(bridge.Listener.Addr().String(), "")
	if err != nil {
		t.Fatal(err)
	}
	status, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if status.Requests.Refused < 5 {
		t.Errorf("the bridge refused %d requests: the page's attempts did not reach it (the test proves nothing)", status.Requests.Refused)
	}
	if strings.Contains(string(dom), "read info: 200") {
		t.Error("the page read the bridge's info")
	}
	if !strings.Contains(apiLog.String(), `level=WARN msg=refused component=hwapi method=POST path=/v1/loop/drive addr=127.0.0.1 status=403 reason="Origin`) {
		t.Errorf("the refusals were not logged:\n%s", apiLog.String())
	}
	t.Logf("bridge log:\n%s", apiLog.String())
}
