"""The official firecrawl-py package's v2 client (`Firecrawl`) against Tabhive: every method whose
route Tabhive serves, with the options a user would pass."""

import threading
import time
import uuid
from urllib.parse import urlparse

import pytest
from firecrawl.v2.types import PaginationConfig
from firecrawl.v2.utils.error_handler import BadRequestError, FirecrawlError


def paths(docs):
    return sorted(urlparse(doc.metadata.source_url).path for doc in docs)


def wait_for_status(get_status, job_id, seconds=60):
    deadline = time.monotonic() + seconds
    status = get_status(job_id, PaginationConfig(auto_paginate=False))
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = get_status(job_id, PaginationConfig(auto_paginate=False))
    return status


def test_scrape_with_every_browser_scrape_option(firecrawl, site):
    doc = firecrawl.scrape(
        site("/about.html"),
        formats=["markdown", "html", "rawHtml", "links", "images", {"type": "screenshot", "fullPage": True}],
        headers={"x-compat-suite": "python-v2"},
        include_tags=["main", "nav"],
        exclude_tags=["script"],
        only_main_content=False,
        timeout=30000,
        wait_for=50,
        mobile=False,
        parsers=["pdf"],
        actions=[{"type": "wait", "milliseconds": 50}, {"type": "scroll", "direction": "down"}],
        location={"country": "FR", "languages": ["fr-FR"]},
        skip_tls_verification=True,
        remove_base64_images=True,
        fast_mode=False,
        block_ads=True,
        proxy="basic",
        max_age=0,
        store_in_cache=False,
        integration="llamaindex",
    )
    assert "Content of /about.html" in doc.markdown
    assert "<main>" in doc.html
    assert "<title>/about.html</title>" in doc.raw_html
    assert site("/") in doc.links
    assert doc.images == []
    assert doc.screenshot.startswith("data:image/")
    assert doc.metadata.status_code == 200
    assert doc.metadata.source_url == site("/about.html")


def test_scrape_validation_error_is_a_bad_request(firecrawl, site):
    with pytest.raises(BadRequestError):
        firecrawl.scrape(site("/about.html"), wait_for=20000, timeout=30000)


def test_crawl_waits_with_the_crawler_options(firecrawl, site):
    job = firecrawl.crawl(
        site("/"),
        limit=4,
        include_paths=["^/(about\\.html|docs/)?$"],
        exclude_paths=["^/private/"],
        max_discovery_depth=2,
        sitemap="skip",
        ignore_query_parameters=True,
        crawl_entire_domain=False,
        allow_external_links=False,
        allow_subdomains=False,
        ignore_robots_txt=False,
        max_concurrency=2,
        zero_data_retention=False,
        scrape_options={"formats": ["markdown", "links"], "onlyMainContent": True},
        poll_interval=0.25,
        timeout=60,
    )
    assert job.status == "completed"
    assert paths(job.data) == ["/", "/about.html", "/docs/"]
    assert job.completed == 3


def test_start_crawl_and_paginated_status(firecrawl, large_pages, tabhive_url):
    started = firecrawl.start_crawl(large_pages("/"), limit=4, scrape_options={"formats": ["rawHtml"]})
    assert started.url == f"{tabhive_url}/v2/crawl/{started.id}"
    first = wait_for_status(firecrawl.get_crawl_status, started.id)
    assert first.status == "completed"
    # Three 3.6 MB pages outgrow one 10 MB status page.
    assert len(first.data) < 4
    assert first.next == f"{tabhive_url}/v2/crawl/{started.id}?skip={len(first.data)}"
    everything = firecrawl.get_crawl_status(started.id)
    assert paths(everything.data) == ["/", "/1.html", "/2.html", "/3.html"]
    assert everything.next is None
    page = firecrawl.get_crawl_status_page(first.next)
    assert len(first.data) + len(page.data) == 4


def test_crawl_errors_and_unknown_ids(firecrawl, site):
    job = firecrawl.crawl(site("/"), limit=20, sitemap="skip", max_discovery_depth=1, poll_interval=0.25, timeout=60)
    errors = firecrawl.get_crawl_errors(job.id)
    assert errors.errors == []
    assert site("/private/secret.html") in errors.robots_blocked
    with pytest.raises(FirecrawlError):
        firecrawl.get_crawl_errors(str(uuid.uuid4()))


def test_active_crawls_and_cancel(firecrawl, site):
    started = firecrawl.start_crawl(site("/docs/"), limit=40, delay=1, sitemap="skip")
    listed = [crawl for crawl in firecrawl.active_crawls().crawls if crawl.id == started.id]
    assert len(listed) == 1
    assert listed[0].url == site("/docs/")
    assert firecrawl.get_active_crawls().crawls
    assert firecrawl.cancel_crawl(started.id) is True
    assert firecrawl.get_crawl_status(started.id).status == "cancelled"


def test_batch_scrape_waits(firecrawl, site):
    job = firecrawl.batch_scrape(
        [site("/about.html"), site("/docs/page-4.html")],
        formats=["markdown"],
        only_main_content=True,
        ignore_invalid_urls=True,
        max_concurrency=2,
        zero_data_retention=False,
        idempotency_key=str(uuid.uuid4()),
        poll_interval=0.25,
        wait_timeout=60,
    )
    assert job.status == "completed"
    assert paths(job.data) == ["/about.html", "/docs/page-4.html"]


def test_batch_start_status_errors_cancel(firecrawl, site):
    urls = [site(f"/docs/page-{n}.html") for n in range(1, 31)]
    started = firecrawl.start_batch_scrape(urls, max_age=0, max_concurrency=1, ignore_invalid_urls=True)
    assert started.invalid_urls in (None, [])
    status = firecrawl.get_batch_scrape_status(started.id)
    assert status.total == 30
    errors = firecrawl.get_batch_scrape_errors(started.id)
    assert errors.errors == [] and errors.robots_blocked == []
    assert firecrawl.cancel_batch_scrape(started.id) is True
    assert firecrawl.get_batch_scrape_status(started.id).status == "cancelled"


@pytest.mark.parametrize("kind", ["crawl", "batch"])
def test_watcher(firecrawl, site, kind):
    if kind == "crawl":
        started = firecrawl.start_crawl(site("/docs/"), limit=4, sitemap="skip")
    else:
        started = firecrawl.start_batch_scrape([site("/about.html"), site("/docs/page-9.html")])
    watcher = firecrawl.watcher(started.id, kind=kind, poll_interval=1, timeout=60)
    finished = threading.Event()
    seen = []
    watcher.add_listener(lambda job: seen.append((job.status, job.completed, job.total)))
    watcher.add_event_listener("done", lambda detail: finished.set())
    watcher.start()
    try:
        assert finished.wait(60), f"the {kind} watcher never reported done (statuses: {seen})"
    finally:
        watcher.stop()
    final = (firecrawl.get_crawl_status if kind == "crawl" else firecrawl.get_batch_scrape_status)(started.id)
    assert final.status == "completed"
    assert final.completed == (4 if kind == "crawl" else 2)
    # The last snapshot the watcher hands its listeners carries the job's real counts, not 0/0.
    assert seen[-1] == ("completed", final.completed, final.total), seen


def test_unserved_specialised_search_fails_at_once_naming_the_feature(firecrawl):
    with pytest.raises(Exception, match="does not serve"):
        firecrawl.developer_search("tabhive")


def test_map_lists_sitemap_and_linked_pages_ranked_by_search(firecrawl, site):
    result = firecrawl.map(site("/"), search="about", limit=50, include_subdomains=True)
    urls = [link.url for link in result.links]
    assert urls[0] == site("/about.html")
    assert site("/from-sitemap.html") in urls
    assert site("/private/secret.html") not in urls
    assert len(urls) == len(set(urls))
    only = [link.url for link in firecrawl.map(site("/"), sitemap="only").links]
    assert site("/from-sitemap.html") in only
    assert site("/about.html") not in only


def test_crawl_params_preview_reads_the_prompt(firecrawl, site):
    data = firecrawl.crawl_params_preview(site("/"), "only the docs, up to 5 pages, skip the sitemap")
    assert data.limit == 5
    assert data.sitemap == "skip"
    assert data.include_paths == ["/(?:docs|documentation)(?:/|$)"]


def test_search_finds_a_scraped_page_and_scrapes_results(firecrawl, site):
    firecrawl.scrape(site("/docs/page-19.html"), formats=["markdown"])
    found = firecrawl.search("Doc 19", limit=3, scrape_options={"formats": ["markdown"]})
    first = found.web[0]
    assert first.metadata.source_url == site("/docs/page-19.html")
    assert "Content of Doc 19" in first.markdown


def test_usage_and_concurrency(firecrawl):
    assert isinstance(firecrawl.get_credit_usage().remaining_credits, int)
    assert isinstance(firecrawl.get_token_usage().remaining_tokens, int)
    concurrency = firecrawl.get_concurrency()
    assert isinstance(concurrency.concurrency, int) and isinstance(concurrency.max_concurrency, int)
