"""The site's address as players' phones reach it: for the links in e-mails and the TV's
QR code, which have no request of the phone to ask.

``SITE_URL`` says it when set. Otherwise ``manage.py serve`` (``make run``) derives it from
the address it serves on: the host itself, or, serving every interface (``0.0.0.0``), the
machine's address on the local network. A loopback address (127.0.0.1, localhost) is one
no phone can open: the TV says so, with the command that serves on the Wi-Fi.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

# Every interface: the address to give phones is the machine's own on the network.
ANY_HOSTS = frozenset({"0.0.0.0", "::", ""})
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
# Where the site is served on the Wi-Fi, as the TV tells the host.
WIFI_COMMAND = "make run HOST=0.0.0.0"
# A documentation address (RFC 5737): connecting a UDP socket to it sends nothing, and
# tells which local address the system would use to reach the network.
_PROBE = ("192.0.2.1", 9)


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_is_loopback(url: str) -> bool:
    return is_loopback(urlsplit(url).hostname or "")


def lan_address() -> str | None:
    """This machine's address on the local network (None: no network)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_PROBE)
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if is_loopback(address) else address


def site_url_for(host: str, port: int) -> str:
    """The address phones use for a server bound to ``host``:``port``."""
    if host in ANY_HOSTS:
        host = lan_address() or "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"
