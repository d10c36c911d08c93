"""firecrawl-py's browser sessions (browser, browser_execute, list_browsers, delete_browser) and a
scrape's interaction (interact, stop_interaction) against Tabhive."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from firecrawl.v2.utils.error_handler import FirecrawlError

PAGE = b'<!doctype html><title>Py page</title><body><h1>Py heading</h1><p id="n">0</p></body>'


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def page_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/page"
    server.shutdown()


def test_browser_session_lifecycle(firecrawl, page_url):
    session = firecrawl.browser(ttl=120, activity_ttl=60)
    assert session.success is True
    assert session.id
    assert session.cdp_url.startswith("ws://")
    assert session.live_view_url.startswith("http://")

    # language "node" is Playwright code, with page, context and browser in scope.
    firecrawl.browser_execute(session.id, f"await page.goto({json.dumps(page_url)})", language="node")
    executed = firecrawl.browser_execute(
        session.id, 'console.log("py"); return await page.locator("h1").textContent()', language="node", timeout=10
    )
    assert executed.success is True
    assert executed.result == "Py heading"
    assert executed.stdout == "py\n"
    assert executed.exit_code == 0

    # The client's default language is bash: Tabhive refuses it and says what to send instead.
    with pytest.raises(FirecrawlError) as refused:
        firecrawl.browser_execute(session.id, "echo hi")
    assert "node" in str(refused.value)
    # Python is refused too: this server cannot sandbox it, and the answer says so.
    with pytest.raises(FirecrawlError) as python:
        firecrawl.browser_execute(session.id, "print(page.title())", language="python")
    assert "Python execution is not available on this server" in str(python.value)

    listed = firecrawl.list_browsers(status="active")
    assert session.id in [item.id for item in listed.sessions]

    deleted = firecrawl.delete_browser(session.id)
    assert deleted.success is True
    assert deleted.status == "destroyed"
    assert deleted.credits_billed == 2
    assert deleted.session_duration_ms > 0
    destroyed = firecrawl.list_browsers(status="destroyed")
    assert session.id in [item.id for item in destroyed.sessions]


def test_quick_start_as_written(firecrawl, page_url):
    # docs.firecrawl.dev/features/browser, Quick start: its node code through the Python client, as
    # written but for the URL (this server runs Playwright code in node only).
    session = firecrawl.browser()
    result = firecrawl.browser_execute(
        session.id,
        code=f"""
    await page.goto("{page_url}");
    const title = await page.title();
    console.log(title);
  """,
        language="node",
    )
    assert result.result == "Py page"
    returned = firecrawl.browser_execute(
        session.id, code=f'await page.goto("{page_url}"); return await page.title();', language="node"
    )
    assert returned.result == "Py page"
    assert returned.exit_code == 0
    firecrawl.delete_browser(session.id)


def test_interact_with_a_scrape(firecrawl, page_url):
    document = firecrawl.scrape(page_url, formats=["markdown"])
    job_id = document.metadata.scrape_id
    # interact() sends language "node": Playwright code on the scrape's page.
    first = firecrawl.interact(
        job_id, 'await page.evaluate(() => { document.getElementById("n").textContent = "5"; }); return await page.title();'
    )
    assert first.result == "Py page", first
    second = firecrawl.interact(job_id, 'return await page.locator("#n").textContent()')
    assert second.result == "5"
    stopped = firecrawl.stop_interaction(job_id)
    assert stopped.success is True
    assert stopped.status == "destroyed"
