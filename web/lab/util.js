// Small helpers the page's modules share: saving a file, copying text, waiting.

// download saves data (a string or a Blob) as a file of the given name.
export function download(name, data, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type: type || "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// copy puts text on the clipboard (selecting it in el when the clipboard is not allowed, as
// on a page served over plain http to another machine) and says whether it could.
export async function copy(text, el) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (el) {
      const r = document.createRange();
      r.selectNodeContents(el);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(r);
    }
    return false;
  }
}

// debounce calls f once, ms after the last of a burst of calls.
export function debounce(f, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}

// throttle calls f at most once every ms (the last call of a burst is not lost).
export function throttle(f, ms) {
  let last = 0, timer = 0;
  return (...args) => {
    const now = Date.now(), wait = last + ms - now;
    clearTimeout(timer);
    if (wait <= 0) {
      last = now;
      f(...args);
    } else {
      timer = setTimeout(() => { last = Date.now(); f(...args); }, wait);
    }
  };
}

// drawn marks the page's first frame drawn (body.dataset.ready, which the tests wait for) and
// when it came (body.dataset.readyMs, milliseconds since the page began to load).
export function drawn() {
  if (document.body.dataset.ready) return;
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "1";
}
