"""What the studio's tests share: the German states' form as a teacher fills it in, a client, and readers of a
page (its CSRF token, the problems beside each field)."""

import re

from fixtures.recipes.states import TABLE
from starlette.testclient import TestClient

from pipeline.studio import app

# The make-a-deck form of the German states as a teacher fills it in: templates/recipes/german-states.toml's
# five categories (fewer leave a hand too few to know the values by: play-check refuses it)
STATES = {
    "recipe.name": "states",
    "recipe.title": "Bundesländer toppen!",
    "recipe.game": "laender-toppen",
    "recipe.lang": "de",
    "recipe.cards": "16",
    "recipe.jokers": "Nord / Süd\nOst / West\nNord / Ost\nSüd / West",
    "items.columns.name": "Land",
    "items.columns.group": "Region",
    "items.columns.source": "Quelle",
    "categories[1].field": "Fläche (km²)",
    "categories[1].words.label": "Fläche",
    "categories[1].words.unit": "{n} km²",
    "categories[2].field": "Einwohner (Mio.)",
    "categories[2].words.label": "Einwohner",
    "categories[2].words.unit": "{n} Mio.",
    "categories[3].field": "Hauptstadt (Tsd. Einw.)",
    "categories[3].words.label": "Landeshauptstadt",
    "categories[3].words.unit": "{n} Tsd.",
    "categories[4].field": "Hauptstadt Breite (° N)",
    "categories[4].words.label": "Breite",
    "categories[4].words.unit": "{n}° N",
    "categories[5].field": "Hauptstadt Länge (° O)",
    "categories[5].words.label": "Länge",
    "categories[5].words.unit": "{n}° O",
}


def client(access_token: str | None = None) -> TestClient:
    return TestClient(app.create(access_token), follow_redirects=False)


def csrf(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has no form with a CSRF token"
    return found.group(1)


def problems(page: str) -> dict[str, list[str]]:
    """The problems a page shows, by the field they stand beside (`problem-<field>-<n>`)."""
    found: dict[str, list[str]] = {}
    for field, line in re.findall(r'id="problem-([^"]*)-\d+" role="alert">([^<]*)<', page):
        found.setdefault(field, []).append(line)
    return found


def table_bytes() -> bytes:
    return TABLE.read_bytes()
