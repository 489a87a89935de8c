"""Region decks' reviewed tables (docs/regions.md, issue 31 items 2-3): current divisions by ISO 3166-2 with
their local names and translations, places that are no municipality left out, merged places added to the
place they merged into, local names and names per language, and a place in the wrong division found by its
position. Small fixtures, no mirror."""

import pandas as pd

from pipeline.games.region import build, candidates, reviewed


def places(*rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["geonameid", "name", "division", "lat", "lon", "population"])


def test_agglomerations_and_districts_go_and_merged_communes_join_their_commune():
    table = places(
        (1, "Marne La Vallée", "11", 48.84, 2.64, 318325),
        (2, "Annecy", "84", 45.90, 6.13, 49232),
        (3, "Cran-Gevrier", "84", 45.90, 6.10, 19354),
        (4, "Dunkirk", "32", 51.03, 2.38, 86263),
        (5, "Paris", "11", 48.85, 2.35, 2138551),
    )
    towns = pd.DataFrame({"name": ["Annecy-le-Vieux", "Seynod"], "population": [21521, 18590]})
    fixed = reviewed.corrected(table, "FRA", towns).set_index("name")
    assert "Marne La Vallée" not in fixed.index and "Cran-Gevrier" not in fixed.index
    assert fixed.at["Annecy", "population"] == 49232 + 19354 + 21521 + 18590  # GeoNames' figures of its parts
    assert "Dunkerque" in fixed.index and "Dunkirk" not in fixed.index
    assert fixed.at["Dunkerque", "geonameid"] == 4


def test_mestre_is_venezia_and_a_district_of_rome_is_no_card():
    table = places(
        (1, "Venice", "20", 45.44, 12.33, 51298),
        (2, "Mestre", "20", 45.49, 12.25, 147662),
        (3, "Acilia-Castel Fusano-Ostia Antica", "07", 41.78, 12.37, 129362),
        (4, "Rome", "07", 41.89, 12.51, 2318895),
    )
    fixed = reviewed.corrected(table, "ITA", pd.DataFrame(columns=["name", "population"])).set_index("name")
    assert sorted(fixed.index) == ["Roma", "Venezia"]
    assert fixed.at["Venezia", "population"] == 51298 + 147662


def test_divisions_are_current_named_locally_and_translated():
    france, italy, poland = (reviewed.divisions(iso3) for iso3 in ("FRA", "ITA", "POL"))
    assert len(france) == 13 and len(italy) == 20 and len(poland) == 16
    assert reviewed.division_name(france["44"]) == "Grand Est"  # pycountry: Grand-Est
    assert [reviewed.division_name(italy[k]) for k in ("15", "13", "16")] == ["Sicilia", "Puglia", "Toscana"]
    assert [reviewed.division_name(poland[k]) for k in ("78", "74", "84")] == [
        "Mazowieckie",
        "Łódzkie",
        "Świętokrzyskie",
    ]
    assert reviewed.translated("ITA", "division", "Sicilia", "de", "IT-82") == "Sizilien"  # pycountry's German
    assert reviewed.translated("POL", "division", "Łódzkie", "de", "PL-10") == "Łódź"  # reviewed: pycountry's Łódz
    assert reviewed.translated("ITA", "division", "Sicilia", "xx", "IT-82") == "Sicilia"  # no translation: local
    assert reviewed.translated("POL", "division", "Mazowieckie", "pl", "PL-14") == "Mazowieckie"  # not mazowieckie
    assert reviewed.translated("FRA", "division", "Nouvelle-Aquitaine", "en", "FR-NAQ") == "Nouvelle-Aquitaine"


def test_places_are_named_in_the_deck_s_language_else_locally():
    assert [reviewed.translated("ITA", "place", n, "de") for n in ("Roma", "Milano", "Napoli", "Venezia")] == [
        "Rom",
        "Mailand",
        "Neapel",
        "Venedig",
    ]
    assert reviewed.translated("POL", "place", "Warszawa", "de") == "Warschau"
    assert reviewed.translated("ITA", "division", "Piemonte", "de", "IT-21") == "Piemont"  # pycountry: Piemonte
    assert reviewed.translated("FRA", "place", "Dunkerque", "de") == "Dünkirchen"
    assert reviewed.translated("ITA", "place", "Bologna", "de") == "Bologna"
    table = pd.DataFrame({"name": ["Roma"], "state": ["Lazio"], "code": ["IT-62"]})
    named = build.in_languages(table, "ITA", ["de", "pl"])
    assert named.loc[0, ["name_de", "name_pl", "state_de", "state_pl"]].tolist() == ["Rom", "Rzym", "Latium", "Lacjum"]


def test_a_place_far_from_its_division_s_towns_is_found_by_its_position(monkeypatch):
    # Lorraine's towns (admin1 "44") around Saint-Dié-des-Vosges, Alsace-like code "42" given to Saint-Dié
    grid = [(48.2 + 0.1 * i, 6.6 + 0.15 * j) for i in range(4) for j in range(4)]
    towns = pd.DataFrame(
        [(la, lo, "44") for la, lo in grid] + [(47.0, 2.0, "42")] + [(47.0 + 0.05 * i, 2.1, "42") for i in range(5)],
        columns=["lat", "lon", "division"],
    )
    monkeypatch.setattr(candidates, "towns_near", lambda iso2: towns)
    table = places((1, "Saint-Dié-des-Vosges", "42", 48.29, 6.95, 24628), (2, "Épinal", "44", 48.17, 6.45, 39518))
    table = table.assign(state=["Alsace", "Grand Est"])
    crs = "+proj=laea +lat_0=47 +lon_0=3 +datum=WGS84 +units=m"
    assert candidates.strays(table, crs, "FR") == ["Saint-Dié-des-Vosges (Alsace)"]


def test_names_in_every_language_the_country_s_own_kept_local_and_no_glossed_list_form():
    """Issue 41, item 5: exonyms from region_names.csv; in the country's own language the local name (Italian
    "Emilia-Romagna", not pycountry's "Emilia Romagna"); no list form of pycountry's ("Madrid, Communauté de")."""
    assert [reviewed.translated("POL", "place", p, "de") for p in ("Wrocław", "Gdańsk", "Szczecin", "Poznań")] == [
        "Breslau",
        "Danzig",
        "Stettin",
        "Posen",
    ]
    assert reviewed.translated("ITA", "place", "Bolzano", "de") == "Bozen"
    assert reviewed.translated("FRA", "place", "Nice", "de") == "Nizza"
    assert [reviewed.translated("FRA", "place", p, "pl") for p in ("Marseille", "Nice", "Toulouse")] == [
        "Marsylia",
        "Nicea",
        "Tuluza",
    ]
    assert reviewed.translated("ITA", "division", "Emilia-Romagna", "it", "IT-45") == "Emilia-Romagna"
    assert reviewed.translated("AUT", "place", "Wien", "de") == "Wien"  # the local name, in a German deck too
    assert reviewed.translated("ESP", "division", "La Rioja", "fr", "ES-RI") == "La Rioja"
    assert reviewed.translated("ESP", "division", "Murcia", "pl", "ES-MC") == "Murcia"  # not "Murcja (region)"
    assert reviewed.translated("ESP", "division", "Madrid", "fr", "ES-MD") == "Madrid"  # not "Madrid, Communauté de"


def test_a_german_deck_of_switzerland_names_its_french_and_italian_speaking_cantons_in_german():
    """Issue 41, item 5: Switzerland's own language for the deck is German, but its cantons' local names are in
    their own language (Genève, Vaud, Ticino): the German names (the Federal Constitution's) replace them."""
    cantons = [("Genève", "CH-GE"), ("Vaud", "CH-VD"), ("Valais", "CH-VS"), ("Ticino", "CH-TI"), ("Zürich", "CH-ZH")]
    assert [reviewed.translated("CHE", "division", n, "de", c) for n, c in cantons] == [
        "Genf",
        "Waadt",
        "Wallis",
        "Tessin",
        "Zürich",
    ]
    assert [reviewed.translated("CHE", "place", n, "de") for n in ("Genève", "Sion", "Lugano")] == [
        "Genf",
        "Sitten",
        "Lugano",
    ]
    assert reviewed.translated("CHE", "division", "Genève", "fr", "CH-GE") == "Genève"
    assert reviewed.translated("CHE", "place", "Genève", "en") == "Geneva"


def test_names_citing_cldr_are_cldr_s_exemplar_cities_as_babel_ships_them():
    """Switzerland's and the Netherlands' names from an installed data package (issue 41, item 6): each row
    citing CLDR gives the exemplar city of the time zone it names, in its language, as babel's CLDR has it."""
    import re

    import babel
    from babel import Locale

    cited = [r for r in reviewed.rows(reviewed.NAMES) if r["citation"].startswith("CLDR ")]
    assert {(r["iso3"], r["local"]) for r in cited} >= {("CHE", "Zürich"), ("NLD", "Amsterdam")}
    for row in cited:
        zone = re.findall(r"time zone (\S+) in", row["citation"])[0]
        city = Locale.parse(row["lang"]).time_zones.get(zone, {}).get("city") or zone.split("/")[-1].replace("_", " ")
        assert row["name"] == city != row["local"], row
        assert f"CLDR {babel.core.get_cldr_version()} " in row["citation"] and babel.__version__ in row["citation"]
    assert reviewed.translated("CHE", "place", "Zürich", "it") == "Zurigo"
