"""firecrawl-py's v2 client passes the scrape option `profile` through scrape().

The site is served from this file: /login sets a session cookie, /whoami shows the Cookie header.
"""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest


class _Site(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's naming)
        url = urlparse(self.path)
        headers = {"content-type": "text/html"}
        if url.path == "/login":
            who = parse_qs(url.query).get("as", ["nobody"])[0]
            headers["set-cookie"] = f"session={who}; Path=/; HttpOnly"
            body = "<h1>Logged in</h1>"
        elif url.path == "/whoami":
            body = f'<h1>Who am I</h1><p>COOKIE is "{self.headers.get("cookie", "")}"</p>'
        else:
            body = "<h1>Home</h1>"
        payload = f"<!doctype html><title>Site</title><body>{body}</body>".encode()
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def profile_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield lambda path: f"http://127.0.0.1:{server.server_address[1]}{path}"
    server.shutdown()
    server.server_close()


def test_profile_keeps_a_login_between_scrapes(firecrawl, profile_site):
    login = firecrawl.scrape(profile_site("/login?as=py"), profile={"name": "py-sdk"})
    assert "Logged in" in login.markdown
    again = firecrawl.scrape(profile_site("/whoami"), profile={"name": "py-sdk"})
    assert 'COOKIE is "session=py"' in again.markdown


def test_profile_save_changes_false_uses_it_without_saving(firecrawl, profile_site):
    firecrawl.scrape(profile_site("/login?as=kept"), profile={"name": "py-readonly"})
    firecrawl.scrape(profile_site("/login?as=dropped"), profile={"name": "py-readonly", "save_changes": False})
    whoami = firecrawl.scrape(profile_site("/whoami"), profile={"name": "py-readonly", "save_changes": False})
    assert 'COOKIE is "session=kept"' in whoami.markdown


def test_scrape_without_profile_sees_none_of_it(firecrawl, profile_site):
    firecrawl.scrape(profile_site("/login?as=secret"), profile={"name": "py-private"})
    anonymous = firecrawl.scrape(profile_site("/whoami"), max_age=0, wait_for=100)
    assert 'COOKIE is ""' in anonymous.markdown
