"""Historical usage and queue status through firecrawl-py's v2 client and V1FirecrawlApp (the unified
client leaves the historical usage methods to `firecrawl.v2`)."""

from datetime import datetime, timezone


def _month_start() -> str:
    now = datetime.now(timezone.utc)
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0).isoformat().replace("+00:00", ".000Z")


def test_credit_history_counts_a_scrape_by_month_and_key(firecrawl, v1, site, api_key):
    before = firecrawl.v2.get_credit_usage_historical()
    current = [period for period in before.periods if period.startDate == _month_start()]
    assert len(current) == 1
    used_before = current[0].creditsUsed

    document = firecrawl.scrape(site("/about.html"), max_age=0)
    credits = document.metadata.credits_used
    assert credits and credits > 0

    after = firecrawl.v2.get_credit_usage_historical()
    assert [p.creditsUsed for p in after.periods if p.startDate == _month_start()] == [used_before + credits]
    by_key = firecrawl.v2.get_credit_usage_historical(by_api_key=True)
    # The key is named by its prefix and last four characters, never whole.
    mine = [p for p in by_key.periods if p.startDate == _month_start() and p.apiKey == f"fc-…{api_key[-4:]}"]
    assert len(mine) == 1 and mine[0].creditsUsed >= credits
    assert all(api_key not in (p.apiKey or "") for p in by_key.periods)

    v1_history = v1.get_credit_usage_historical(by_api_key=True)
    assert [(p.startDate, p.apiKey, p.creditsUsed) for p in v1_history.periods] == [
        (p.startDate, p.apiKey, p.creditsUsed) for p in by_key.periods
    ]


def test_token_history_and_queue_status(firecrawl, v1, site):
    firecrawl.scrape(site("/docs/page-3.html"), max_age=0)
    tokens = firecrawl.v2.get_token_usage_historical()
    assert tokens.success is True
    # The test server has no model: the current month, at 0 tokens.
    assert [(p.startDate, p.tokensUsed) for p in tokens.periods][-1] == (_month_start(), 0)
    assert v1.get_token_usage_historical().success is True

    queue = firecrawl.get_queue_status()
    assert queue.max_concurrency >= 1
    assert queue.jobs_in_queue == queue.active_jobs_in_queue + queue.waiting_jobs_in_queue
    assert queue.waiting_jobs_in_queue >= 0
    # Other tests of the suite scraped within the last day.
    assert queue.most_recent_success is not None
    assert (datetime.now(timezone.utc) - queue.most_recent_success).total_seconds() < 3600
