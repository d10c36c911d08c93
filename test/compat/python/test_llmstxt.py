"""llms.txt through V1FirecrawlApp (the only client that has it), against the crawl site."""


def test_generate_llms_text_lists_the_site_pages(v1, site):
    result = v1.generate_llms_text(site("/"), max_urls=3, show_full_text=True)
    assert result.success is True, result
    assert result.status == "completed"
    lines = result.data.llmstxt.split("\n")
    assert lines[0].startswith("# ")
    pages = [line for line in lines if line.startswith("- [")]
    assert 1 <= len(pages) <= 3
    assert any(f"]({site('/')})" in line for line in pages), pages
    assert result.data.llmsfulltxt is not None and "Source: " in result.data.llmsfulltxt


def test_llms_text_status_of_a_started_job(v1, site):
    started = v1.async_generate_llms_text(site("/docs/"), max_urls=1)
    assert started.success is True and started.id
    status = v1.check_generate_llms_text_status(started.id)
    assert status.status in ("processing", "completed")
    assert status.expiresAt
