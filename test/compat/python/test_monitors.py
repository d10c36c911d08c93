"""firecrawl-py's monitor methods against Tabhive: every method, and what the SDK hands back.

The pages are served by the test itself (a thread on 127.0.0.1) so that it can change them between
checks. The runner's Tabhive keeps the default minimum interval (60 s): checks run on demand.
"""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from firecrawl.v2.types import PaginationConfig
from firecrawl.v2.utils.error_handler import FirecrawlError

PAGES = {
    "/price": "The kettle costs 30 euros.",
    "/stock": "Kettles are in stock.",
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        body = PAGES.get(self.path)
        html = f"<!doctype html><html><head><title>Page</title></head><body><main><p>{body or 'Not found'}</p></main></body></html>"
        data = html.encode()
        self.send_response(200 if body is not None else 404)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def pages():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield lambda path: f"http://127.0.0.1:{server.server_address[1]}{path}"
    server.shutdown()


def _run_to_end(firecrawl, monitor_id):
    check = firecrawl.run_monitor(monitor_id)
    assert check.monitor_id == monitor_id
    assert check.trigger == "manual"
    deadline = time.time() + 60
    while True:
        detail = firecrawl.get_monitor_check(monitor_id, check.id)
        if detail.status != "running":
            return detail
        assert time.time() < deadline, "the check did not finish"
        time.sleep(0.2)


def test_monitor_lifecycle(firecrawl, pages):
    monitor = firecrawl.create_monitor(
        "kettle watch",
        {"text": "hourly", "timezone": "Europe/Paris"},
        [{"id": "kettle", "type": "scrape", "urls": [pages("/price"), pages("/stock")]}],
        retention_days=10,
        goal="the kettle's price",
    )
    assert monitor.name == "kettle watch"
    assert monitor.status == "active"
    assert monitor.schedule.cron == "0 * * * *"
    assert monitor.schedule.text == "hourly"
    assert monitor.schedule.timezone == "Europe/Paris"
    assert monitor.retention_days == 10
    assert monitor.goal == "the kettle's price"
    assert monitor.targets[0]["id"] == "kettle"
    assert monitor.targets[0]["urls"] == [pages("/price"), pages("/stock")]
    assert monitor.next_run_at is not None
    assert monitor.last_check_summary is None

    assert firecrawl.get_monitor(monitor.id).id == monitor.id
    assert monitor.id in [item.id for item in firecrawl.list_monitors(limit=100)]
    assert len(firecrawl.list_monitors(limit=1)) == 1

    first = _run_to_end(firecrawl, monitor.id)
    assert first.status == "completed"
    assert first.summary.total_pages == 2
    assert first.summary.new == 2
    assert [page.status for page in first.pages] == ["new", "new"]
    assert first.target_results[0].target_id == "kettle"

    PAGES["/price"] = "The kettle costs 35 euros."
    del PAGES["/stock"]
    second = _run_to_end(firecrawl, monitor.id)
    assert second.summary.changed == 1
    assert second.summary.removed == 1
    changed = next(page for page in second.pages if page.status == "changed")
    assert changed.url == pages("/price")
    assert "+The kettle costs 35 euros." in changed.diff.text
    assert changed.previous_scrape_id == first.pages[0].current_scrape_id
    removed = next(page for page in second.pages if page.status == "removed")
    assert removed.status_code == 404

    # Auto-pagination follows `next`; without it the caller gets the link.
    paged = firecrawl.get_monitor_check(monitor.id, second.id, limit=1)
    assert [page.url for page in paged.pages] == [pages("/price"), pages("/stock")]
    one = firecrawl.get_monitor_check(
        monitor.id, second.id, limit=1, pagination_config=PaginationConfig(auto_paginate=False)
    )
    assert len(one.pages) == 1
    assert "skip=1" in one.next
    only_removed = firecrawl.get_monitor_check(monitor.id, second.id, status="removed")
    assert [page.url for page in only_removed.pages] == [pages("/stock")]

    checks = firecrawl.list_monitor_checks(monitor.id)
    assert [check.id for check in checks] == [second.id, first.id]
    assert firecrawl.list_monitor_checks(monitor.id, limit=1, offset=1)[0].id == first.id

    paused = firecrawl.update_monitor(
        monitor.id,
        status="paused",
        name="paused kettle",
        notification={"email": {"enabled": True, "recipients": ["ops@example.com"]}},
    )
    assert paused.status == "paused"
    assert paused.name == "paused kettle"
    assert paused.next_run_at is None
    assert paused.last_check_summary.changed == 1
    assert "no mail server" in paused.model_extra["warning"]
    resumed = firecrawl.update_monitor(monitor.id, status="active", schedule={"cron": "30 8 * * 1-5"})
    assert resumed.schedule.cron == "30 8 * * 1-5"
    assert resumed.schedule.timezone == "UTC"
    assert resumed.next_run_at is not None

    assert firecrawl.delete_monitor(monitor.id) is True
    with pytest.raises(FirecrawlError):
        firecrawl.get_monitor(monitor.id)
    PAGES["/price"] = "The kettle costs 30 euros."
    PAGES["/stock"] = "Kettles are in stock."


def test_monitor_errors(firecrawl, pages):
    with pytest.raises(FirecrawlError):
        firecrawl.create_monitor("bad", {"cron": "not cron"}, [{"type": "scrape", "urls": [pages("/price")]}])
    with pytest.raises(FirecrawlError):
        # Below this server's minimum interval (60 s by default).
        firecrawl.create_monitor("fast", {"text": "every 30 seconds"}, [{"type": "scrape", "urls": [pages("/price")]}])
    with pytest.raises(FirecrawlError):
        firecrawl.run_monitor("00000000-0000-4000-8000-000000000000")
    with pytest.raises(FirecrawlError):
        firecrawl.list_monitor_checks("not-an-id")
