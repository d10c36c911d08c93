"""Agent (v2) and deep research (v1) through firecrawl-py.

Against the suite's Tabhive, which has no model configured: the clear 400 that says what to set,
and the reads that work without one, parsed by the client's pydantic models. When the runner also
gives a Tabhive with a scripted model (AGENT_TABHIVE_URL, and SCRIPTED_LLM_URL where the test
scripts test/helpers/scripted-llm-server.ts over HTTP), the loop itself is exercised too.
"""

import json
import os
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from firecrawl import Firecrawl, V1FirecrawlApp
from pydantic import BaseModel

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def test_agent_without_a_model_is_a_clear_error(firecrawl):
    with pytest.raises(Exception) as raised:
        firecrawl.start_agent(None, prompt="Find the price of the widget")
    message = str(raised.value)
    assert "LLM_BASE_URL" in message, message
    assert "language model" in message, message


def test_deep_research_without_a_model_is_a_clear_error(v1):
    with pytest.raises(Exception) as raised:
        v1.async_deep_research("What is a bee?", max_depth=2, time_limit=60, max_urls=3)
    assert "LLM_BASE_URL" in str(raised.value)


def test_reads_without_a_model_parse(firecrawl):
    listed = firecrawl.list_agents()
    assert listed.success is True
    assert isinstance(listed.agents, list)
    with pytest.raises(Exception) as raised:
        firecrawl.get_agent_status(UNKNOWN_ID)
    assert "not found" in str(raised.value).lower()
    with pytest.raises(Exception):
        firecrawl.get_agent_trace("not-an-id")
    with pytest.raises(Exception):
        firecrawl.cancel_agent(UNKNOWN_ID)


# --- The loop, when the runner provides a Tabhive with a scripted model. ---

AGENT_URL = os.environ.get("AGENT_TABHIVE_URL")
SCRIPT_URL = os.environ.get("SCRIPTED_LLM_URL")
needs_model = pytest.mark.skipif(
    not AGENT_URL or not SCRIPT_URL, reason="the runner gave no Tabhive with a scripted model"
)


def _post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def _script(*steps):
    _post(f"{SCRIPT_URL}/reset", {})
    _post(f"{SCRIPT_URL}/script", list(steps))


class _Page(BaseHTTPRequestHandler):
    def do_GET(self):
        body = (
            "<html><head><title>Honey Widget</title><meta name='description' content='A widget'></head>"
            "<body><main><h1>Honey Widget</h1><p>Price: $12.50</p></main></body></html>"
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def page_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/widget"
    server.shutdown()


@pytest.fixture(scope="module")
def agent_client(api_key):
    return Firecrawl(api_key=api_key, api_url=AGENT_URL)


class Product(BaseModel):
    name: str
    price: float


@needs_model
def test_agent_runs_the_loop_and_every_read_parses(agent_client, page_url):
    _script(
        {"toolCalls": [{"name": "scrape", "arguments": {"url": page_url}}]},
        {"content": json.dumps({"name": "Honey Widget", "price": 12.5})},
    )
    result = agent_client.agent([page_url], prompt="Price of the widget?", schema=Product, max_credits=20, poll_interval=1, timeout=60)
    assert result.status == "completed", result
    assert result.data == {"name": "Honey Widget", "price": 12.5}
    assert result.credits_used == 3
    assert result.expires_at is not None
    assert result.stop_reason == "completed"

    listed = agent_client.list_agents()
    run = listed.agents[0]
    assert run.status == "completed"
    assert run.options.prompt == "Price of the widget?"
    assert run.target_hint

    trace = agent_client.get_agent_trace(run.id)
    kinds = [event.type for event in trace.events]
    assert kinds[0] == "run.started" and kinds[-1] == "run.finished"
    calls = [event for event in trace.events if event.type == "tool_call.started"]
    assert [(call.tool_name, call.parameters) for call in calls] == [("scrape", {"url": page_url})]

    thread = agent_client.get_agent_thread(result.thread_id, include_data=True)
    assert thread.thread.runs[0].data == {"name": "Honey Widget", "price": 12.5}
    snapshot = agent_client.get_agent_snapshot(run.id, "answer")
    assert json.loads(snapshot.snapshot) == {"name": "Honey Widget", "price": 12.5}


@needs_model
def test_deep_research_through_the_v1_client(api_key, page_url):
    _script(
        {"toolCalls": [{"name": "scrape", "arguments": {"url": page_url}}]},
        {"content": "Enough."},
        {"content": "The widget costs $12.50."},
    )
    v1 = V1FirecrawlApp(api_key=api_key, api_url=AGENT_URL)
    sources = []
    result = v1.deep_research("What does the widget cost?", max_depth=2, time_limit=60, max_urls=2, on_source=sources.append)
    assert result["status"] == "completed"
    assert result["data"]["finalAnalysis"] == "The widget costs $12.50."
    assert [source["url"] for source in sources] == [page_url]
    assert result["maxDepth"] == 2
