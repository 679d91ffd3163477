// Command mark1-lab is the browser lab's WebAssembly program: built for js/wasm (make web
// builds it into web/dist/lab/), it binds package lab/playground to JavaScript as the global
// object mark1labRaw, then resolves the page's promise (it calls globalThis.mark1labResolve)
// and waits for calls. The page's web/lab/api.js (wrapLab) makes of it the object mark1lab,
// whose every function takes plain JavaScript values (strings, numbers, objects, arrays) and
// returns what the Go side marshals as JSON, parsed; a refusal or a Go panic in a call is
// thrown as an Error with a one-line message (a panic's names the call). The wrapping is the
// page's, in a file, because a function made from text (Function, eval) is what mark1 web's
// Content-Security-Policy forbids.
//
// The functions (see lab/playground for the JSON of each):
//
//	demos()                        the registry of runs, with their parameters
//	run(name, query)               {report, command}: a run from a URL query of its flags
//	session(config)                a 2-D playground's id
//	state(id), add(id, x1, x2, label), move(id, index, x1, x2), remove(id, index),
//	set(id, config), step(id), epoch(id), runToEnd(id), reset(id), loadCSV(id, text)
//	                               the session's whole state after the change
//	csv(id)                        the session's points as CSV text (the --data FILE format)
//	traceCSV(id)                   the session's whole trace as CSV text
//	close(id)                      forgets the session
//	retina(config)                 a retina panel's id
//	retinaState(id), draw(id, cells), show(id, card), teach(id, class),
//	train(id, set, epochs), retinaSet(id, config)
//	                               the panel's state after the change
//	closeRetina(id)                forgets the panel
//
// Built for any other platform it only says that it runs in a browser, and exits with status 2.
package main
