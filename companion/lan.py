"""The address other phones at the table can reach this machine on.

``make run HOST=0.0.0.0`` serves on every address of the machine; the address worth printing, putting in
join links and QR codes and allowing as a host is the machine's address on the local network (the Wi-Fi
the phones share), never ``0.0.0.0`` and never a loopback address. :func:`lan_address` finds it without
sending anything: ``connect()`` on a UDP socket only asks the kernel which local address would route to
the target; no packet leaves the machine. This module needs no Django, so the Makefile runs it
(``python -m companion.lan --host H --port P``) to print the URL before the server starts.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import sys

#: Private addresses (RFC 1918) whose route tells which interface faces the local network. UDP
#: ``connect`` sends nothing, so these need not exist; the first that routes answers.
PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
LOOPBACK = "127.0.0.1"
#: Bind addresses that mean "every address of this machine".
ALL_ADDRESSES = {"0.0.0.0", "::", "[::]"}


def _usable(address: str) -> bool:
    """True for an IPv4 address a phone on the local network could reach (not loopback, unspecified or link-local)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def _routed_address(probe: str) -> str | None:
    """The local address the kernel would send from to ``probe`` (nothing is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))  # UDP: no handshake, no packet; only picks the route
            return sock.getsockname()[0]
    except OSError:
        return None


def lan_address() -> str:
    """This machine's IPv4 address on the local network, as a string; ``"127.0.0.1"`` when it has none.

    Tries, in order: the route to each private address of :data:`PROBES` (UDP ``connect``, no traffic),
    then the addresses ``socket.getaddrinfo(socket.gethostname())`` gives; the first usable one (see
    :func:`_usable`) wins. Never raises: a machine without a network falls back to loopback.
    """
    for probe in PROBES:
        address = _routed_address(probe)
        if address and _usable(address):
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if _usable(address):
            return address
    return LOOPBACK


def serves_all_addresses(host: str) -> bool:
    """True when ``host`` (a bind address such as ``make run HOST=``) means every address of the machine."""
    return host.strip() in ALL_ADDRESSES


def is_loopback(host: str) -> bool:
    """True when ``host`` (a name or address, with or without ``[ ]`` and ``:port``) names this machine only."""
    name = host.strip().lower()
    if name.startswith("["):  # [::1] or [::1]:8000
        name = name[1:].split("]", 1)[0]
    elif name.count(":") == 1:  # 127.0.0.1:8000, localhost:8000
        name = name.split(":", 1)[0]
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it goes in a URL: IPv6 addresses in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def served_url(host: str, port: int | str) -> str:
    """The URL to print for a server bound to ``host``:``port``: the LAN address for every-address binds."""
    shown = lan_address() if serves_all_addresses(host) else host
    return f"http://{url_host(shown)}:{port}/"


def banner(host: str, port: int | str, public_url: str = "") -> str:
    """The lines ``make run`` prints: where to open the app here, and where the phones open it."""
    local = f"http://{url_host(LOOPBACK if serves_all_addresses(host) else host)}:{port}/"
    lines = ["", "  Companion starts now (the server's log follows)."]
    if public_url:
        lines += [f"  Phones open {public_url} (PUBLIC_URL); on this machine {local}"]
    elif serves_all_addresses(host):
        phones = served_url(host, port)
        if phones == local:
            lines += [f"  Open {local} on this machine. No network address found: phones cannot join yet",
                      "  (connect this machine to the Wi-Fi, or set PUBLIC_URL)."]
        else:
            lines += [f"  Phones on the same Wi-Fi as this machine open {phones}", f"  (on this machine {local} works too)."]
    elif is_loopback(host):
        lines += [f"  Open {local} on this machine.",
                  "  (Phones on your Wi-Fi cannot reach this address: make run HOST=0.0.0.0 lets them join.)"]
    else:
        lines += [f"  Phones on the same network open {local}"]
    return "\n".join(lines + [""])


def allowed_hosts(serve_host: str, public_url: str, lan: str) -> list[str]:
    """The host names to add to ``ALLOWED_HOSTS`` for a server bound to ``serve_host``.

    ``lan``: the address :func:`lan_address` found (only used for every-address binds; loopback adds
    nothing, it is allowed already). A specific bind address and the host of ``public_url`` are added too,
    so every address the app prints or puts in a join link is one it answers on.
    """
    from urllib.parse import urlsplit

    hosts = []
    if serve_host and serves_all_addresses(serve_host):
        if lan and not is_loopback(lan):
            hosts.append(url_host(lan))
    elif serve_host and not is_loopback(serve_host):
        hosts.append(url_host(serve_host.strip("[]")))
    if public_url:
        name = urlsplit(public_url).hostname
        if name:
            hosts.append(url_host(name))
    return hosts


def main(argv: list[str] | None = None) -> int:
    """Print :func:`banner` for ``--host`` and ``--port`` (and ``--public-url``); used by ``make run``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=LOOPBACK)
    parser.add_argument("--port", default="8000")
    parser.add_argument("--public-url", default="")
    args = parser.parse_args(argv)
    sys.stdout.write(banner(args.host, args.port, args.public_url) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
