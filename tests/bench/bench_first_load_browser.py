"""Bench: the first load of each game's phone page in each language, as Chromium fetches it (bytes on the wire).

Prints numbers only; asserts nothing. Loopback only. ``bench_realtime.py`` counts the first load from
the page's own links (every font face whose characters the HTML holds: an upper bound); this counts
what a real browser fetches: Debian's Chromium (headless, through Playwright) at 360 x 740, one fresh
browser context per page, so nothing comes from its cache. The seat cookie comes from the join link,
opened in another context first. A request's bytes are its response headers and its encoded
(compressed, as sent) body, from Playwright's ``Request.sizes()``; the page's websocket is left out.

    python tests/bench/bench_first_load_browser.py [--ports LO-HI] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_realtime as rt  # noqa: E402

GAMES = ("sorry", "yellow_yangtze", "amun_re", "catan_junior")
LANGUAGES = ("en", "fa", "az", "ps")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
        "--no-first-run", "--disable-component-update", "--disable-sync"]


async def measure(port: int) -> list[dict]:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    base = f"http://{rt.HOST}:{port}"
    out = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
        try:
            for game in GAMES:
                r = await rt.http(port, "POST", "/api/tables/",
                                  {"game": game, "options": {}, "seats": [{"name": n} for n in rt.SEATS]})
                seat = r.json()["seats"][0]
                join = await browser.new_context()
                page = await join.new_page()
                link = seat["join_url"] if seat["join_url"].startswith("http") else base + seat["join_url"]
                await page.goto(link)
                await page.wait_for_url(f"**/t/{r.json()['code']}/")
                cookies = await join.cookies()
                await join.close()
                for language in LANGUAGES:
                    ctx = await browser.new_context(viewport={"width": 360, "height": 740}, locale=language)
                    await ctx.add_cookies([c for c in cookies if c["name"] != "django_language"] + [
                        {"name": "django_language", "value": language, "url": base}])
                    page = await ctx.new_page()
                    requests = []
                    page.on("requestfinished", lambda req, found=requests: found.append(req))
                    await page.goto(f"{base}/t/{r.json()['code']}/", wait_until="networkidle")
                    await page.evaluate("document.fonts.ready.then(() => true)")
                    await page.wait_for_timeout(300)
                    rows = []
                    for req in requests:
                        sizes = await req.sizes()
                        rows.append({"url": req.url.rsplit("/", 1)[-1][:48] or "/",
                                     "bytes": sizes["responseBodySize"] + sizes["responseHeadersSize"]})
                    out.append({"game": game, "language": language, "requests": len(rows),
                                "total_bytes": sum(x["bytes"] for x in rows), "rows": rows})
                    await ctx.close()
        finally:
            await browser.close()
    return out


async def main_async(args: argparse.Namespace) -> list[dict]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-first-load-"))
    envs = rt.Env(tmp, 13)
    servers = rt.Servers("app", "uvicorn", 1, envs.app_embedded(), tmp)
    try:
        await servers.ready()
        return await measure(servers.ports[0])
    finally:
        servers.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ports", help="LO-HI: the server listens on a port of this range only")
    p.add_argument("--json", help="also write the results to this file")
    args = p.parse_args()
    if args.ports:
        lo, _, hi = args.ports.partition("-")
        rt.PORT_RANGE = (int(lo), int(hi))
    results = asyncio.run(main_async(args))
    print("first load of a phone page in Chromium (360 x 740, empty cache; headers + compressed bodies):")
    print(f"{'game':<16}{'lang':<6}{'requests':>9}{'total B':>10}   what")
    for r in results:
        what = ", ".join(f"{x['url']} {x['bytes']}" for x in r["rows"])
        print(f"{r['game']:<16}{r['language']:<6}{r['requests']:>9}{r['total_bytes']:>10}   {what}")
    if args.json:
        Path(args.json).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
