"""A small HTML tree from the standard library's parser (the project installs no bs4 or lxml):
enough to find elements by id, tag, class and attribute, and read their text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        out: list[str] = []
        for c in self.children:
            out.append(c if isinstance(c, str) else c.text())
        return " ".join(" ".join(out).split())

    def iter(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.classes)
            and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def by_id(self, ident: str) -> Node | None:
        return next((n for n in self.iter() if n.attrs.get("id") == ident), None)

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.here = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.here)
        self.here.children.append(node)
        if tag not in VOID:
            self.here = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.here.children.append(Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.here))

    def handle_endtag(self, tag: str) -> None:
        n: Node | None = self.here
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.here = n.parent

    def handle_data(self, data: str) -> None:
        self.here.children.append(data)


def parse(html: bytes | str) -> Node:
    builder = _Builder()
    builder.feed(html.decode() if isinstance(html, bytes) else html)
    return builder.root


def described_words(doc: Node, control: Node) -> str:
    """The words a screen reader reads after a control's name: the elements its aria-describedby
    names, each of which must be on the page."""
    ids = (control.get("aria-describedby") or "").split()
    assert ids, f"<{control.tag} name={control.get('name')}> has no aria-describedby"
    parts = []
    for i in ids:
        target = doc.by_id(i)
        assert target is not None, f"aria-describedby points at #{i}, which is not on the page"
        parts.append(target.text())
    return " ".join(parts)
