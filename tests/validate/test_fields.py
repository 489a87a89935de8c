"""The field table (pipeline/fields.toml): every field declared once, read by the schema, chooser and specs."""

import pytest

from pipeline.decks.spec import load_spec
from pipeline.fields import Tolerance, fields, master_columns
from pipeline.games import registry as games
from pipeline.transform.observations import FIELDS
from pipeline.validate.choose import COLUMNS, DERIVED, FOLLOWS
from pipeline.validate.schema import refusal


def test_every_field_declared_once_with_what_the_stages_need():
    table = fields()
    assert FIELDS.keys() == {name for name, f in table.items() if not f.derived}
    assert COLUMNS[1 : 1 + len(master_columns())] == master_columns()
    for name, field in table.items():
        assert field.dtype in (str, float, bool, int), name
        if field.tolerance or field.referee:
            assert field.precedence and field.precedence_reason, name
        assert not (field.follows and field.derived), name
        assert field.follows in (None, *table), name
        assert all(other in table for other in field.override_with), name
    assert set(DERIVED) == {"capital_en", "capital_de", "capitals_de", "highest_point_name_de", "land_neighbour_count"}
    assert FOLLOWS == {"capital_lat": "capital", "capital_lon": "capital", "label_lon": "label_lat",
                       "highest_point_name": "highest_point_m"}  # fmt: skip


def test_recency_fields_have_a_referee_or_one_declared_series():
    """A yearly statistic is either refereed (with the referee's reason and drift) or one series whose
    precedence reason says so (life expectancy: UN WPP 2024; population: World Bank 2024)."""
    for field in fields().values():
        if field.recency and field.referee is not None:
            assert field.referee.reason and field.referee.drift_per_year > 0, field.name
        elif field.recency:
            assert field.precedence_reason.startswith("one series"), field.name
    assert fields()["life_expectancy"].precedence[0] == "owid-life-expectancy-unwpp"


@pytest.mark.parametrize(
    ("name", "value", "refused"),
    [("area_km2", 0.0, True), ("area_km2", 0.44, False), ("iso2", "DEU", True), ("iso2", "DE", False),
     ("land_neighbours", "", False), ("land_neighbours", "DEU;fr", True), ("flag", "4x3/de.svg", False),
     ("continents", "Europe;Atlantis", True), ("name_de", " ", True)],
)  # fmt: skip
def test_schema_reads_ranges_and_patterns_from_the_table(name, value, refused):
    assert (refusal(name, value) is not None) is refused


def test_widened_tolerance_allows_for_the_years_between():
    years = Tolerance("absolute", 3, "years")
    assert not years.agree(64.32, 67.8) and years.agree(64.32, 67.8, widen=1.5)
    assert Tolerance("relative", 0.05).agree(100.0, 112.0, widen=0.08)


def test_deck_specs_take_the_card_precision_of_their_column():
    world, laender = load_spec(games.get("world-game")), load_spec(games.get("laender-toppen"))
    area = fields()["area_km2"].card
    assert (world.fields["area_km2"].decimals, world.fields["area_km2"].sig_below) == (area["decimals"], 10)
    assert laender.fields["gdp_pcap_usd"].step == fields()["gdp_pcap_ppp"].card["step"] == 100
    assert laender.fields["life_expectancy"].decimals == 1 and world.fields["label_lat"].decimals == 4
    # a spec states its own precision where the card unit differs: inhabitants in millions
    assert laender.fields["inhabitants_m"].scale == 1e-6 and laender.fields["inhabitants_m"].sig_digits == 2
