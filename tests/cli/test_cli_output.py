"""Results and messages written to a file or pipe keep every column: rich would cut them to 80 columns there."""

import io

from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from pipeline.cli_output import UNCUT, Results, console


def wide_table() -> Table:
    table = Table("a column name longer than usual", "another long column name", "check", title="wide")
    table.add_row("lt-AFG", "life_expectancy " * 3, "SUSPICIOUS")
    return table


def test_a_wide_table_prints_uncut_to_a_file_and_cut_on_a_terminal():
    piped = Results(file=io.StringIO())
    piped.print(wide_table())
    text = piped.file.getvalue()  # type: ignore[attr-defined]
    assert "another long column name" in text and "SUSPICIOUS" in text and "…" not in text
    assert max(map(len, text.splitlines())) > 80 and piped.width == 80  # the console's own width is kept
    terminal = Results(file=io.StringIO(), force_terminal=True, width=80)
    terminal.print(wide_table())
    lines = terminal.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(Text.from_ansi(line).cell_len for line in lines) == 80


def test_what_fills_any_width_keeps_the_console_width():
    piped = Results(file=io.StringIO())
    piped.print(Rule("turn"), "x" * (UNCUT + 5))
    assert max(len(line) for line in piped.file.getvalue().splitlines()) == 80  # type: ignore[attr-defined]


def test_diff_to_a_pipe_keeps_the_suspicious_marker(geodeck):
    code, output = geodeck(["diff", "laender-toppen", "2026.11.0", "2026.11.1"])
    assert code == 1 and "SUSPICIOUS" in output and "┃ check" in output


def test_text_with_brackets_printed_without_markup_is_measured_as_text():
    piped = Results(file=io.StringIO())
    piped.print("'[/x]' is not a move " + "y" * 100, markup=False)
    assert piped.file.getvalue() == "'[/x]' is not a move " + "y" * 100 + "\n"  # type: ignore[attr-defined]


def test_a_message_on_stderr_keeps_its_line_in_a_log(capsys):
    wrote = "wrote 120 fronts and 120 backs for MakePlayingCards, order 1 × 126 cards, 15.0 MB:"  # 83 columns
    console.print(wrote, highlight=False, markup=False)
    assert capsys.readouterr().err == wrote + "\n"  # rich would break it before "MB:" at 80 columns
