"""Where the suite finds Tabhive and the fixture sites: test/compat/firecrawl-py.test.ts sets these."""

import os

import pytest
from firecrawl import Firecrawl, V1FirecrawlApp


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run this suite through test/compat/firecrawl-py.test.ts")
    return value


@pytest.fixture(scope="session")
def tabhive_url() -> str:
    return _env("TABHIVE_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("TABHIVE_API_KEY")


@pytest.fixture(scope="session")
def site():
    """The generated crawl site (test/helpers/crawl-site.ts): `site("/docs/")` is a page URL."""
    base = _env("CRAWL_SITE_URL")
    return lambda path: f"{base}{path}"


@pytest.fixture(scope="session")
def large_pages():
    """The site of three 3.6 MB pages (test/helpers/large-pages-site.ts)."""
    base = _env("LARGE_PAGES_SITE_URL")
    return lambda path: f"{base}{path}"


@pytest.fixture(scope="session")
def firecrawl(tabhive_url: str, api_key: str) -> Firecrawl:
    return Firecrawl(api_key=api_key, api_url=tabhive_url)


@pytest.fixture(scope="session")
def v1(tabhive_url: str, api_key: str) -> V1FirecrawlApp:
    return V1FirecrawlApp(api_key=api_key, api_url=tabhive_url)


@pytest.fixture(scope="session")
def scanned_pdfs():
    """The site of scanned PDFs (test/helpers/scanned-pdf-site.ts): `scanned_pdfs("/scans-9.pdf")`."""
    base = _env("SCANNED_PDF_SITE_URL")
    return lambda path: f"{base}{path}"
