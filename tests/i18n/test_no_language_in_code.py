"""No language is named in code (issue 30): outside the registry (pipeline/i18n/) no module of pipeline/
chooses by a language code: no `lang == "de"`, no `("de", "en")` pair, no `"_de"` suffix, no call given
words by language (`say(de="Rot", en="Red")`) or `{"de": ...}` tables. A game's own language is data
(`default_lang`), the languages are the registry's (`registry.codes()`, so a new catalogue is searched for
too). A call's keyword is its callee's parameter, not a language: `echo(text, nl=False)` chooses nothing
in Dutch. The column names of the master tables (`name_de` of a source) are data and not searched."""

import ast

from pipeline.i18n import registry
from pipeline.paths import ROOT

PIPELINE = ROOT / "pipeline"
CODES = set(registry.codes())


def _code(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and node.value in CODES else None


def _suffix(text: str) -> bool:
    return text[:1] == "_" and text[1:] in CODES


def _words_by_language(call: ast.Call) -> list[str]:
    """The language-code keywords of a call that passes words by language: two or more of them, or one given
    a text (a flag like click's `nl=False` is neither)."""
    named = [k for k in call.keywords if k.arg in CODES]
    text = [k for k in named if isinstance(k.value, ast.JoinedStr) or isinstance(getattr(k.value, "value", None), str)]
    return [str(k.arg) for k in named] if len(named) >= 2 or text else []


def choices(source: str) -> list[str]:
    """The language choices in a module's source: `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_code(o) for o in [node.left, *node.comparators]):
            found.append(f"{node.lineno}: compares with a language code")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and sum(bool(_code(e)) for e in node.elts) >= 2:
            found.append(f"{node.lineno}: a list of language codes")
        elif isinstance(node, ast.Dict) and any(k is not None and _code(k) for k in node.keys):
            found.append(f"{node.lineno}: a table keyed by language code")
        elif isinstance(node, ast.Call) and (named := _words_by_language(node)):
            found.append(f"{node.lineno}: words by language ({', '.join(f'{k}=' for k in named)})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _suffix(node.value):
            found.append(f"{node.lineno}: the suffix {node.value!r}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_no_module_outside_the_registry_chooses_by_language():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PIPELINE.rglob("*.py"))
        if "i18n" not in path.relative_to(PIPELINE).parts
        for line in choices(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_scan_finds_each_kind_of_choice():
    source = "\n".join(
        [
            'a = x if lang == "de" else y',
            'b = lang in ("de", "en")',
            'c = fields.get(name + ("_de" if german else ""))',
            "d = say(de='Rot', en='Red')",
            'e = {"de": "Rot", "en": "Red"}',
            'f = say("player {n}", n=1)',  # a message with fields: no choice
            'g = fields[f"name_{lang}"]',
            "h = echo(text, en=False)",  # a flag of the callee's (click's nl=False): no choice
            "i = label(en=f'{n} red')",
        ]
    )
    assert sorted(line.split(":")[0] for line in choices(source)) == ["1", "2", "3", "4", "5", "9"]
    assert not any(line.startswith(("6:", "7:", "8:")) for line in choices(source))
