"""A headless Chromium driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: JSON messages ending in NUL on file descriptors 3
and 4), so no websocket client or browser-automation package is needed.

    with Browser() as browser:
        visit = browser.visit(Path("report.html").as_uri(), screenshot=Path("shot.png"))
        visit.console_errors, visit.requests, visit.images

Used by the browser tests only (no tests in here).
"""
from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         "--remote-debugging-pipe", "--window-size=1280,1024"]
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Visit:
    url: str
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)  # every URL the page asked for
    failed: list[str] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)  # src, complete, naturalWidth
    scorecard: dict | None = None  # the #scorecard element's box (top, bottom, left, width) and what precedes it
    value: object = None  # what ``visit(..., evaluate=...)`` returned


class Browser:
    def __init__(self, executable: str | None = None, timeout: float = 60):
        self.executable = executable or find_chromium()
        if self.executable is None:
            raise FileNotFoundError("no chromium on PATH")
        self.timeout = timeout
        self._next_id = 0
        self._replies: dict[int, queue.Queue] = {}
        self._events: queue.Queue = queue.Queue()
        self._lock = threading.Lock()

    def __enter__(self) -> "Browser":
        self._profile = tempfile.mkdtemp(prefix="analyzer-chromium-")  # a fresh profile every time
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def onto_3_and_4():
            # the browser reads commands on its fd 3 and writes replies on its fd 4
            # (moved high first: either end may itself be 3 or 4)
            high_r, high_w = os.dup(to_browser_r) + 100, os.dup(from_browser_w) + 100
            os.dup2(to_browser_r, high_r)
            os.dup2(from_browser_w, high_w)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=onto_3_and_4)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    # ------------------------------------------------------------ protocol

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                data = os.read(self._from_browser, 1 << 16)
            except OSError:
                return
            if not data:
                return
            buffer += data
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message and message["id"] in self._replies:
                    self._replies[message["id"]].put(message)
                else:
                    self._events.put(message)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            self._replies[ident] = queue.Queue()
        message = {"id": ident, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        try:
            reply = self._replies[ident].get(timeout=self.timeout)
        except queue.Empty:
            raise TimeoutError(f"no reply to {method}") from None
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    # ------------------------------------------------------------ a page

    def visit(self, url: str, screenshot: Path | None = None, width: int | None = None,
              evaluate: str | None = None) -> Visit:
        """Load ``url`` and watch it; ``width``: the viewport's CSS width (a phone is
        390); ``evaluate``: a JavaScript expression whose JSON value is ``Visit.value``."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session)
        if width is not None:
            self.call("Emulation.setDeviceMetricsOverride", session, width=width, height=900,
                      deviceScaleFactor=1, mobile=width < 600)
        visit = Visit(url)
        self.call("Page.navigate", session, url=url)
        deadline = time.monotonic() + self.timeout
        loaded = False
        while time.monotonic() < deadline:
            try:
                event = self._events.get(timeout=0.2)
            except queue.Empty:
                if loaded:
                    break  # loaded, and nothing more for a moment
                continue
            if event.get("sessionId") != session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Page.loadEventFired":
                loaded = True
            elif method == "Network.requestWillBeSent":
                visit.requests.append(params["request"]["url"][:120])
            elif method == "Network.loadingFailed":
                visit.failed.append(params.get("errorText", "failed"))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                visit.console_errors.append(details.get("text", "exception") + " " +
                                            str(details.get("exception", {}).get("description", "")))
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                visit.console_errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                                     for a in params.get("args", [])))
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                visit.console_errors.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}")
        if not loaded:
            raise TimeoutError(f"{url} did not load")
        result = self.call("Runtime.evaluate", session, returnByValue=True, expression=(
            "JSON.stringify(Array.from(document.images).map(i => "
            "({src: i.src.slice(0, 80), complete: i.complete, naturalWidth: i.naturalWidth})))"))
        visit.images = json.loads(result["result"]["value"])
        result = self.call("Runtime.evaluate", session, returnByValue=True, expression=(
            "(() => { const s = document.getElementById('scorecard'); if (!s) return 'null';"
            " const r = s.getBoundingClientRect(); const toc = document.querySelector('nav.toc');"
            " return JSON.stringify({top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,"
            " left: r.left, width: r.width, words: s.querySelectorAll('.ev').length,"
            " before_toc: !toc || !!(s.compareDocumentPosition(toc) & Node.DOCUMENT_POSITION_FOLLOWING)}); })()"))
        visit.scorecard = json.loads(result["result"]["value"])
        if evaluate is not None:
            result = self.call("Runtime.evaluate", session, returnByValue=True,
                               expression=f"JSON.stringify({evaluate})")
            visit.value = json.loads(result["result"]["value"])
        if screenshot is not None:
            shot = self.call("Page.captureScreenshot", session, format="png", captureBeyondViewport=True)
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            screenshot.write_bytes(base64.b64decode(shot["data"]))
        self.call("Target.closeTarget", targetId=target)
        return visit
