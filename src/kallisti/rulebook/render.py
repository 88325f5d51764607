"""A rule book written as plain text, Markdown or a standalone HTML page, and an index of rule books."""

from __future__ import annotations

import html
import re
import textwrap

from kallisti.rulebook.structure import Book, Item, Items, Para, Part

WIDTH = 78  # the columns of plain text
EXTENSIONS = {"text": "txt", "md": "md", "html": "html"}  # the file extension of each format


# -- plain text ----------------------------------------------------------------------------
def render_text(book: Book) -> str:
    out = [book.title, "=" * len(book.title)]
    if book.description:
        out += textwrap.wrap(book.description, WIDTH)
    if book.sources:
        out.append(f"Ruleset files: {', '.join(book.sources)}")
    for s in book.sections:
        out += ["", s.title, "-" * len(s.title)]
        for block in s.blocks:
            out += _text_block(block, "")
    return "\n".join(out)


def _text_block(block, indent: str) -> list[str]:
    if isinstance(block, Para):
        return textwrap.wrap(block.text, WIDTH, initial_indent=indent, subsequent_indent=indent) if block.wrap else [indent + block.text]
    if isinstance(block, Items):
        return [line for item in block.items for line in _text_item(item, indent, block.wrap)]
    if isinstance(block, Part):
        out = ["", f"{block.title}: {block.lead}" if block.lead else block.title]
        for b in block.blocks:
            out += _text_block(b, indent + "  ")
        return out
    raise TypeError(block)


def _text_item(item: Item, indent: str, wrap: bool) -> list[str]:
    lead = "" if item.rank is None else f"{item.rank:>5}  "
    head = indent + lead + item.text
    lines = textwrap.wrap(head, WIDTH, subsequent_indent=indent + "  ") if wrap else [head]
    inner = indent + " " * len(lead) + "  "
    for sub in item.sub:
        lines += _text_item(sub, inner, wrap)
    return lines


# -- Markdown ------------------------------------------------------------------------------
def _md(text: str) -> str:
    """Ruleset text as Markdown: code spans (`d`) kept, characters Markdown would act on escaped outside them."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no code spans
        parts = [text]
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"([\\*_\[\]<>#|])", r"\\\1", parts[i])
    return "`".join(parts)


def render_md(book: Book) -> str:
    out = [f"# {_md(book.title)}", ""]
    if book.description:
        out += [_md(book.description), ""]
    if book.sources:
        out += [f"Ruleset files: {', '.join(_md(s) for s in book.sources)}", ""]
    for s in book.sections:
        out += [f"## {_md(s.title)}", ""]
        for block in s.blocks:
            out += _md_block(block)
    return "\n".join(out).rstrip("\n") + "\n"


def _md_block(block) -> list[str]:
    if isinstance(block, Para):
        return [_md(block.text), ""]
    if isinstance(block, Items):
        return [line for item in block.items for line in _md_item(item, "")] + [""]
    if isinstance(block, Part):
        out = [f"### {_md(_cap(block.title))}", ""]
        if block.lead:
            out += [_md(block.lead[0].upper() + block.lead[1:]) + ".", ""]
        for b in block.blocks:
            out += _md_block(b)
        return out
    raise TypeError(block)


def _md_item(item: Item, indent: str) -> list[str]:
    lead = f"**{item.rank}** " if item.rank else ""
    lines = [f"{indent}- {lead}{_md(item.text)}"]
    for sub in item.sub:
        lines += _md_item(sub, indent + "  ")
    return lines


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- HTML ----------------------------------------------------------------------------------
STYLE = ("body{font-family:Georgia,serif;max-width:46em;margin:2em auto;padding:0 1em;line-height:1.45;color:#222}"
         "h1{border-bottom:2px solid #555}h2{border-bottom:1px solid #aaa;margin-top:1.6em}"
         "code{background:#f2f2f2;padding:0 .2em}li{margin:.15em 0}.rank{font-weight:bold;margin-right:.4em}"
         ".lead{font-style:italic}.sources{color:#666;font-size:.9em}")


def _h(text: str) -> str:
    """Escaped text, its `code` spans marked up."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return html.escape(text)
    return "".join(html.escape(p) if i % 2 == 0 else f"<code>{html.escape(p)}</code>" for i, p in enumerate(parts))


def page(title: str, body: list[str]) -> str:
    """A standalone HTML5 page."""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      f"<title>{html.escape(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
                      *body, "</body>", "</html>"]) + "\n"


def render_html(book: Book) -> str:
    body = [f"<h1>{html.escape(book.title)}</h1>"]
    if book.description:
        body.append(f'<p class="description">{_h(book.description)}</p>')
    if book.sources:
        body.append(f'<p class="sources">Ruleset files: {html.escape(", ".join(book.sources))}</p>')
    for s in book.sections:
        body.append(f'<section id="{html.escape(s.id)}">')
        body.append(f"<h2>{html.escape(s.title)}</h2>")
        for block in s.blocks:
            body += _html_block(block)
        body.append("</section>")
    return page(book.title, body)


def _html_block(block) -> list[str]:
    if isinstance(block, Para):
        return [f"<p>{_h(block.text)}</p>"]
    if isinstance(block, Items):
        return ["<ul>", *(_html_item(item) for item in block.items), "</ul>"]
    if isinstance(block, Part):
        out = [f"<h3>{html.escape(_cap(block.title))}</h3>"]
        if block.lead:
            out.append(f'<p class="lead">{_h(_cap(block.lead))}.</p>')
        for b in block.blocks:
            out += _html_block(b)
        return out
    raise TypeError(block)


def _html_item(item: Item) -> str:
    lead = f'<span class="rank">{html.escape(item.rank)}</span>' if item.rank else ""
    sub = "<ul>" + "".join(_html_item(s) for s in item.sub) + "</ul>" if item.sub else ""
    return f"<li>{lead}{_h(item.text)}{sub}</li>"


RENDERERS = {"text": render_text, "md": render_md, "html": render_html}


# -- an index of rule books ----------------------------------------------------------------
def render_index(entries: list[tuple[str, str, str]], fmt: str) -> str:
    """An index of rule books: `entries` are (file name, game name, first sentence of its description)."""
    title = "Rule books"
    if fmt == "md":
        lines = [f"# {title}", ""] + [f"- [{_md(name)}]({file}): {_md(summary)}" for file, name, summary in entries]
        return "\n".join(lines) + "\n"
    if fmt == "html":
        items = [f'<li><a href="{html.escape(file)}">{html.escape(name)}</a>: {_h(summary)}</li>' for file, name, summary in entries]
        return page(title, [f"<h1>{title}</h1>", "<nav>", "<ul>", *items, "</ul>", "</nav>"])
    lines = [title, "=" * len(title)] + [f"{file}: {name}. {summary}" for file, name, summary in entries]
    return "\n".join(lines) + "\n"
