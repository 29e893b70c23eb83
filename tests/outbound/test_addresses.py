"""The address rule (notifications.outbound): a host is refused when ANY address it resolves to is
not a public internet address, per address family, for IP literals, for DNS names (resolution
mocked: this machine has no DNS) and for the real name "localhost"."""

from __future__ import annotations

import pytest

from notifications.outbound import AddressRefused, address_refusal, host_check
from tests.outbound.helpers import fake_dns


@pytest.mark.parametrize(
    "address,reason",
    [
        # IPv4
        ("127.0.0.1", "loopback"),
        ("127.255.0.9", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("192.168.1.20", "private"),
        ("169.254.169.254", "link_local"),  # the cloud metadata service
        ("100.64.0.1", "reserved"),  # shared address space (carrier NAT)
        ("0.0.0.0", "unspecified"),
        ("224.0.1.1", "multicast"),  # is_global says True: refused anyway
        ("239.255.255.250", "multicast"),
        ("198.18.0.1", "reserved"),
        ("192.0.2.7", "reserved"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "reserved"),
        # IPv6
        ("::1", "loopback"),
        ("::", "unspecified"),
        ("fe80::1", "link_local"),
        ("fe80::1%eth0", "link_local"),
        ("fc00::1", "private"),
        ("fd12:3456::1", "private"),
        ("ff02::1", "multicast"),  # is_global says True: refused anyway
        ("2001:db8::1", "private"),
        ("fec0::1", "reserved"),
        # IPv4 inside IPv6
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:169.254.169.254", "link_local"),
        ("::ffff:10.0.0.1", "private"),
        ("::127.0.0.1", "loopback"),  # IPv4-compatible
        ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1: is_global says True
        ("64:ff9b::a9fe:a9fe", "link_local"),  # NAT64 of 169.254.169.254: is_global says True
    ],
)
def test_non_global_addresses_are_refused(address, reason):
    assert address_refusal(address) == reason


@pytest.mark.parametrize("address", ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_pass(address):
    assert address_refusal(address) is None


@pytest.mark.parametrize(
    "literal,reason",
    [
        ("127.0.0.1", "loopback"),
        ("0x7f.1", "loopback"),
        ("2130706433", "loopback"),
        ("::1", "loopback"),
        ("[::1]", "loopback"),
    ],
)
def test_ip_literals_in_any_spelling_are_resolved_then_refused(literal, reason):
    with pytest.raises(AddressRefused) as refused:
        host_check(literal, 443)
    assert refused.value.reason == reason


def test_the_real_name_localhost_is_refused():
    with pytest.raises(AddressRefused) as refused:
        host_check("localhost", 443)
    assert refused.value.reason == "loopback"
    assert "loopback" in refused.value.words() and "public internet addresses" in refused.value.words()


@pytest.mark.parametrize(
    "addresses,reason",
    [
        (["127.0.0.1"], "loopback"),
        (["::1"], "loopback"),
        (["10.0.0.5"], "private"),
        (["fd00::5"], "private"),
        (["169.254.169.254"], "link_local"),
        (["93.184.215.14", "127.0.0.1"], "loopback"),  # one bad address among good ones is enough
        (["2606:4700::1111", "::ffff:192.168.0.1"], "private"),
    ],
)
def test_dns_names_resolving_to_internal_addresses_are_refused(monkeypatch, addresses, reason):
    asked = fake_dns(monkeypatch, {"hook.example.net": addresses})
    with pytest.raises(AddressRefused) as refused:
        host_check("hook.example.net", 443)
    assert refused.value.reason == reason and asked == ["hook.example.net"]


def test_a_name_resolving_only_to_public_addresses_passes(monkeypatch):
    fake_dns(monkeypatch, {"hook.example.net": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]})
    assert host_check("hook.example.net", 443) == ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]


def test_a_name_that_does_not_resolve_is_refused(monkeypatch):
    fake_dns(monkeypatch, {})
    with pytest.raises(AddressRefused) as refused:
        host_check("nowhere.invalid", 443)
    assert refused.value.reason == "unresolved"


def test_the_operator_may_let_a_network_through(settings):
    settings.OUTBOUND_ALLOWED_NETWORKS = ["10.20.0.0/16"]
    assert address_refusal("10.20.3.4") is None
    assert address_refusal("10.21.3.4") == "private"
