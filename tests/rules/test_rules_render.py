"""Markdown, sanitising, directives through markdown, glossary links."""

from __future__ import annotations

from skatschule.rules.content import Registry
from skatschule.rules.render import markdown_to_html, plain_text, render_rule, render_term, term_definitions


def html(source: str, registry, **kw) -> str:  # type: ignore[no-untyped-def]
    return str(markdown_to_html(source, lang=kw.pop("lang", "de"), deck="french", registry=registry, **kw))


def test_sanitising_strips_script_and_handlers(registry: Registry) -> None:
    out = html(
        'Hallo <script>alert("x")</script><b onclick="evil()">fett</b> <a href="javascript:alert(1)">x</a>'
        " <img src=x onerror=alert(1)>",
        registry,
    )
    assert "<script" not in out and "alert" not in out
    assert "onclick" not in out and "onerror" not in out and "javascript:" not in out
    assert "<b>fett</b>" in out


def test_markdown_tables_and_directives_survive(registry: Registry) -> None:
    rendered = render_rule("1.2.1", "de", "french", registry)
    text = str(rendered.text)
    assert "<table>" in text and "<td>" in text
    assert text.count("= 48") == 1 and "Null = 23" in text
    assert "mit 2</span>" in text and '<span class="directive-points">25</span>' in text
    assert "-100" in text
    assert '<a class="rule-ref" href="/regeln/1.1.2"' in text


def test_cards_svg_is_not_mangled_by_markdown_or_sanitiser(registry: Registry) -> None:
    rendered = render_rule("1.1.1", "de", "french", registry)
    example = str(rendered.annotations[1].html)
    assert example.count("<svg") == 2 and "viewBox" in example and 'data-card="CJ"' in example
    assert "*" not in example and "<em>" not in example


def test_annotation_labels_in_both_languages(registry: Registry) -> None:
    labels_de = [a.label for a in render_rule("1.1.1", "de", "french", registry).annotations]
    labels_en = [a.label for a in render_rule("1.1.1", "en", "french", registry).annotations]
    assert labels_de[:4] == ["Erläuterung", "Beispiel", "Schiedsrichter-Hinweis", "Geschichte"]
    assert labels_de[4].startswith("Variante")
    assert labels_en[:4] == ["Explanation", "Example", "Referee note", "History"]
    assert labels_en[4].startswith("Variant")


def test_glossary_terms_linked_once_per_rule(registry: Registry) -> None:
    rendered = render_rule("1.2.1", "de", "french", registry)
    text = str(rendered.text)
    # "Schneider" three times in the text: only the first becomes a term link
    assert text.count('class="term"') == 1
    assert (
        '<a class="term" href="/regeln/glossar/#g-schneider" aria-describedby="termdef-schneider">Schneider</a>' in text
    )
    # the definition is not in the text: the page adds it once, out of the sentence
    assert "Eine Partei mit höchstens 30 Augen." not in text
    defs = str(term_definitions(text, text, lang="de", registry=registry))
    assert defs.count('id="termdef-schneider"') == 1 and "Eine Partei mit höchstens 30 Augen." in defs
    assert defs.startswith('<div class="term-defs" hidden>')
    done: set[str] = set()
    assert term_definitions(text, lang="de", registry=registry, done=done) and done == {"schneider"}
    assert str(term_definitions(text, lang="de", registry=registry, done=done)) == ""
    # not inside links (the [[rule:]] link's title) nor inside the result explanation
    assert "überreiztes" in text  # whole words only: "Überreizt" does not link inside "überreiztes"


def test_glossary_link_once_across_text_and_annotations(registry: Registry) -> None:
    rendered = render_rule("1.1.1", "de", "french", registry)
    everything = str(rendered.text) + "".join(str(a.html) for a in rendered.annotations)
    assert everything.count("#g-vorhand") == 1  # "Vorhand" in the Erläuterung
    english = render_rule("1.1.1", "en", "french", registry)
    assert "#g-vorhand" in "".join(str(a.html) for a in english.annotations)  # "Forehand", case-insensitive


def test_terms_not_linked_inside_headings_code_or_links(registry: Registry) -> None:
    out = html("## Schneider\n\n`Schneider` und [Schneider](/x)", registry, seen_terms=set())
    assert 'class="term"' not in out
    out = html("Vorhand und VH und Vorhandspiel", registry, seen_terms=set())
    assert out.count('class="term"') == 1 and "Vorhandspiel" in out


def test_glossary_definition_does_not_link_itself(registry: Registry) -> None:
    assert "g-schneider" not in str(render_term("schneider", "de", "french", registry))


def test_plain_text_for_search(registry: Registry) -> None:
    text = plain_text(
        "**Fett** und [Link](/x): [[value: clubs mit 2 hand]]\n\n| a | b |\n|---|---|\n| 1 | 2 |", registry=registry
    )
    assert text.startswith("Fett und Link: mit 2, Spiel 3, Hand 4 × Kreuz 12 = 48")
    assert "|" not in text and "---" not in text and "*" not in text


def test_rendered_rule_is_cached(registry: Registry) -> None:
    assert render_rule("1.1.1", "de", "french", registry) is render_rule("1.1.1", "de", "french", registry)
    assert render_rule("1.1.1", "de", "french", registry) is not render_rule("1.1.1", "de", "german", registry)


def test_capitalised_german_terms_need_a_capital(registry: Registry) -> None:
    # "Schneider" is a noun: lower-case "schneider" is not the term in German text ...
    out = html("der schneider und dann Schneider", registry, seen_terms=set())
    assert out.count('class="term"') == 1 and 'aria-describedby="termdef-schneider">Schneider</a>' in out
    # ... while English matching stays case-insensitive
    out = html("the schneider", registry, lang="en", seen_terms=set())
    assert 'aria-describedby="termdef-schneider">schneider</a>' in out
