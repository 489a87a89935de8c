"""A custom deck's kit (issue 42): it prints for every base game, in the deck's language, true to the deck."""

import json
import zipfile
from pathlib import Path

import pandas as pd
import pdfplumber
import shapely
from fixtures.recipes import states as states_recipe
from pdftext import pages, words
from PIL import Image
from rich.console import Console

from pipeline import paths
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources, open_store
from pipeline.games import registry
from pipeline.games.custom import pictures
from pipeline.games.custom import table as tables
from pipeline.games.laender_toppen import terminal
from pipeline.games.world_game import terminal as wg_terminal
from pipeline.hashing import file_sha256
from pipeline.i18n import registry as languages
from pipeline.i18n.catalogue import labelled, translate, translate_plural
from pipeline.play import loop
from pipeline.play.view import View
from pipeline.render import layouts
from pipeline.render.maps import DETAIL_LAYER, NE

FIXTURES = Path(__file__).parents[2] / "fixtures" / "recipes"

AFRICA = """
[recipe]
name = "africa-40"
game = "world-game"
title = "The World Game: Africa and Europe"
cards = 40
[items]
continents = ["Africa", "Europe"]
"""


# Real African and European countries (the synthetic table keeps a real code where the map draws it): a region
REGION = (  # ISO3 codes
    "DZA AGO BEN BWA BFA BDI CMR CPV CAF TCD COM COG COD CIV DJI ERI SWZ ETH GAB GMB GHA GIN GNB KEN LSO LBR LBY "
    "MDG MWI MLI MRT MUS MAR MOZ NAM NER NGA RWA STP SEN SYC SLE SOM ZAF SSD SDN TZA TGO TUN UGA ZMB ZWE ALB AUT "
    "BEL BIH BGR HRV CZE DNK EST FIN FRA DEU GRC HUN ISL IRL ITA LVA LTU LUX MLT MDA MNE NLD MKD NOR POL PRT ROU "
    "SRB SVK SVN ESP SWE CHE UKR GBR"
)
OWN_MAP = {  # the cover, the card legend and the Location challenge name the deck's own map, not the world map
    "en": ("world map", "Accessories: numbered map (one A3 page", "Number on the map: the answer to the Location",
           "Location: point to the country on the map (in the accessories)"),
    "de": ("Weltkarte", "Zubehör: nummerierte Karte (eine A3-Seite", "Nummer auf der Karte: die Antwort der Aufgabe",
           "Lage: das Land auf der Karte (im Zubehör) zeigen"),
    "fr": ("carte du monde", "Accessoires : carte numérotée (une page A3", "Numéro sur la carte : la réponse au défi",
           "Localisation : montrer le pays sur la carte (dans les accessoires)"),
}  # fmt: skip
MAP_TITLE = {
    "en": "The World Game: Africa and Europe · map",
    "de": "The World Game: Africa and Europe · Karte",
    "fr": "The World Game: Africa and Europe · carte",
}


def countries(workshop: Path) -> pd.DataFrame:
    return pd.read_parquet(workshop / "build" / "geo" / "countries.parquet")


def test_a_world_game_deck_of_a_region_prints_its_own_map(geodeck, workshop):
    """Its countries numbered 1-40 (they were numbered as in the whole world's deck: 136-180), on a map of
    their own titled by the recipe (it was the world map, "The World Game", with its insets), which the kit's
    cover, card legend and Location challenge name as the map's title does (they said "world map"), in de, en and
    fr."""
    table = countries(workshop)
    chosen = [code for code in REGION.split() if code in set(table["iso3"])][:40]
    assert len(chosen) == 40
    features = json.loads(open_store().read_source(load_sources()[NE], DETAIL_LAYER))["features"]
    inside = {
        f["properties"]["ADM0_A3"]: shapely.geometry.shape(f["geometry"]).representative_point() for f in features
    }
    label = {code: (point.y, point.x) for code, point in inside.items()}
    where = [label.get(code, (0.0, 0.0)) for code in table["iso3"]]  # the real label points (the table's are random)
    table = table.assign(label_lat=[lat for lat, _ in where], label_lon=[lon for _, lon in where])
    table.to_parquet(workshop / "build" / "geo" / "countries.parquet")
    recipe = workshop / "africa.toml"
    recipe.write_text(
        AFRICA.replace('continents = ["Africa", "Europe"]', f'continents = ["Antarctica"]\ninclude = {chosen}'),
        encoding="utf-8",
    )
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    deck = json.loads(next((paths.DECKS_DIR / "custom-africa-40").glob("*/deck.json")).read_text(encoding="utf-8"))
    assert sorted(card["fields"]["map_number"] for card in deck["cards"]) == list(range(1, 41))
    for lang in ("en", "de", "fr"):
        out = workshop / f"kit-{lang}.pdf"
        code, output = geodeck(["print", "custom-africa-40", "--kit", "--lang", lang, "--out", str(out)])
        assert code == 0, output
        kit = [words(page) for page in pages(out.read_bytes())]
        poster = [page for page in kit if MAP_TITLE[lang] in page]
        assert poster, (lang, kit[-5:])
        at = kit.index(poster[0])
        halves = " ".join(page.rsplit(" ", 1)[0] for page in kit[at : at + 3])  # the A4 halves, less page numbers
        numbers = {int(token) for token in halves.split() if token.isdigit()}
        assert numbers == set(range(1, 41)), (lang, sorted(numbers))
        assert "The World Game ·" not in " ".join(kit) and "Caribbean" not in halves  # no world map, no insets
        text = " ".join(kit)
        world, *said = OWN_MAP[lang]
        assert world not in text and all(line in text for line in said), (lang, [line in text for line in said])
    english = " ".join(words(page) for page in pages((workshop / "kit-en.pdf").read_bytes()))
    assert "Kosovo, Palestine, and Taiwan, whether or not they have a card in this deck" in english  # CLDR
    assert "40 countries, four facts, four challenges" in english  # not the whole world's 194
    card = deck["cards"][0]["id"]
    for lang in ("en", "de", "fr"):  # `geodeck play` asks for the map as the kit names it
        view = loop._view(
            registry.get("custom-africa-40"),
            wg_terminal,
            None,
            deck,
            ["bot"],
            languages.language(lang),
            Console(),
            None,
        )
        kinds = ("location", "location-reverse")
        asked = [wg_terminal.question(kind, card, view) for kind in kinds]
        number = deck["cards"][0]["fields"]["map_number"]
        own = [view.say(wg_terminal.OWN_MAP_QUESTIONS[kind], name=view.card(card), number=number) for kind in kinds]
        assert asked == own and OWN_MAP[lang][0] not in " ".join(asked), (lang, asked)


def test_a_deck_of_countries_in_its_own_groups_keeps_the_built_in_card(geodeck, workshop):
    """The locator map, the capital and the highest mountain, as on Länder toppen's own card, with the recipe's
    groups in the band (its cards had a name, a flag and the rows, half of each card white), in de, en and fr."""
    table = countries(workshop)
    europe = table.loc[table["primary_continent"] == "Europe", "iso3"].tolist()
    africa = table.loc[table["primary_continent"] == "Africa", "iso3"].tolist()
    recipe = workshop / "groups.toml"
    recipe.write_text(
        '[recipe]\nname = "groups"\ngame = "laender-toppen"\ntitle = "Nord gegen Süd"\nlang = "de"\ncards = 36\n'
        'jokers = [["Nord", "Süd"], ["Süd", "Nord"], ["Nord", "Süd"], ["Süd", "Nord"]]\n'
        f'[items]\ncontinents = ["Europe", "Africa"]\n[items.groups]\nNord = {europe}\n"Süd" = {africa}\n'
        + "".join(
            f'[[categories]]\nfield = "{field}"\nwords = {{ label = "{label}", unit = "{{n}}" }}\n'
            for field, label in (("area_km2", "Fläche"), ("population", "Einwohner"), ("life_expectancy", "Alter"))
        ),
        encoding="utf-8",
    )
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    deck = json.loads(next((paths.DECKS_DIR / "custom-groups").glob("*/deck.json")).read_text(encoding="utf-8"))
    items = [card for card in deck["cards"] if card["kind"] != "joker"]
    facts = {"de": ("Hauptstadt: ", "Höchster Berg: "), "en": ("Capital: ", "Highest mountain: "),
             "fr": ("Capitale : ", "Plus haut sommet : ")}  # fmt: skip
    for lang, (capital, mountain) in facts.items():
        out = workshop / f"kit-{lang}.pdf"
        code, output = geodeck(["print", "custom-groups", "--kit", "--lang", lang, "--out", str(out)])
        assert code == 0, output
        kit = pages(out.read_bytes())
        faces = " ".join(
            words(page) for page in kit if sum(card["fields"][f"name_{lang}"] in page for card in items) > 4
        )
        for card in items:
            assert f"{capital}{card['fields'][f'capital_{lang}']}" in faces, (lang, card["id"])
            assert f"{mountain}{card['fields'][f'highest_mountain_{lang}']}" in faces, (lang, card["id"])
        assert "Nord" in faces and "Süd" in faces  # the recipe's groups in the band
        assert "Natural Earth" in words(kit[-1]) + words(kit[-2])  # the locator maps' source is credited


def five(label: str) -> tuple[tuple[str, str, str], ...]:
    """The three categories with the capital's label `label` and its position, the inhabitants without a unit."""
    area = states_recipe.THREE[0]
    return (
        area,
        ("Einwohner (Mio.)", 'label = "Einwohner", unit = "{n}"', ""),
        ("Hauptstadt (Tsd. Einw.)", f'label = "{label}", unit = "{{n}} Tsd."', ""),
        ("Hauptstadt Breite (° N)", 'label = "Breite", unit = "{n}° N"', ""),
        ("Hauptstadt Länge (° O)", 'label = "Länge", unit = "{n}° O"', ""),
    )


def states(workshop: Path, label: str, head: str = "") -> Path:
    """The states' recipe with the capital's label `label`, `head` added to its [recipe] table."""
    path = workshop / "states.toml"
    text = states_recipe.recipe(categories=five(label)).replace("cards = 16\n", f"cards = 16\n{head}")
    path.write_text(text, encoding="utf-8")
    return path


def test_a_label_that_would_not_print_is_refused_naming_its_recipe_key(geodeck, workshop):
    label = "Einwohnerzahl der Landeshauptstadt laut dem Statistischen Landesamt"
    code, output = geodeck(["deck", "new", str(states(workshop, label)), "--games", "20", "--jobs", "1"])
    assert code == 2, output
    (line,) = [line for line in output.splitlines() if line.startswith("error:")]
    assert f"categories[3].words.label '{label}' does not print: {len(label)} characters, the box holds " in line
    assert "templates/cards" not in line
    assert not (paths.DECKS_DIR / "custom-states").exists()  # nothing published


def dealt(deck: dict) -> list[int]:
    """The player counts Länder toppen's engine deals the deck at."""
    game = registry.get("laender-toppen").engine.Game
    counts = []
    for count in range(2, 10):
        try:
            game.from_deck(deck, players=count)
        except GeodeckError:
            continue
        counts.append(count)
    return counts


def test_a_table_deck_s_kit_is_in_its_language_and_true_to_the_deck(geodeck, workshop):
    """Counts, strips, the final tie and the sources as the deck has them, in German and French (the cover said
    "16 country cards", the score sheet "wer die Antarktis hat, gewinnt", the sources page named flag-icons and not
    the table; its rules spoke of "Kontinente": now of the recipe's group word); a unit of just "{n}" prints (its
    strip line is empty)."""
    word = 'group_word = { de = "Region", fr = "région" }\n'  # English: the game's own word, "group"
    code, output = geodeck(["deck", "new", str(states(workshop, "Hauptstadt", word)), "--games", "20", "--jobs", "1"])
    result = next(line for line in output.splitlines() if line.startswith("custom-"))  # stdout, before the notes
    assert code == 0 and "play-check" in result and result.endswith("; 2–4 players"), output  # as it says
    kits = {}
    for lang in ("de", "fr", "en", "es", "it", "pl"):
        out = workshop / f"kit-{lang}.pdf"
        code, output = geodeck(["print", "custom-states", "--kit", "--lang", lang, "--out", str(out)])
        assert code == 0, output
        kits[lang] = " ".join(" ".join(pages(out.read_bytes())).split())
    german, french, english = kits["de"], kits["fr"], kits["en"]
    deck = json.loads(next((paths.DECKS_DIR / "custom-states").glob("*/deck.json")).read_text(encoding="utf-8"))
    jokers = sum(card["kind"] == "joker" for card in deck["cards"])
    items, strips = len(deck["cards"]) - jokers, max(dealt(deck))  # a strip per player of the largest table
    assert (items, jokers) == (16, 4) and 2 <= strips <= 4  # the words below: Polish's plural of 2-4
    covers = {  # the cover's counts in every language (it said "16 country cards" in all of them)
        "de": ("Karten: {i} Karten und {j} Joker", "Zubehör: {s} Faltstreifen, Wertungsblatt"),
        "fr": ("Cartes : {i} cartes et {j} jokers", "{s} bandes pliées"),
        "en": ("Cards: {i} cards and {j} jokers", "Accessories: {s} folding strips, score sheet"),
        "es": ("Cartas: {i} cartas y {j} comodines", "Accesorios: {s} tiras plegadas, hoja de puntuación"),
        "it": ("Carte: {i} carte e {j} jolly", "Accessori: {s} strisce pieghevoli, foglio segnapunti"),
        "pl": ("Karty: {i} kart i {j} dżokery", "Akcesoria: {s} składane paski, arkusz punktacji"),
    }
    for lang, said in covers.items():
        for line in said:
            assert line.format(i=items, j=jokers, s=strips) in kits[lang], (lang, line)
    assert "je Region einen offenen Stapel" in german and "Wertung: Je Region (in der Reihenfolge" in german
    assert "Offene Stapel, einer je Region" in german  # the score sheet
    assert "une pile face visible par région" in french and "Décompte : par région (dans l’ordre" in french
    assert "a face-up pile per group" in english and "Scoring: per group (in the order" in english
    for kit, word in ((german, "Kontinent"), (french, "continent"), (english, "continent")):
        assert word not in kit
    assert "13,37" in german  # Bayern's inhabitants, without a unit
    assert "country" not in german + french
    assert "Antarktis" not in german and "Antarctique" not in french
    assert "Gleichstand am Ende: Es gibt mehrere Sieger" in german
    table = FIXTURES / "german-states.csv"
    assert f"german-states.csv (die eigene Tabelle des Rezepts, sha256 {file_sha256(table)})" in german
    assert "in der Spalte Quelle, z. B. Destatis" in german and "flag-icons" not in german


FOUR = """
[recipe]
name = "four"
game = "laender-toppen"
title = "Europa toppen!"
lang = "de"
cards = 40
[items]
continents = ["Europe", "Africa"]
[[categories]]
field = "area_km2"
words = { label = "Fläche", unit = "{n} km²" }
[[categories]]
field = "population"
words = { label = "Einwohner", unit = "{n}" }
[[categories]]
field = "life_expectancy"
words = { label = "Lebenserwartung", unit = "{n} Jahre" }
[[categories]]
field = "capital_temp_c"
words = { label = "Temperatur (Hauptstadt)", unit = "{n} °C" }
"""


def test_the_rows_of_four_categories_keep_their_label_boxes(geodeck, workshop):
    """Taller rows, not narrower labels: 'Temperatur (Hauptstadt)' fits four rows as it fits six (it did not:
    the pictogram grew with the row and the kit could not be printed)."""
    recipe = workshop / "four.toml"
    recipe.write_text(FOUR, encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and "published" in output, output


def test_the_terminal_writes_a_value_as_the_card_does():
    """ "77,0 Jahre" at the table where the card prints it so (the terminal said "77 Jahre")."""
    layout = layouts.load(registry.get("laender-toppen"), languages.language("de"))
    view = View(languages.language("de"), (), {}, layout)
    index = [row["field"] for row in layout.data["categories"]].index("life_expectancy")
    assert terminal.value(index, 77, view) == "77,0 Jahre"


def test_a_rebuild_of_an_unchanged_recipe_and_table_does_nothing(geodeck, workshop):
    recipe = states(workshop, "Hauptstadt")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    items = workshop / "build" / "custom" / "states" / "items.parquet"
    before = items.stat().st_mtime_ns
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and "unchanged: 20 cards; play-check as published" in output, output
    assert items.stat().st_mtime_ns == before  # nothing chosen, played or printed again
    recipe.write_text(recipe.read_text(encoding="utf-8").replace("Bundesländer toppen!", "Länder"), encoding="utf-8")
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0 and items.stat().st_mtime_ns != before, output


def test_a_table_s_pictures_are_drawn_and_a_bad_one_is_refused_in_one_line(geodeck, workshop, monkeypatch):
    """A picture column (paths relative to the table, written with backslashes as Excel on Windows writes them) is
    drawn on the cards, pinned with the published version (the files may go); `deck export` carries them in its
    one file, at their cells' paths, and `deck new` of that file draws them again; a missing file, a file that is
    no picture and a path out of the table's folder are one line each in the recipe's language, naming the row."""
    folder = workshop / "class"
    (folder / "bilder").mkdir(parents=True)
    rows = states_recipe.TABLE.read_text(encoding="utf-8").splitlines()
    drawn = {}  # row -> picture cell: a PNG for every other state, a JPEG for some, none for the rest
    for n in range(2, len(rows) + 1):
        cell = f"bilder/{n}.png" if n % 2 else (f"bilder/{n}.jpg" if n % 3 else "")
        if cell:
            Image.new("RGB", (60 + n, 40), (10 * n, 120, 90)).save(folder / cell)
            drawn[n] = cell
    table = folder / "states.csv"
    windows = {n: cell.replace("/", "\\") for n, cell in drawn.items()}  # bilder\3.png, CRLF: Excel on Windows
    written = [f"{rows[0]},Bild"] + [f"{r},{windows.get(n, '')}" for n, r in enumerate(rows[1:], 2)]
    table.write_bytes("\r\n".join(written).encode("utf-8"))
    recipe = folder / "states.toml"
    text = states_recipe.recipe(table="states.csv", items='columns = { name = "Land", group = "Region", source = '
                                '"Quelle", picture = "Bild" }')  # fmt: skip
    recipe.write_text(text.replace('columns = { name = "Land", group = "Region", source = "Quelle" }\n', ""))
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    assert code == 0, output
    (folder / "bilder").rename(folder / "aside")  # the published version prints its own pinned pictures
    shared = workshop / "colleague" / "states.zip"
    shared.parent.mkdir()
    code, output = geodeck(["deck", "export", "states", "--out", str(shared)])
    assert code == 0, output
    with zipfile.ZipFile(shared) as archive:
        assert set(archive.namelist()) == {"states.toml", "states.csv", *drawn.values()}
    code, output = geodeck(["deck", "remove", "states", "--yes"])
    assert code == 0, output
    monkeypatch.chdir(shared.parent)  # the colleague's: the pictures travel inside the file
    code, output = geodeck(["deck", "new", "states.zip", "--games", "20", "--jobs", "1"])
    assert code == 0 and "custom-states" in output, output
    for lang in ("de", "en", "fr"):
        out = workshop / f"cards-{lang}.pdf"
        code, output = geodeck(["print", "custom-states", "--what", "cards", "--lang", lang, "--out", str(out)])
        assert code == 0, output
        with pdfplumber.open(out) as pdf:
            assert sum(len(page.images) for page in pdf.pages) == len(drawn), lang
    (folder / "aside").rename(folder / "bilder")
    (folder / drawn[3]).unlink()  # Bayern's
    (folder / drawn[4]).write_text("not a picture", encoding="utf-8")  # Berlin's
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    lines = [line for line in output.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 2, output

    def said(n: int, name: str, message: str, **fields: str) -> str:  # the German line, from the catalogue
        row = translate_plural("de", *tables.ROWS, 1, rows=f"{n} ({name})")
        return labelled("de", row, translate("de", message, cell=f"'{windows[n]}'", table="states.csv", **fields))

    assert lines[0].endswith(said(3, "Bayern", pictures.MISSING)) and "Zeile 3 (Bayern)" in lines[0]
    assert lines[1].endswith(said(4, "Berlin", pictures.NO_PICTURE, problem=translate("de", pictures.NO_IMAGE)))
    Image.new("RGB", (50, 40), (200, 40, 40)).save(workshop / "outside.png")
    Image.new("RGB", (50, 40), (40, 40, 200)).save(folder / drawn[4])
    table.write_text(table.read_text().replace(f",{windows[3]}", ",..\\outside.png"))
    code, output = geodeck(["deck", "new", str(recipe), "--games", "20", "--jobs", "1"])
    (line,) = [line for line in output.splitlines() if line.startswith("error:")]
    windows[3] = "..\\outside.png"
    assert code == 2 and line.endswith(said(3, "Bayern", pictures.RELATIVE)), output
