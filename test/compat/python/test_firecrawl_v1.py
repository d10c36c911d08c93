"""The official firecrawl-py package's v1 client (`V1FirecrawlApp`, also `Firecrawl().v1`) against
Tabhive's v1 routes: every method whose route Tabhive serves."""

import asyncio
import time
from urllib.parse import urlparse

import pytest
from firecrawl import V1ScrapeOptions
from firecrawl.v1.client import V1LocationConfig, V1WaitAction


def paths(docs):
    return sorted(urlparse(doc.metadata["sourceURL"]).path for doc in docs)


def test_scrape_url(v1, site):
    doc = v1.scrape_url(
        site("/about.html"),
        formats=["markdown", "html", "links", "screenshot@fullPage"],
        include_tags=["main", "nav"],
        only_main_content=True,
        wait_for=50,
        timeout=30000,
        mobile=False,
        skip_tls_verification=True,
        remove_base64_images=True,
        block_ads=True,
        proxy="basic",
        location=V1LocationConfig(country="US", languages=["en-US"]),
        actions=[V1WaitAction(type="wait", milliseconds=50)],
        max_age=0,
        store_in_cache=False,
    )
    assert "Content of /about.html" in doc.markdown
    assert "<main>" in doc.html
    assert site("/") in doc.links
    assert doc.screenshot.startswith("data:image/")
    assert doc.metadata["statusCode"] == 200


def test_firecrawl_v1_property_is_the_v1_client(firecrawl, site):
    doc = firecrawl.v1.scrape_url(site("/docs/page-3.html"), formats=["markdown"])
    assert "Content of Doc 3" in doc.markdown


def test_crawl_url(v1, site):
    status = v1.crawl_url(
        site("/"),
        limit=4,
        include_paths=["^/(about\\.html|docs/)?$"],
        exclude_paths=["^/private/"],
        max_depth=2,
        ignore_sitemap=True,
        ignore_query_parameters=True,
        allow_backward_links=False,
        allow_external_links=False,
        deduplicate_similar_urls=True,
        scrape_options=V1ScrapeOptions(formats=["markdown", "html"]),
        poll_interval=1,
    )
    assert status.status == "completed"
    assert paths(status.data) == ["/", "/about.html", "/docs/"]


def test_async_crawl_status_pages_errors_cancel(v1, site, large_pages):
    started = v1.async_crawl_url(large_pages("/"), limit=4, scrape_options=V1ScrapeOptions(formats=["rawHtml"]))
    deadline = time.monotonic() + 60
    status = v1.check_crawl_status(started.id)
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(1)
        status = v1.check_crawl_status(started.id)
    assert status.status == "completed"
    # Python v1 follows `next` itself while the key is present.
    assert paths(status.data) == ["/", "/1.html", "/2.html", "/3.html"]
    errors = v1.check_crawl_errors(started.id)
    assert errors.errors == [] and errors.robotsBlocked == []
    slow = v1.async_crawl_url(site("/docs/"), limit=40, delay=1)
    assert v1.cancel_crawl(slow.id) == {"status": "cancelled"}


def test_crawl_url_and_watch(v1, site):
    watcher = v1.crawl_url_and_watch(site("/docs/"), limit=3, ignore_sitemap=True)
    documents = []
    done = []
    watcher.add_event_listener("document", lambda detail: documents.append(detail))
    watcher.add_event_listener("done", lambda detail: done.append(detail))
    asyncio.run(asyncio.wait_for(watcher.connect(), 60))
    assert done and done[0]["status"] == "completed"
    # Python's v1 watcher wraps each document: {"data": document, "id": job id}.
    assert len({urlparse(event["data"]["metadata"]["sourceURL"]).path for event in documents}) == 3


def test_batch_scrape_urls(v1, site):
    status = v1.batch_scrape_urls([site("/about.html"), site("/docs/page-1.html")], formats=["markdown"], poll_interval=1)
    assert status.status == "completed"
    assert paths(status.data) == ["/about.html", "/docs/page-1.html"]


def test_async_batch_status_and_errors(v1, site):
    started = v1.async_batch_scrape_urls([site("/about.html")], formats=["markdown"])
    deadline = time.monotonic() + 30
    status = v1.check_batch_scrape_status(started.id)
    while status.status == "scraping" and time.monotonic() < deadline:
        time.sleep(1)
        status = v1.check_batch_scrape_status(started.id)
    assert status.status == "completed"
    assert paths(status.data) == ["/about.html"]
    errors = v1.check_batch_scrape_errors(started.id)
    assert errors.errors == [] and errors.robotsBlocked == []


def test_batch_scrape_urls_and_watch(v1, site):
    watcher = v1.batch_scrape_urls_and_watch([site("/about.html"), site("/docs/page-2.html")], formats=["markdown"])
    done = []
    watcher.add_event_listener("done", lambda detail: done.append(detail))
    asyncio.run(asyncio.wait_for(watcher.connect(), 60))
    assert done and done[0]["status"] == "completed"


def test_v1_deep_research_without_a_model_says_what_to_configure(v1):
    try:
        outcome = v1.async_deep_research("bees")
    except Exception as error:  # the v1 client raises for some answers and returns others
        outcome = error
    assert "LLM_BASE_URL" in str(outcome)


def test_map_url_answers_strings_the_input_url_first(v1, site):
    result = v1.map_url(site("/"), include_subdomains=False, limit=100)
    assert result.success
    assert result.links[0] == site("/")
    assert site("/from-sitemap.html") in result.links
    assert not any("blog.site.localhost" in link for link in result.links)


def test_search_answers_a_list(v1, site):
    v1.scrape_url(site("/docs/page-20.html"), formats=["markdown"])
    found = v1.search("Doc 20", limit=3)
    assert found.success
    assert found.data[0]["url"] == site("/docs/page-20.html")


def test_usage(v1):
    assert isinstance(v1.get_credit_usage().data.remaining_credits, int)
    assert isinstance(v1.get_token_usage().data.remaining_tokens, int)
