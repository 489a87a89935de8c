"""Decks: card counts and fields per game, card rules, versioning, determinism and the version files."""

import json
import subprocess
import sys
from datetime import date

import pytest
from fixtures.tiny.decks.synthetic import GRID, countries_table, write_inputs

from pipeline.decks import files, stage, versions
from pipeline.decks import published as published_decks
from pipeline.decks.spec import load_spec
from pipeline.decks.values import card_number
from pipeline.errors import GeodeckError
from pipeline.games import registry as games
from pipeline.games.laender_toppen import deck as laender_toppen
from pipeline.geo.grid import Grid
from pipeline.geo.world_numbers import numbered
from pipeline.transform.observations import CONTINENTS

DAY = date(2026, 11, 29)


def publish_all(decks_dir, build_root) -> list[stage.Result]:
    built = [name for name, game in games.registered().items() if game.in_build]  # region decks: geodeck region
    return [stage.build_deck(games.get(game), DAY, decks_dir=decks_dir, build_root=build_root) for game in built]


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    """All three decks built once from the synthetic tables: (build root, decks dir, results)."""
    root = write_inputs(tmp_path_factory.mktemp("build"))
    decks = tmp_path_factory.mktemp("decks")
    return root, decks, {r.game: r for r in publish_all(decks, root)}


def deck(published, game):
    _, decks, results = published
    return json.loads((decks / game / results[game].version / "deck.json").read_text())


def test_card_counts_and_required_fields_per_game(published):
    expected = {
        "laender-toppen": {"country": 119, "antarctica": 1, "joker": 8},
        "deutschland": {"place": 96, "guess": 24},
        "world-game": {"country": 170},
    }  # 169 synthetic UN members + the Vatican
    for game, kinds in expected.items():
        spec, cards = load_spec(games.get(game)), deck(published, game)["cards"]
        assert {k: sum(c["kind"] == k for c in cards) for k in kinds} == kinds
        assert len({c["id"] for c in cards}) == len(cards)
        for card in cards:
            assert list(card["fields"]) == sorted(spec.kinds[card["kind"]])
    countries = [c for c in deck(published, "laender-toppen")["cards"] if c["kind"] == "country"]
    for card in countries:
        assert all(v is not None for v in card["fields"].values()), card["id"]
        assert set(card["provenance"]) >= {"area_km2", "inhabitants_m", "gdp_pcap_usd", "name_de"}
        assert all(p["source"] for p in card["provenance"].values())


def test_world_game_members_and_numbers(published):
    cards = deck(published, "world-game")["cards"]
    codes = {c["fields"]["iso3"] for c in cards}
    assert "VAT" in codes and not codes & {"PSE", "XKX", "TWN", "ATA"}
    assert sorted(c["fields"]["map_number"] for c in cards) == list(range(1, len(cards) + 1))
    assert all(isinstance(c["fields"]["capitals"], list) for c in cards)


def test_antarctica_card_has_dashes_for_people_values(published):
    [card] = [c for c in deck(published, "laender-toppen")["cards"] if c["kind"] == "antarctica"]
    fields = card["fields"]
    assert fields["inhabitants_m"] is None and fields["life_expectancy"] is None
    assert fields["gdp_pcap_usd"] is None and fields["population_density"] is None
    assert fields["area_km2"] == 14_200_000 and fields["highest_peak_m"] == 4892
    assert fields["temperature_c"] == -49.0 and fields["continents"] == ["Antarctica"]


def test_antarctica_without_temperature_is_refused():
    countries = countries_table()
    countries.loc[countries["iso3"] == "ATA", "capital_temp_c"] = None
    with pytest.raises(GeodeckError, match="ATA.*temperature_c"):
        laender_toppen.cards(numbered(countries), load_spec(games.get("laender-toppen")))


def test_jokers_two_different_continents_covering_all_seven(published):
    jokers = [c for c in deck(published, "laender-toppen")["cards"] if c["kind"] == "joker"]
    assert len(jokers) == 8
    assert all(len(set(j["fields"]["continents"])) == 2 for j in jokers)
    assert {c for j in jokers for c in j["fields"]["continents"]} == set(CONTINENTS)


def test_only_russia_and_turkey_show_two_continents(published):
    cards = {c["fields"].get("iso3"): c for c in deck(published, "laender-toppen")["cards"]}
    assert cards["RUS"]["fields"]["continents"] == ["Europe", "Asia"]
    assert cards["TUR"]["fields"]["continents"] == ["Europe", "Asia"]
    two = [i for i, c in cards.items() if c["kind"] == "country" and len(c["fields"]["continents"]) > 1]
    assert sorted(two) == ["RUS", "TUR"]


def test_selection_keeps_always_countries_and_continent_shares():
    spec = load_spec(games.get("laender-toppen"))
    countries = numbered(countries_table())
    chosen = laender_toppen.select(countries, spec)
    assert len(chosen) == 119 == len(set(chosen))
    assert {"DEU", "FRA", "RUS", "USA", "KEN"} <= set(chosen)
    familiar = laender_toppen.familiar(countries, spec)
    pool = laender_toppen.eligible(countries, spec)
    recognised = pool[(pool["population"] >= spec.options["min_population"]) | pool["iso3"].isin(familiar)]
    pool = recognised if len(recognised) >= 119 else pool
    share = laender_toppen.quotas(pool["primary_continent"], 119)
    table = countries.set_index("iso3")
    picked = table.loc[chosen, "primary_continent"].value_counts()
    known = table.loc[sorted(familiar & set(table.index)), "primary_continent"].value_counts()
    assert sum(share.values()) == 119
    for continent, n in share.items():  # a continent's share, or its familiar countries where they exceed it
        assert picked.get(continent, 0) == max(n, known.get(continent, 0)) or known.get(continent, 0) < n
        assert picked.get(continent, 0) <= max(n, known.get(continent, 0))
    if len(recognised) >= 119:  # the floor applies: no unfamiliar country under 500,000 inhabitants
        small = table.loc[chosen].query("population < @spec.options['min_population']").index
        assert set(small) <= familiar


def test_card_precision():
    fields = load_spec(games.get("laender-toppen")).fields
    assert card_number(83_491_249, fields["inhabitants_m"]) == 83.5
    assert card_number(512_300, fields["inhabitants_m"]) == 0.51
    assert card_number(38_123, fields["inhabitants_m"]) == 0.038
    assert card_number(47_251.0, fields["gdp_pcap_usd"]) == 47_300
    assert card_number(28.45, fields["temperature_c"]) == 28.5
    assert card_number(1_098_580.6, fields["area_km2"]) == 1_098_581
    assert card_number(3.437, fields["population_density"]) == 3.4
    assert card_number(233.5, fields["population_density"]) == 234
    assert card_number(0.44, load_spec(games.get("world-game")).fields["area_km2"]) == 0.44
    # small areas keep 2 significant digits below 10 km² in both country decks (Monaco 2.02 km²)
    for game in ("world-game", "laender-toppen"):
        area = load_spec(games.get(game)).fields["area_km2"]
        assert card_number(2.02, area) == 2.0 and card_number(9.96, area) == 10 and card_number(61.2, area) == 61


def test_laender_toppen_prints_names_in_every_language(published):
    """Issue 30: `<field>_<lang>` for every registered language; CLDR's country names, and a name no
    language has its own of (the synthetic capital and peak) is the local one, flagged as a fallback."""
    card = {c["id"]: c for c in deck(published, "laender-toppen")["cards"]}["lt-DEU"]
    fields, provenance = card["fields"], card["provenance"]
    assert (fields["name_de"], fields["name_en"], fields["name_fr"]) == ("Deutschland", "Germany", "Allemagne")
    assert provenance["name_fr"]["source"] == "cldr" and "CLDR" in provenance["name_fr"]["vintage"]
    assert (
        fields["capital_en"] == fields["capital_pl"] == "Capital DEU" and fields["highest_mountain_de"] == "Mount DEU"
    )
    assert "fallback" in provenance["capital_pl"]["citation"] and "citation" not in provenance["capital_en"]
    assert not {"capital", "highest_mountain"} & set(fields)


def test_world_game_carries_label_points_and_english_capitals(published):
    card = next(c for c in deck(published, "world-game")["cards"] if c["id"] == "wg-DEU")
    assert card["fields"]["capitals"] == ["Capital DEU"] and card["fields"]["highest_point_name_en"] == "Mount DEU"
    assert isinstance(card["fields"]["label_lat"], float) and isinstance(card["fields"]["label_lon"], float)
    assert card["provenance"]["map_number"] == card["provenance"]["label_lon"]


def test_deutschland_prints_short_names_and_grid_provenance(published):
    card = deck(published, "deutschland")["cards"][0]
    assert "/" not in card["fields"]["name"] and card["fields"]["name"].startswith("Ort ")
    assert card["provenance"]["ns"]["source"] == "geo-grid / wikipedia-german-cities"
    assert "EPSG:3857" in card["provenance"]["we"]["vintage"]
    assert card["provenance"]["lat"]["source"] == "wikipedia-german-cities"


def test_deutschland_guess_cards(published):
    guesses = [c["fields"] for c in deck(published, "deutschland")["cards"] if c["kind"] == "guess"]
    assert {(g["colour"], g["front"]) for g in guesses} == {
        (c, f) for c in ("rot", "blau", "grün", "gelb") for f in ("N", "S", "W", "O", "most", "fewest")
    }
    assert all(g["back"] == ("M" if g["front"] == "W" else None) for g in guesses)


def test_same_inputs_give_byte_identical_files(published, tmp_path):
    root, decks, _results = published
    again = publish_all(tmp_path, root)
    for result in again:
        first, second = decks / result.game / result.version, tmp_path / result.game / result.version
        names = sorted(p.name for p in first.iterdir())
        assert names == ["CHANGELOG.md", "datapackage.json", "deck.csv", "deck.json", "manifest.json"]
        assert all((first / n).read_bytes() == (second / n).read_bytes() for n in names)


def test_unchanged_build_makes_no_new_version_and_changes_bump_the_patch(tmp_path):
    root, decks = write_inputs(tmp_path / "build"), tmp_path / "decks"
    first = stage.build_deck(games.get("world-game"), DAY, decks_dir=decks, build_root=root)
    assert (first.version, first.published) == ("2026.11.0", True)
    again = stage.build_deck(games.get("world-game"), DAY, decks_dir=decks, build_root=root)
    assert (again.version, again.published) == ("2026.11.0", False)
    countries = countries_table()
    countries.loc[countries["iso3"] == "DEU", "highest_point_m"] += 10  # below the ±50 m threshold
    write_inputs(root, countries)
    second = stage.build_deck(games.get("world-game"), DAY, decks_dir=decks, build_root=root)
    assert (second.version, second.published) == ("2026.11.1", True)
    assert versions.latest(decks / "world-game") == "2026.11.1"
    third_month = versions.next_version(decks / "world-game", date(2026, 12, 3))
    assert third_month == "2026.12.0"
    assert "wg-DEU" in (decks / "world-game" / "2026.11.1" / "CHANGELOG.md").read_text()


def test_versions_are_never_overwritten(tmp_path):
    versions.publish(tmp_path, "2026.11.0", {"deck.json": "{}"})
    with pytest.raises(GeodeckError, match="never overwritten"):
        versions.publish(tmp_path, "2026.11.0", {"deck.json": "{}"})
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".2026")]


def test_csv_round_trips_to_json_values(published):
    _, decks, results = published
    for game, result in results.items():
        folder = decks / game / result.version
        cards = json.loads((folder / "deck.json").read_text())["cards"]
        assert files.cards_from_csv(load_spec(games.get(game)), (folder / "deck.csv").read_text()) == cards


def test_datapackage_validates_with_frictionless(published):
    frictionless = pytest.importorskip("frictionless")
    _, decks, results = published
    for game, result in results.items():
        report = frictionless.validate(str(decks / game / result.version / "datapackage.json"))
        assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])[:5]


def test_manifest_names_sources_and_content_hash(published):
    _, decks, results = published
    manifest = json.loads((decks / "laender-toppen" / results["laender-toppen"].version / "manifest.json").read_text())
    assert set(manifest["sources"]) == {"factbook", "worldbank-population"}
    assert len(manifest["sources"]["factbook"]["snapshot"]) == 64
    assert manifest["content_hash"] == files.content_hash(deck(published, "laender-toppen"))


def test_deutschland_deck_carries_its_grid(published):
    """The map prints from the deck alone: deck.json has the geo stage's grid, the manifest the report's hash."""
    _root, decks, results = published
    document = deck(published, "deutschland")
    assert Grid.from_dict(document["grid"]) == GRID
    assert document["grid"]["control_points"] == "sources/reviewed/grid_control_points.csv"
    assert "grid" not in deck(published, "world-game") and "grid" not in deck(published, "laender-toppen")
    manifest = json.loads((decks / "deutschland" / results["deutschland"].version / "manifest.json").read_text())
    assert set(manifest["inputs"]) == {"build/geo/places.parquet", "build/geo/grid_report.json"}
    assert manifest["content_hash"] == files.content_hash(document)


def test_a_new_grid_alone_publishes_a_new_deutschland_version(tmp_path):
    root, decks = write_inputs(tmp_path / "build"), tmp_path / "decks"
    assert stage.build_deck(games.get("deutschland"), DAY, decks_dir=decks, build_root=root).version == "2026.11.0"
    moved = Grid(GRID.crs, (*GRID.matrix[:2], (814.0, -61.0)))
    (root / "geo" / "grid_report.json").write_text(json.dumps({"chosen": moved.to_dict()}))
    again = stage.build_deck(games.get("deutschland"), DAY, decks_dir=decks, build_root=root)
    assert (again.version, again.published) == ("2026.11.1", True)
    assert Grid.from_dict(json.loads((decks / "deutschland" / "2026.11.1" / "deck.json").read_text())["grid"]) == moved


def test_bad_input_errors_name_the_file(published, tmp_path):
    root, decks, _results = published
    with pytest.raises(GeodeckError, match="unknown game 'monopoly'"):
        stage.compare(games.get("monopoly"), decks_dir=decks, build_root=root)
    with pytest.raises(GeodeckError, match=r"2031\.01\.0 does not exist.*2026\.11\.0"):
        stage.compare(games.get("world-game"), "2031.01.0", decks_dir=decks, build_root=root)
    with pytest.raises(GeodeckError, match="not a deck version"):
        stage.compare(games.get("world-game"), "latest-ish", decks_dir=decks, build_root=root)
    broken = tmp_path / "world-game" / "2026.11.0"
    broken.mkdir(parents=True)
    (broken / "deck.json").write_text('{"cards": [{"id": "wg-X"')
    with pytest.raises(GeodeckError, match=r"world-game/2026\.11\.0/deck\.json is corrupted"):
        stage.compare(games.get("world-game"), "2026.11.0", decks_dir=tmp_path, build_root=root)
    with pytest.raises(GeodeckError, match=r"geo/places\.parquet: this build table does not exist; rebuild it"):
        stage.build_deck(games.get("deutschland"), DAY, decks_dir=tmp_path, build_root=tmp_path)
    no_grid = write_inputs(tmp_path / "build")
    (no_grid / "geo" / "grid_report.json").unlink()
    with pytest.raises(GeodeckError, match=r"geo/grid_report\.json is missing.*geodeck build"):
        stage.build_deck(games.get("deutschland"), DAY, decks_dir=tmp_path, build_root=no_grid)
    (no_grid / "geo" / "grid_report.json").write_text('{"chosen": {"crs": "EPSG:3857"}}')
    with pytest.raises(GeodeckError, match=r"grid_report\.json: no calibrated grid"):
        stage.build_deck(games.get("deutschland"), DAY, decks_dir=tmp_path, build_root=no_grid)


def test_published_deck_loader_errors_name_the_file_and_the_fix(published, tmp_path):
    """The one reader games and render use: LATEST by default; unknown game/version, no LATEST, bad file."""
    _, decks, results = published
    path, loaded = published_decks.deck(games.get("world-game"), decks_dir=decks)
    assert path == decks / "world-game" / results["world-game"].version / "deck.json"
    assert loaded == deck(published, "world-game")
    with pytest.raises(GeodeckError, match="unknown game 'monopoly'; known games: deutschland, laender-toppen"):
        published_decks.deck(games.get("monopoly"), decks_dir=decks)
    with pytest.raises(GeodeckError, match=r"world-game/2031\.01\.0 does not exist; known versions.*2026\.11\.0"):
        published_decks.deck(games.get("world-game"), "2031.01.0", decks_dir=decks)
    with pytest.raises(GeodeckError, match=r"no deck for world-game yet \(.*/LATEST is missing\); run `geodeck"):
        published_decks.deck(games.get("world-game"), decks_dir=tmp_path)
    broken = tmp_path / "world-game" / "2026.11.0"
    broken.mkdir(parents=True)
    (broken / "deck.json").write_text(json.dumps({**loaded, "cards": [{"id": "wg-X"}, *loaded["cards"][1:]]}))
    with pytest.raises(GeodeckError, match=r"2026\.11\.0/deck\.json: card wg-X: kind None is not one of country"):
        published_decks.deck(games.get("world-game"), "2026.11.0", decks_dir=tmp_path)
    (broken / "deck.json").write_text(json.dumps(loaded))
    with pytest.raises(GeodeckError, match=r"deck\.json is a world-game deck, not deutschland"):
        published_decks.read(broken / "deck.json", games.get("deutschland"))
    (broken / "deck.json").unlink()
    with pytest.raises(GeodeckError, match=r"deck\.json does not exist: .*2026\.11\.0 is no whole version"):
        published_decks.deck(games.get("world-game"), "2026.11.0", decks_dir=tmp_path)


def test_published_deck_loader_imports_neither_pandas_nor_reportlab():
    code = "import sys, pipeline.decks.published; print(sorted({'pandas', 'reportlab'} & set(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
