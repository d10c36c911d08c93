"""firecrawl-py's v2 client with the newer scrape formats and the PDF parser object.

The pages are served by this file itself on loopback (the test Tabhive may fetch loopback): a
product page with JSON-LD, a menu in microdata, a page of media, a page stating none of them and a
four-page PDF. What is asserted is what the client hands back, as its pydantic models.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from firecrawl.v2.types import HighlightsFormat, PDFParser, QuestionFormat

PRODUCT = {
    "@context": "https://schema.org",
    "@type": "Product",
    "name": "Frame Grip",
    "brand": {"@type": "Brand", "name": "HiveCo"},
    "offers": {
        "@type": "Offer",
        "sku": "GRIP-1",
        "price": "14.00",
        "priceCurrency": "EUR",
        "availability": "https://schema.org/InStock",
    },
}

PAGES = {
    "/product": f"""<!doctype html><html><head><title>Frame Grip</title>
<script type="application/ld+json">{json.dumps(PRODUCT)}</script></head><body><main>
<h1>Frame Grip</h1><p>The grip lifts frames out of the hive without crushing bees.</p>
<h2>Delivery</h2><p>Parcels leave our workshop every Thursday morning.</p>
<a class="doc" href="/manual.pdf">Manual</a></main></body></html>""",
    "/menu": """<!doctype html><html><head><title>Hive Cafe</title>
<meta property="og:site_name" content="Hive Cafe"></head><body>
<div itemscope itemtype="https://schema.org/Menu"><div itemprop="hasMenuSection" itemscope itemtype="https://schema.org/MenuSection">
<h2 itemprop="name">Cakes</h2><div itemprop="hasMenuItem" itemscope itemtype="https://schema.org/MenuItem">
<h3 itemprop="name">Honey cake</h3><div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
<span itemprop="price">4.20</span><meta itemprop="priceCurrency" content="EUR"></div></div></div></div></body></html>""",
    "/media": """<!doctype html><html><head><title>Hum</title></head><body><h1>The hum of a hive</h1>
<audio controls><source src="/sound/hum.ogg" type="audio/ogg"></audio></body></html>""",
    "/plain": """<!doctype html><html><head><title>Plain</title></head><body><p>Nothing to buy here.</p></body></html>""",
}


def _pdf(pages):
    """A small valid PDF, one page per text (the same construction as test/helpers/minimal-pdf.ts)."""
    objects = {1: "<< /Type /Catalog /Pages 2 0 R >>", 3: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"}
    kids = []
    for index, text in enumerate(pages):
        page_id = 4 + index * 2
        kids.append(f"{page_id} 0 R")
        stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET"
        objects[page_id] = (
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {page_id + 1} 0 R >>"
        )
        objects[page_id + 1] = f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream"
    objects[2] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>"
    body = "%PDF-1.4\n"
    offsets = {}
    for object_id in range(1, max(objects) + 1):
        offsets[object_id] = len(body)
        body += f"{object_id} 0 obj\n{objects[object_id]}\nendobj\n"
    xref = len(body)
    body += f"xref\n0 {max(objects) + 1}\n0000000000 65535 f \n"
    body += "".join(f"{offsets[i]:010d} 00000 n \n" for i in range(1, max(objects) + 1))
    body += f"trailer\n<< /Size {max(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return body.encode("latin-1")


MANUAL = _pdf(["Manual page one", "Manual page two", "Manual page three"])


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the name http.server calls)
        path = self.path.split("?")[0]
        if path in PAGES:
            body, kind = PAGES[path].encode(), "text/html; charset=utf-8"
        elif path == "/manual.pdf":
            body, kind = MANUAL, "application/pdf"
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def pages():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    yield lambda path: f"{base}{path}"
    server.shutdown()
    server.server_close()


def test_attributes_highlights_question_and_product(firecrawl, pages):
    document = firecrawl.scrape(
        pages("/product"),
        formats=[
            {"type": "attributes", "selectors": [{"selector": "a.doc", "attribute": "href"}]},
            HighlightsFormat(query="When do parcels leave?"),
            QuestionFormat(question="What does the grip do?"),
            "product",
        ],
    )
    # firecrawl-py 4.53's Document has no `attributes` field and drops it (attributes_on_the_wire below).
    assert document.highlights == "Parcels leave our workshop every Thursday morning."
    assert document.answer == "The grip lifts frames out of the hive without crushing bees."
    assert "No LLM is configured" in document.warning
    assert document.product.title == "Frame Grip"
    assert document.product.brand == "HiveCo"
    variant = document.product.variants[0]
    assert (variant.sku, variant.price.amount, variant.price.currency) == ("GRIP-1", 14.0, "EUR")
    assert variant.availability.in_stock is True
    assert document.metadata.credits_used == 5


def test_query_menu_and_audio(firecrawl, pages):
    menu = firecrawl.scrape(pages("/menu"), formats=["menu", {"type": "query", "prompt": "cake", "mode": "directQuote"}])
    assert menu.menu.is_menu is True
    assert menu.menu.merchant.name == "Hive Cafe"
    item = menu.menu.sections[0].items[0]
    assert (menu.menu.sections[0].name, item.name, item.price.amount) == ("Cakes", "Honey cake", 4.2)
    assert item.source_url == pages("/menu")
    assert "Honey cake" in menu.answer
    media = firecrawl.scrape(pages("/media"), formats=["audio", "video"])
    assert media.audio == pages("/sound/hum.ogg")
    assert media.video is None
    assert "The page names no video file" in media.warning


def test_formats_a_page_does_not_state(firecrawl, pages):
    document = firecrawl.scrape(pages("/plain"), formats=["product", "menu", "audio"])
    assert document.product is None and document.menu is None and document.audio is None
    assert "The page states no product" in document.warning
    assert "The page states no menu" in document.warning


def test_pdf_parser_object(firecrawl, pages):
    document = firecrawl.scrape(
        pages("/manual.pdf"),
        parsers=[PDFParser(mode="fast", max_pages=2, pages=True, page_markers=True)],
    )
    assert document.markdown == "Manual page one\n\n---\n\n<!-- page 2 -->\n\nManual page two"
    assert [(page.page_number, page.markdown) for page in document.pages] == [
        (1, "Manual page one"),
        (2, "Manual page two"),
    ]
    assert document.metadata.num_pages == 2
    assert document.metadata.total_pages == 3
    assert document.metadata.credits_used == 2


def test_pdf_layout_blocks(firecrawl, pages):
    document = firecrawl.scrape(pages("/manual.pdf"), parsers=[PDFParser(mode="fast", blocks=True, max_pages=2)])
    assert [page.page_number for page in document.blocks] == [1, 2]
    first = document.blocks[0].items[0]
    assert first.source == "text-layer" and first.reading_order == 0 and len(first.bbox) == 4
    assert first.content in document.markdown


def test_attributes_on_the_wire(tabhive_url, api_key, pages):
    """What the Python client cannot hand back, as it arrives: the attributes of the page's HTML."""
    response = requests.post(
        f"{tabhive_url}/v2/scrape",
        headers={"authorization": f"Bearer {api_key}"},
        json={
            "url": pages("/product"),
            "formats": [{"type": "attributes", "selectors": [{"selector": "a.doc", "attribute": "href"}]}],
        },
        timeout=60,
    )
    assert response.status_code == 200
    assert response.json()["data"]["attributes"] == [
        {"selector": "a.doc", "attribute": "href", "values": ["/manual.pdf"]}
    ]
