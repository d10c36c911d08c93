/**
 * Runs inside the page (evaluated through the debugger, so self-contained): whether the document
 * can change by itself after `load`. It can when it has a script element of any kind (which may
 * start timers, fetches or workers) or a meta refresh (a navigation after a delay). Inline event
 * handlers (`onload`, `onerror`) fire on events that have happened by `load` or need a request,
 * which the caller sees in flight. A page without either is settled at `load`: waiting for the
 * network to stay quiet would be time spent on nothing, most of a static page's time in a task.
 */
export function pageIsInert(): boolean {
  return document.scripts.length === 0 && document.querySelector('meta[http-equiv="refresh" i]') === null;
}
