"""Qualification evidence is private data: allowed types by content, size limit, random names,
no file left by a refused request, served only to the player and that league's staff."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.models import QualificationApplication

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 64
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"
HTML = b"<html><script>fetch('/api/applications/')</script></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def _stored_files(settings) -> list[Path]:
    roots = [Path(settings.PRIVATE_MEDIA_ROOT), Path(settings.MEDIA_ROOT)]
    return [p for root in roots if root.exists() for p in root.rglob("*") if p.is_file()]


def _apply(api, season, tier, name, content, content_type="application/octet-stream"):
    upload = SimpleUploadedFile(name, content, content_type=content_type)
    return api.post("/api/applications/", {"season": season.pk, "tier": tier.pk, "proof": upload}, format="multipart")


@pytest.mark.parametrize(
    "name,content,content_type",
    [
        ("proof.html", HTML, "text/html"),
        ("proof.png", HTML, "image/png"),  # the name and the declared type lie: the content decides
        ("proof.svg", SVG, "image/svg+xml"),
        ("setup.exe", b"MZ\x90\x00" + b"\x00" * 1000, "application/x-msdownload"),
    ],
)
def test_it_refuses_types_outside_the_allow_list(as_user, member, season, tier, settings, name, content, content_type):
    response = _apply(as_user(member), season, tier, name, content, content_type)
    assert response.status_code == 400
    assert "proof" in response.json()["errors"]
    assert QualificationApplication.objects.count() == 0
    assert _stored_files(settings) == []


def test_it_refuses_a_file_over_the_size_limit(as_user, member, season, tier, settings):
    settings.EVIDENCE_MAX_BYTES = 1024 * 1024
    response = _apply(as_user(member), season, tier, "big.png", PNG + b"\x00" * (2 * 1024 * 1024))
    assert response.status_code == 400
    assert "MiB" in response.json()["errors"]["proof"][0]
    assert _stored_files(settings) == []


def test_it_stores_an_allowed_file_privately_under_a_random_name(as_user, member, season, tier, settings):
    response = _apply(as_user(member), season, tier, "../../evil name.png", PNG, "text/html")
    assert response.status_code == 201, response.content
    files = _stored_files(settings)
    assert len(files) == 1
    stored = files[0]
    assert stored.is_relative_to(Path(settings.PRIVATE_MEDIA_ROOT))
    assert "evil" not in stored.name and stored.suffix == ".png" and len(stored.stem) == 32
    application = QualificationApplication.objects.get()
    assert application.proof_type == "image/png"
    assert response.json()["proof_url"] == reverse("application-proof", args=[application.pk])


def test_a_refused_duplicate_leaves_no_file(as_user, member, season, tier, settings):
    api = as_user(member)
    assert _apply(api, season, tier, "a.png", PNG).status_code == 201
    second = _apply(api, season, tier, "b.pdf", PDF)
    assert second.status_code == 400
    assert len(_stored_files(settings)) == 1


def test_the_file_is_never_public(client, as_user, member, season, tier, settings):
    _apply(as_user(member), season, tier, "a.png", PNG)
    application = QualificationApplication.objects.get()
    # no media URL serves it, under any name
    assert client.get(f"/media/{application.proof.name}").status_code == 404
    assert client.get(f"/private/{application.proof.name}").status_code == 404
    response = client.get(reverse("application-proof", args=[application.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_validates_ownership(
    client, as_user, member, bystander, admin, referee, other_admin, other_referee, season, tier
):
    _apply(as_user(member), season, tier, "a.png", PNG)
    url = reverse("application-proof", args=[QualificationApplication.objects.get().pk])
    for user, expected in [
        (bystander, 403),
        (other_admin, 403),
        (other_referee, 403),
        (member, 200),
        (admin, 200),
        (referee, 200),
    ]:
        client.force_login(user)
        assert client.get(url).status_code == expected, user


def test_it_is_served_as_a_download_with_nosniff(client, as_user, member, admin, season, tier):
    _apply(as_user(member), season, tier, "a.png", PNG)
    url = reverse("application-proof", args=[QualificationApplication.objects.get().pk])
    client.force_login(admin)
    response = client.get(url)
    assert response["Content-Disposition"].startswith("attachment")
    assert response["Content-Type"] == "application/octet-stream"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response["Content-Security-Policy"]
    assert b"".join(response.streaming_content) == PNG
    inline = client.get(url + "?inline=1")
    assert inline["Content-Disposition"].startswith("inline") and inline["Content-Type"] == "image/png"


def test_a_file_changed_on_disk_is_not_shown_inline(client, as_user, member, admin, season, tier):
    _apply(as_user(member), season, tier, "a.png", PNG)
    application = QualificationApplication.objects.get()
    Path(application.proof.path).write_bytes(HTML)
    client.force_login(admin)
    response = client.get(reverse("application-proof", args=[application.pk]) + "?inline=1")
    assert response["Content-Disposition"].startswith("attachment")
    assert response["Content-Type"] == "application/octet-stream"


def test_the_my_page_form_applies_the_same_checks(client, member, season, tier, settings):
    client.force_login(member)
    response = client.post(
        reverse("me"),
        {"season": season.pk, "tier": tier.pk, "proof": SimpleUploadedFile("x.html", HTML, content_type="text/html")},
    )
    assert response.status_code == 200  # the form again, with the error
    assert QualificationApplication.objects.count() == 0
    assert _stored_files(settings) == []


def test_every_page_has_a_content_security_policy(client, season):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
