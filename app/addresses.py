"""The client's address: the peer's, or behind trusted proxies the one they forwarded.

``X-Forwarded-For`` is read only when the peer that connected is one of the operator's proxies
(``PARLOUR_TRUSTED_PROXIES``: addresses or CIDR networks, comma-separated). Its entries are then
walked from the right, each written by the hop to its right, skipping the trusted proxies: the
first address that is not one is the client (the rightmost-untrusted rule). Entries further
left were written by the client itself and are never read. An entry that is not an address
stops the walk at the proxy that passed it on, so no header can make up a new client.
"""
from __future__ import annotations

import ipaddress
from functools import lru_cache

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def trusted_networks(text: str) -> tuple[Network, ...]:
    """The networks of ``PARLOUR_TRUSTED_PROXIES``; ValueError naming the bad item."""
    networks = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item))
        except ValueError as err:
            raise ValueError(f"PARLOUR_TRUSTED_PROXIES: {item[:64]!r} is not an IP address or network ({err}); "
                             "give your proxies' addresses or CIDR networks, comma-separated, "
                             "e.g. 127.0.0.1,10.0.0.0/8") from None
    return tuple(networks)


def parse_address(text: str) -> Address | None:
    """An address as a header or the server writes it (``1.2.3.4``, ``::1``; a port after an IPv4
    address or a bracketed IPv6 one is dropped); IPv4 addresses mapped into IPv6 as IPv4. None
    when it is not an address."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, networks: tuple[Network, ...]) -> bool:
    return any(address in n for n in networks)


def grouped(text: str) -> str:
    """A client as the limits count it: an IPv4 address alone, an IPv6 address by its /64 network
    (the usual share of one subscriber: counted one by one, a client holding a /64, as home
    connections do, could be 2^64 clients to every per-client limit; a probe, session 21)."""
    if ":" not in text:
        return text
    address = parse_address(text)
    if address is None:
        return text
    if address.version == 4:
        return str(address)
    return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))


def client_of(peer: str | None, forwarded: list[str], networks: tuple[Network, ...]) -> str:
    """The client (``grouped``) given the ``peer`` that connected, the ``X-Forwarded-For``
    headers' values in order, and the trusted proxies' ``networks``."""
    if not peer:
        return "unknown"
    hop = parse_address(peer) if networks else None
    if hop is None or not _trusted(hop, networks):
        return grouped(peer[:64])
    for entry in reversed(",".join(forwarded).split(",")):
        if not entry.strip():
            continue
        address = parse_address(entry)
        if address is None:
            break
        if not _trusted(address, networks):
            return grouped(str(address))
        hop = address
    return grouped(str(hop))
