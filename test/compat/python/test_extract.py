"""firecrawl-py's extract methods against Tabhive without an LLM (the built-in filling and merge):
the v2 client's `extract`, `start_extract` and `get_extract_status`, and V1FirecrawlApp's
`extract`, `async_extract` and `get_extract_status`. The product pages are served by this file
(the crawl site publishes no structured data)."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List

import pytest
from pydantic import BaseModel


def product_page(name, price, brand):
    data = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": name,
        "brand": {"@type": "Brand", "name": brand},
        "offers": {"@type": "Offer", "price": price, "priceCurrency": "EUR"},
    }
    return (
        f"<!doctype html><html><head><title>{name}</title>"
        f'<script type="application/ld+json">{json.dumps(data)}</script></head>'
        f"<body><main><h1>{name}</h1><p>The {name} costs {price} EUR.</p></main></body></html>"
    )


PAGES = {
    "/lamp.html": product_page("Desk Lamp", "39.90", "Lumen"),
    "/chair.html": product_page("Office Chair", "129.00", "Sitwell"),
}


class ShopHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = PAGES.get(self.path)
        self.send_response(200 if body else 404)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write((body or "<html><body>Not found</body></html>").encode())

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def shop():
    server = ThreadingHTTPServer(("127.0.0.1", 0), ShopHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    yield lambda path: f"{base}{path}"
    server.shutdown()
    server.server_close()


SCHEMA = {
    "type": "object",
    "properties": {
        "brand": {"type": "string"},
        "warranty": {"type": "string"},
        "products": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
            },
        },
    },
    "required": ["brand", "products", "warranty"],
}

BOTH = [{"name": "Desk Lamp", "price": 39.9}, {"name": "Office Chair", "price": 129}]


class Product(BaseModel):
    name: str
    price: float


class Catalog(BaseModel):
    brand: str
    products: List[Product]


def test_extract_waits_and_answers_data_sources_and_warnings(firecrawl, shop):
    result = firecrawl.extract(
        urls=[shop("/lamp.html"), shop("/chair.html")],
        schema=SCHEMA,
        show_sources=True,
        integration="llamaindex",
        poll_interval=1,
        timeout=60,
    )
    assert result.status == "completed"
    assert result.data == {"brand": "Lumen", "products": BOTH}
    assert result.sources["brand"] == [shop("/lamp.html")]
    assert result.sources["products[1].price"] == [shop("/chair.html")]
    assert "left empty: warranty." in result.warning
    assert result.credits_used == 10
    assert result.expires_at is not None


def test_start_extract_then_get_extract_status(firecrawl, shop):
    started = firecrawl.start_extract(
        urls=[shop("/chair.html"), "ftp://files.test/x"],
        prompt="The brand",
        schema=SCHEMA,
        ignore_invalid_urls=True,
    )
    assert started.success and started.id
    status = firecrawl.get_extract_status(started.id)
    deadline = time.monotonic() + 60
    while status.status == "processing" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = firecrawl.get_extract_status(started.id)
    assert status.status == "completed"
    assert status.data["brand"] == "Sitwell"
    assert "ftp://files.test/x (URL uses unsupported protocol)" in status.warning
    assert status.sources is None


def test_extract_of_a_refused_url_raises(firecrawl):
    with pytest.raises(Exception, match="URL refused"):
        firecrawl.start_extract(urls=["http://169.254.169.254/latest/"], prompt="x")


def test_v1_extract_with_a_pydantic_model(v1, shop):
    result = v1.extract([shop("/lamp.html"), shop("/chair.html")], schema=Catalog, show_sources=True)
    assert result.success
    assert result.data == {"brand": "Lumen", "products": BOTH}
    assert result.sources["products[0].name"] == [shop("/lamp.html")]


def test_v1_async_extract_then_get_extract_status(v1, shop):
    started = v1.async_extract([shop("/lamp.html")], prompt="What is for sale?")
    assert started.success and started.id
    status = v1.get_extract_status(started.id)
    deadline = time.monotonic() + 60
    while status.status == "processing" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = v1.get_extract_status(started.id)
    assert status.status == "completed"
    assert status.data["title"] == "Desk Lamp"
    assert status.data["jsonLd"][0]["name"] == "Desk Lamp"
    assert "the prompt was not used" in status.warning
