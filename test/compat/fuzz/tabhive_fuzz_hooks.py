"""Schemathesis hooks for fuzzing Tabhive (test/compat/fuzz/run-api-fuzz.ts loads this module).

Positive cases keep every field the fuzzer chose, except what would send the browser off the
loopback fixture site or keep it busy for minutes: target URLs point at fixture pages, waits and
crawl sizes are capped. Negative cases (data the document refuses) are left alone, so validation
is fuzzed as generated.

The server-error check is Tabhive's own: a 5xx fails the run unless it is one the document
declares for a scrape that the target page made fail (a SCRAPE_* code, e.g. an action whose
selector is not on the page) or a stealth request with no stealth browser configured.
"""

import os

import schemathesis

SITE = os.environ["FUZZ_SITE_URL"]
PAGES = ["/", "/about.html", "/docs/", "/docs/page-1.html", "/docs/page-2.html"]
MAX_WAIT_MS = 1000
MAX_TIMEOUT_MS = 30000
MAX_CRAWL_PAGES = 2
ACCEPTED_SERVER_ERRORS = ("STEALTH_UNAVAILABLE",)


def _page(value, index=0):
    return f"{SITE}{PAGES[(len(value) + index) % len(PAGES)]}"


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _tame(options):
    """Caps the fields that cost time, in scrape options at any level and in crawl bodies."""
    if not isinstance(options, dict):
        return
    if _is_int(options.get("waitFor")) and options["waitFor"] > MAX_WAIT_MS:
        options["waitFor"] = MAX_WAIT_MS
    if _is_int(options.get("timeout")) and options["timeout"] > MAX_TIMEOUT_MS:
        options["timeout"] = MAX_TIMEOUT_MS
    if _is_int(options.get("limit")) and options["limit"] > MAX_CRAWL_PAGES:
        options["limit"] = MAX_CRAWL_PAGES
    if isinstance(options.get("delay"), (int, float)) and not isinstance(options["delay"], bool) and options["delay"] > 0.1:
        options["delay"] = 0.1
    if isinstance(options.get("webhook"), str):
        options["webhook"] = f"{SITE}/webhook"
    elif isinstance(options.get("webhook"), dict) and isinstance(options["webhook"].get("url"), str):
        options["webhook"]["url"] = f"{SITE}/webhook"
    for action in options.get("actions") or []:
        if isinstance(action, dict) and _is_int(action.get("milliseconds")) and action["milliseconds"] > MAX_WAIT_MS:
            action["milliseconds"] = MAX_WAIT_MS
    _tame(options.get("scrapeOptions"))


@schemathesis.hook
def map_case(context, case):
    # Negative cases stay as generated: the server must refuse them before any page work.
    meta = getattr(case, "meta", None)
    if meta is not None and str(meta.generation.mode) != "positive":
        return case
    body = case.body
    if not isinstance(body, dict):
        return case
    if isinstance(body.get("url"), str):
        body["url"] = _page(body["url"])
    if isinstance(body.get("urls"), list):
        body["urls"] = [_page(url, index) if isinstance(url, str) else url for index, url in enumerate(body["urls"][:2])]
    _tame(body)
    return case


@schemathesis.check
def no_unexpected_server_error(ctx, response, case):
    """A 5xx is a bug unless it is a declared, coded answer to what the target page did."""
    if response.status_code < 500:
        return None
    try:
        code = response.json().get("code") or ""
    except Exception:
        code = ""
    # SCRAPE_ALL_ENGINES_FAILED says the browser itself failed: that is Tabhive's fault.
    if (code.startswith("SCRAPE_") and code != "SCRAPE_ALL_ENGINES_FAILED") or code in ACCEPTED_SERVER_ERRORS:
        return None
    raise AssertionError(f"Server error {response.status_code} {code or '(no code)'}: {response.text[:500]}")
