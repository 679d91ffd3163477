// Package labpage holds the browser lab's page: index.html, its JavaScript modules (lab.js
// and those it imports: plain ES modules, no framework, no build step), lab.css and the words
// in four languages (i18n.json). The numbers it shows are computed by the lab's own Go code
// compiled to WebAssembly (cmd/mark1-lab, the global mark1lab); make web copies the folder
// beside it into web/dist/lab/, and mark1 web serves it at /lab/.
//
// It has no Go code. Its tests hold the language table to four languages and every word the
// page uses (go test), and, with MARK1_BROWSER_TEST=1 (scripts/lab-page-test.sh), open the
// page in headless Chromium: a link's trace table against mark1 lab trace's for the same
// flags, a click adding a point, each demonstration's link against mark1 lab's tables, the
// Mark I's retina, languages, projector mode, keys, a failed start.
package labpage
