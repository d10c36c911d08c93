"""firecrawl-py's auto-resume, unchanged, against a scrape that outlives its request: a scanned PDF
(test/helpers/scanned-pdf-site.ts) whose OCR takes longer than the scrape's timeout: 2 s, well under
what loading the OCR model alone takes (about 3 s) before the first of its pages is read. Tabhive answers
408 SCRAPE_TIMEOUT with details.state "processing_continues"; the client sleeps retryAfterSeconds and
sends the same request again, which joins the running scrape and gets its document, charged once."""

from datetime import datetime, timezone

import requests
from firecrawl.v2.methods import scrape as scrape_module


def _used_this_month(firecrawl) -> int:
    now = datetime.now(timezone.utc)
    start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0).isoformat().replace("+00:00", ".000Z")
    return sum(p.creditsUsed for p in firecrawl.v2.get_credit_usage_historical().periods if p.startDate == start)


def test_the_408_shape_on_the_wire(tabhive_url, api_key, scanned_pdfs):
    def send():
        return requests.post(
            f"{tabhive_url}/v2/scrape",
            headers={"authorization": f"Bearer {api_key}"},
            json={"url": scanned_pdfs("/scans-9.pdf"), "timeout": 2000, "parsers": [{"type": "pdf", "mode": "ocr"}]},
            timeout=60,
        )

    response = send()
    assert response.status_code == 408
    body = response.json()
    assert body["success"] is False
    assert body["code"] == "SCRAPE_TIMEOUT"
    assert body["details"] == {"state": "processing_continues", "jobStatus": "running", "retryAfterSeconds": 10}
    assert response.headers["Retry-After"] == "10"
    # The same request again joins the work (each waits up to its own timeout) until it has the document.
    for _ in range(20):
        response = send()
        if response.status_code != 408:
            break
    assert response.status_code == 200
    assert response.json()["data"]["metadata"]["numPages"] == 9


def test_auto_resume_joins_the_running_scrape(firecrawl, scanned_pdfs, monkeypatch):
    sleeps = []
    real_sleep = scrape_module.time.sleep
    # Recorded, and still slept: the client's resume logic runs as shipped.
    monkeypatch.setattr(scrape_module.time, "sleep", lambda seconds: (sleeps.append(seconds), real_sleep(seconds)))
    used_before = _used_this_month(firecrawl)

    document = firecrawl.scrape(scanned_pdfs("/scans-12.pdf"), timeout=2000, parsers=[{"type": "pdf", "mode": "ocr"}])

    assert sleeps and all(seconds == 10.0 for seconds in sleeps)
    assert "Quarterly Shipping Report" in document.markdown
    assert "Lemon Barley Soup" in document.markdown
    assert document.metadata.num_pages == 12
    assert document.metadata.credits_used == 12
    # One scrape ran and was booked once, however many requests asked for it.
    assert _used_this_month(firecrawl) - used_before == 12
