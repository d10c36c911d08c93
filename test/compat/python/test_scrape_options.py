"""firecrawl-py's v2 client with the newer options: lockdown, minAge (min_age), redactPII (redact_pii),
proxy "enhanced" and the crawl's robotsUserAgent (robots_user_agent).

The site is served from this file and counts its requests. scrape() has keyword arguments for
lockdown and proxy but not for min_age or redact_pii: those go through ScrapeOptions, as a user of
the lower-level methods module passes them.
"""

import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

import pytest
from firecrawl.v2.methods import crawl as crawl_methods
from firecrawl.v2.methods import scrape as scrape_methods
from firecrawl.v2.types import CrawlRequest, PaginationConfig, RedactPIIOptions, ScrapeOptions
from firecrawl.v2.utils.error_handler import BadRequestError, FirecrawlError

ROBOTS = "User-agent: FirecrawlAgent\nDisallow: /docs/internal/\n\nUser-agent: PartnerBot\nDisallow: /docs/beta/\n"
REQUESTS = Counter()


def _page(title, body):
    return f"<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"


class _Site(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        path = urlparse(self.path).path
        REQUESTS[path] += 1
        content_type = "text/html"
        if path == "/robots.txt":
            content_type, body = "text/plain", ROBOTS
        elif path.startswith("/people/"):
            body = _page(
                "Margaret Hamilton",
                "<p>Write to margaret@example.com or call +1 (555) 010-4477 about the guidance computer.</p>"
                "<p>Her card 4111 1111 1111 1111 pays for the Apollo archive, and the rest is prose.</p>",
            )
        elif path == "/docs/":
            links = "".join(f'<a href="{href}">{href}</a> ' for href in ["/docs/guide", "/docs/internal/ops", "/docs/beta/new"])
            body = _page("Docs", f"<p>The documentation of the product, start here.</p>{links}")
        elif path.startswith("/docs/"):
            body = _page(f"Docs {path}", "<p>One part of the product, explained in enough words to be a page.</p>")
        else:
            self.send_response(404)
            self.end_headers()
            return
        payload = body.encode()
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def own_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield lambda path: f"http://127.0.0.1:{server.server_address[1]}{path}"
    server.shutdown()


def _scrape(firecrawl, url, **options):
    return scrape_methods.scrape(firecrawl._v2_client.http_client, url, ScrapeOptions(**options))


def test_lockdown_serves_the_cache_and_a_miss_is_a_404(firecrawl, own_site):
    url = own_site("/people/lockdown")
    with pytest.raises(FirecrawlError) as miss:
        firecrawl.scrape(url, lockdown=True)
    assert (miss.value.status_code, miss.value.code) == (404, "SCRAPE_LOCKDOWN_CACHE_MISS")
    assert REQUESTS["/people/lockdown"] == 0

    fresh = firecrawl.scrape(url, formats=["markdown"])
    cached = firecrawl.scrape(url, formats=["markdown"], lockdown=True)
    assert cached.metadata.cache_state == "hit"
    assert cached.markdown == fresh.markdown
    assert REQUESTS["/people/lockdown"] == 1


def test_min_age_serves_only_a_copy_that_old(firecrawl, own_site):
    url = own_site("/people/min-age")
    firecrawl.scrape(url)
    with pytest.raises(FirecrawlError) as young:
        _scrape(firecrawl, url, min_age=60_000)
    assert (young.value.status_code, young.value.code) == (404, "SCRAPE_NO_CACHED_DATA")
    time.sleep(1.1)
    old = _scrape(firecrawl, url, min_age=1_000)
    assert old.metadata.cache_state == "hit"
    assert REQUESTS["/people/min-age"] == 1
    # The client sends maxAge 4 h by default; a minAge beyond it leaves no copy to serve: a 400 says so.
    with pytest.raises(BadRequestError) as window:
        _scrape(firecrawl, url, min_age=5 * 60 * 60 * 1000)
    assert "maxAge must be at least minAge" in str(window.value)


def test_batch_scrape_with_lockdown(firecrawl, own_site):
    firecrawl.scrape(own_site("/people/batch"))
    job = firecrawl.batch_scrape([own_site("/people/batch"), own_site("/people/batch-new")], lockdown=True, poll_interval=0.25)
    assert job.status == "completed"
    assert [doc.metadata.source_url for doc in job.data] == [own_site("/people/batch")]
    assert REQUESTS["/people/batch-new"] == 0


def test_redact_pii_with_the_object_form(firecrawl, own_site):
    doc = _scrape(
        firecrawl,
        own_site("/people/redact"),
        formats=["markdown"],
        redact_pii=RedactPIIOptions(mode="fast", entities=["EMAIL", "FINANCIAL"], replace_style="tag"),
    )
    assert "Write to <EMAIL> or call +1 (555) 010-4477" in doc.markdown
    assert "Her card <FINANCIAL> pays" in doc.markdown
    assert "Margaret Hamilton" in doc.markdown
    assert doc.warning is None


def test_redact_pii_true_says_names_need_an_llm(firecrawl, own_site):
    doc = _scrape(firecrawl, own_site("/people/redact-all"), formats=["markdown"], redact_pii=True)
    assert "Write to <EMAIL> or call <PHONE>" in doc.markdown
    assert "margaret@example.com" not in doc.markdown
    # The suite's Tabhive has no LLM: names and places stay, and the warning says why.
    assert "Margaret Hamilton" in doc.markdown
    assert "PERSON and LOCATION were not redacted" in doc.warning


def test_proxy_enhanced_runs_on_the_strongest_browser_there_is(firecrawl, own_site):
    doc = firecrawl.scrape(own_site("/people/enhanced"), proxy="enhanced", max_age=0)
    assert doc.metadata.proxy_used == "basic"
    assert "Margaret Hamilton" in doc.markdown


def _crawl(firecrawl, url, robots_user_agent=None):
    started = crawl_methods.start_crawl(
        firecrawl._v2_client.http_client,
        CrawlRequest(
            url=url,
            sitemap="skip",
            robots_user_agent=robots_user_agent,
            scrape_options=ScrapeOptions(formats=["markdown"], max_age=0),
        ),
    )
    deadline = time.monotonic() + 60
    status = firecrawl.get_crawl_status(started.id, PaginationConfig(auto_paginate=False))
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = firecrawl.get_crawl_status(started.id, PaginationConfig(auto_paginate=False))
    errors = firecrawl.get_crawl_errors(started.id)
    return sorted(urlparse(doc.metadata.source_url).path for doc in status.data), errors.robots_blocked


def test_crawl_reads_robots_txt_for_robots_user_agent(firecrawl, own_site):
    assert _crawl(firecrawl, own_site("/docs/")) == (
        ["/docs/", "/docs/beta/new", "/docs/guide"],
        [own_site("/docs/internal/ops")],
    )
    assert _crawl(firecrawl, own_site("/docs/"), robots_user_agent="PartnerBot") == (
        ["/docs/", "/docs/guide", "/docs/internal/ops"],
        [own_site("/docs/beta/new")],
    )
